package io.sluice.verticles.engine.instance;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.protocol.binary.codec.InfoSnapshot;
import io.sluice.protocol.binary.codec.RequestType;

import org.junit.jupiter.api.Test;

/** Instance-wide request counters: totals at once, per-minute for the last closed window (spec §4). */
class RequestCountersTest {

  private static final int INSERT = RequestType.INSERT.code();
  private static final int QUERY = RequestType.QUERY.code();
  private static final int EVENT = RequestType.EVENT.code();

  private final RequestCounters counters = new RequestCounters();

  private void count(int code, int times) {
    for (int i = 0; i < times; i++) {
      counters.count(ConnectionStats.Protocol.TCP, code);
    }
  }

  @Test
  void totalsCountEachTypeCodeAtOnce() {
    count(INSERT, 3);
    count(QUERY, 2);
    count(EVENT, 1);
    count(0x0a, 4); // an EVENT's unknown inner type still has a slot

    long[] totals = counters.totals();
    assertThat(totals).hasSize(InfoSnapshot.TYPE_SLOTS);
    assertThat(totals[INSERT]).isEqualTo(3);
    assertThat(totals[QUERY]).isEqualTo(2);
    assertThat(totals[EVENT]).isEqualTo(1);
    assertThat(totals[0x0a]).isEqualTo(4);
    assertThat(sum(totals)).isEqualTo(10);
  }

  @Test
  void codesOutsideTheSlotsAreIgnored() {
    counters.count(ConnectionStats.Protocol.TCP, -1);
    counters.count(ConnectionStats.Protocol.TCP, 32);
    counters.count(ConnectionStats.Protocol.TCP, 0xff);
    counters.count(ConnectionStats.Protocol.TCP, Integer.MAX_VALUE);
    counters.count(ConnectionStats.Protocol.TCP, 0);
    counters.count(ConnectionStats.Protocol.TCP, 31);

    long[] totals = counters.totals();
    assertThat(sum(totals)).isEqualTo(2);
    assertThat(totals[0]).isEqualTo(1);
    assertThat(totals[31]).isEqualTo(1);
    counters.rollTo(1);
    assertThat(sum(counters.perMinute())).isEqualTo(2);
  }

  @Test
  void perMinuteIsZeroUntilTheFirstWindowCloses() {
    count(INSERT, 5);
    counters.countBytes(100, 200);

    assertThat(counters.perMinute()).containsOnly(0L);
    counters.rollTo(0);
    assertThat(counters.perMinute()).containsOnly(0L);
    assertThat(counters.readBytesPerMinute()).isZero();
    assertThat(counters.writeBytesPerMinute()).isZero();
  }

  @Test
  void perMinuteIsTheLastClosedWindow() {
    count(INSERT, 5);
    counters.countBytes(100, 200);
    counters.rollTo(1);

    assertThat(counters.perMinute()[INSERT]).isEqualTo(5);
    assertThat(counters.readBytesPerMinute()).isEqualTo(100);
    assertThat(counters.writeBytesPerMinute()).isEqualTo(200);

    count(INSERT, 2);
    count(QUERY, 7);
    assertThat(counters.perMinute()[INSERT]).as("the open window is not reported").isEqualTo(5);

    counters.rollTo(2);
    assertThat(counters.perMinute()[INSERT]).isEqualTo(2);
    assertThat(counters.perMinute()[QUERY]).isEqualTo(7);
    assertThat(counters.readBytesPerMinute()).isZero();
    assertThat(counters.totals()[INSERT]).isEqualTo(7);
    assertThat(counters.totals()[QUERY]).isEqualTo(7);
  }

  @Test
  void rollingToTheSameOrAnEarlierWindowChangesNothing() {
    count(INSERT, 5);
    counters.rollTo(1);
    count(INSERT, 3);

    counters.rollTo(1);
    counters.rollTo(0);

    assertThat(counters.perMinute()[INSERT]).isEqualTo(5);
    counters.rollTo(2);
    assertThat(counters.perMinute()[INSERT]).isEqualTo(3);
  }

  @Test
  void skippingWindowsMakesThePerMinuteZero() {
    count(INSERT, 5);
    counters.countBytes(10, 20);

    counters.rollTo(3);

    assertThat(counters.perMinute()).containsOnly(0L);
    assertThat(counters.readBytesPerMinute()).isZero();
    assertThat(counters.writeBytesPerMinute()).isZero();
    assertThat(counters.totals()[INSERT]).isEqualTo(5);

    count(QUERY, 4);
    counters.rollTo(4);
    assertThat(counters.perMinute()[QUERY]).isEqualTo(4);
    assertThat(counters.perMinute()[INSERT]).isZero();
  }

  @Test
  void idleWindowAfterABusyOneReportsZero() {
    count(INSERT, 5);
    counters.rollTo(1);
    counters.rollTo(2);

    assertThat(counters.perMinute()).containsOnly(0L);
  }

  @Test
  void perMinuteIsACopy() {
    count(INSERT, 1);
    counters.rollTo(1);

    counters.perMinute()[INSERT] = 99;
    counters.totals()[INSERT] = 99;

    assertThat(counters.perMinute()[INSERT]).isEqualTo(1);
    assertThat(counters.totals()[INSERT]).isEqualTo(1);
  }

  private static long sum(long[] values) {
    long sum = 0;
    for (long value : values) {
      sum += value;
    }
    return sum;
  }

  @Test
  void countsByProtocolAndInTheTotals() {
    counters.count(ConnectionStats.Protocol.TCP, INSERT);
    counters.count(ConnectionStats.Protocol.WEBSOCKET, INSERT);
    counters.count(ConnectionStats.Protocol.WEBSOCKET, INSERT);
    counters.count(ConnectionStats.Protocol.TCP, 0xff); // an EVENT's bogus inner type: no slot
    assertThat(counters.total(ConnectionStats.Protocol.TCP, INSERT)).isEqualTo(1);
    assertThat(counters.total(ConnectionStats.Protocol.WEBSOCKET, INSERT)).isEqualTo(2);
    assertThat(counters.total(INSERT)).isEqualTo(3);
  }
}
