package io.sluice.verticles.engine.session;

import io.sluice.verticles.engine.routing.ShardRouter;
import static io.sluice.verticles.engine.session.SessionHarness.insert;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.protocol.binary.codec.RequestType;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import org.junit.jupiter.api.Test;

/** EVENT runs the request in its payload and answers {@code 01} + the inner reply (spec §2.12). */
class EventTest {

  private final SessionHarness h = new SessionHarness(2);

  private int shardOf(String key) {
    return ShardRouter.routeOf(key.getBytes(StandardCharsets.US_ASCII), 2);
  }

  @Test
  void eventWrappingInsertGoesToTheKeyShardAndAnswersOneOne() {
    h.read("19 04 09 00 63 68 61 6e 01 03 00 04 3c 00 02 65 76");

    assertThat(h.transport.dispatched).singleElement()
        .satisfies(d -> assertThat(d.batch.route()).isEqualTo(shardOf("ev")))
        .satisfies(d -> assertThat(d.batch.request(0).type()).isEqualTo(RequestType.INSERT));
    h.transport.completeAllInReverse();
    assertThat(h.transport.writes).containsExactly("01 01");
  }

  @Test
  void eventWrappingQueryAppendsTheQueryReply() {
    h.read("19 04 09 00 63 68 61 6e 01 03 00 04 3c 00 02 65 76");
    h.transport.completeAllInReverse();
    h.clock.advance(Duration.ofMillis(1));

    h.read("19 00 04 00 02 02 65 76");
    h.transport.completeAllInReverse();

    assertThat(h.transport.writes).containsExactly("01 01", "01 01 03 00 04 3b 00");
  }

  @Test
  void eventWhoseInnerRequestFailsAnswersOneZero() {
    h.read("19 00 04 00 02 02 65 76");
    h.transport.completeAllInReverse();

    assertThat(h.transport.writes).containsExactly("01 00");
  }

  @Test
  void eventWithAnUnknownInnerTypeAnswersOneZeroLocally() {
    h.read("19 01 02 00 63 0a 00");

    assertThat(h.transport.dispatched).isEmpty();
    assertThat(h.transport.writes).containsExactly("01 00");
  }

  @Test
  void eventWithAnEmptyOrTruncatedPayloadAnswersOneZero() {
    h.read("19 00 00 00", "19 00 03 00 02 05 61");

    assertThat(h.transport.dispatched).isEmpty();
    assertThat(h.transport.writes).containsExactly("01 00 01 00");
    assertThat(h.transport.closes).isEmpty();
  }

  @Test
  void eventWrappingWhoamiIsAnsweredLocally() {
    h.read("19 00 01 00 18");

    assertThat(h.transport.dispatched).isEmpty();
    assertThat(h.transport.writes).containsExactly("01 01 " + h.idHex());
  }

  @Test
  void eventWrappingListGoesToEveryShard() {
    h.read("19 00 01 00 07");

    assertThat(h.transport.dispatched).hasSize(2);
    h.transport.completeAllInReverse();
    assertThat(h.transport.writes).containsExactly("01 01 00 00 00 00 00 00 00 00");
  }

  @Test
  void eventsKeepTheirPlaceAmongOtherRequests() {
    String key = h.keyOn(0, "k");
    h.read(insert(1, 60, key), "19 01 02 00 63 0a 00", "18", "19 00 04 00 02 02 65 76");
    h.transport.completeAllInReverse();

    assertThat(h.transport.writes).containsExactly("01 01 00 01 " + h.idHex() + " 01 00");
  }

  @Test
  void connectionCountsOnlyTheEventButTheInstanceCountsTheInnerTypeToo() {
    h.read("19 04 09 00 63 68 61 6e 01 03 00 04 3c 00 02 65 76", "19 01 02 00 63 0a 00");
    h.transport.completeAllInReverse();

    assertThat(h.connection.requestCount(RequestType.EVENT.code())).isEqualTo(2);
    assertThat(h.connection.requestCount(RequestType.INSERT.code())).isZero();
    long[] totals = h.instance.counters().totals();
    assertThat(totals[RequestType.EVENT.code()]).isEqualTo(2);
    assertThat(totals[RequestType.INSERT.code()]).isEqualTo(1);
    assertThat(totals[0x0a]).isEqualTo(1);
  }

  @Test
  void eventWrappingAnEventRunsTheInnermostRequest() {
    // EVENT( EVENT( INSERT "ev" ) ): the reference runs the EVENT handler on the payload, which
    // runs the INSERT: 01 | 01 | 01.
    h.read("19 00 0d 00 19 00 09 00 01 03 00 04 3c 00 02 65 76");
    h.transport.completeAllInReverse();
    h.clock.advance(Duration.ofMillis(1));
    h.read("19 00 08 00 19 00 04 00 02 02 65 76");
    h.transport.completeAllInReverse();

    assertThat(h.transport.writes).containsExactly("01 01 01", "01 01 01 03 00 04 3b 00");
    long[] totals = h.instance.counters().totals();
    assertThat(totals[RequestType.EVENT.code()]).isEqualTo(4);
    assertThat(totals[RequestType.INSERT.code()]).isEqualTo(1);
    assertThat(totals[RequestType.QUERY.code()]).isEqualTo(1);
    assertThat(h.connection.requestCount(RequestType.EVENT.code())).isEqualTo(2);
  }

  @Test
  void eventWrappingAnEventWithAnUnknownInnermostTypeAnswersOneOneZero() {
    h.read("19 00 07 00 19 00 03 00 0a 00 00");

    assertThat(h.transport.writes).containsExactly("01 01 00");
  }
}
