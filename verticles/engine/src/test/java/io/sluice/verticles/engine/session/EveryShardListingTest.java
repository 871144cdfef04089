package io.sluice.verticles.engine.session;

import static io.sluice.verticles.engine.session.SessionHarness.INFO;
import static io.sluice.verticles.engine.session.SessionHarness.LIST;
import static io.sluice.verticles.engine.session.SessionHarness.STATS;
import static io.sluice.verticles.engine.session.SessionHarness.insert;
import static io.sluice.verticles.engine.session.SessionHarness.query;
import static io.sluice.verticles.engine.session.SessionHarness.queryReply;
import static io.sluice.verticles.engine.session.SessionHarness.set;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.sluice.verticles.engine.testsupport.Wire;
import io.sluice.protocol.binary.codec.Listing;
import io.sluice.protocol.binary.codec.RequestType;
import io.sluice.protocol.binary.codec.Responses;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** LIST, STATS and INFO go to every shard; the session merges what each shard collected. */
class EveryShardListingTest {

  private final SessionHarness h = new SessionHarness(3);
  private final String k0 = h.keyOn(0, "c");
  private final String k1 = h.keyOn(1, "b");
  private final String k2 = h.keyOn(2, "c");
  private static final int TTL = 600;
  private long t0;

  @BeforeEach
  void oneRecordOnEachShard() {
    t0 = h.clock.epochNanos();
    h.read(insert(5, TTL, k0), set(TTL, k1, "48 49 21"), insert(6, TTL, k2));
    h.transport.completeAllInReverse();
    h.transport.writes.clear();
    h.transport.dispatched.clear();
  }

  private static byte[] ascii(String text) {
    return text.getBytes(StandardCharsets.US_ASCII);
  }

  private static String listing(List<Listing.KeyItem> items) {
    ByteBuf out = Unpooled.buffer();
    Listing.write(out, items, Listing.keys(SessionHarness.SIZE));
    return Wire.hex(out);
  }

  private static String statsListing(List<Listing.KeyStatsItem> items) {
    ByteBuf out = Unpooled.buffer();
    Listing.write(out, items, Listing.KEY_STATS);
    return Wire.hex(out);
  }

  private List<Listing.KeyItem> expectedItems() {
    long expiresAt = t0 + TimeUnit.SECONDS.toNanos(TTL);
    return List.of(
        new Listing.KeyItem(ascii(k0), Listing.KeyItem.TYPE_COUNTER, 0x04, expiresAt, 2),
        new Listing.KeyItem(ascii(k1), Listing.KeyItem.TYPE_BUFFER, 0x04, expiresAt, 3),
        new Listing.KeyItem(ascii(k2), Listing.KeyItem.TYPE_COUNTER, 0x04, expiresAt, 2));
  }

  @Test
  void listGoesToEveryShardAndIsMergedInShardOrder() {
    h.read(LIST);

    assertThat(h.transport.dispatched).hasSize(3);
    assertThat(h.transport.dispatched).allSatisfy(d -> {
      assertThat(d.batch.size()).isEqualTo(1);
      assertThat(d.batch.request(0).type()).isEqualTo(RequestType.LIST);
    });
    assertThat(h.transport.dispatched).extracting(d -> d.batch.route()).containsExactlyInAnyOrder(0, 1, 2);

    h.transport.complete(1);
    h.transport.complete(2);
    assertThat(h.transport.writes).isEmpty();
    h.transport.complete(0);

    assertThat(h.transport.writes).containsExactly(listing(expectedItems()));
  }

  @Test
  void listOfAnEmptyInstanceIsTheEmptyEnvelope() {
    SessionHarness empty = new SessionHarness(3);
    empty.read(LIST, STATS);
    empty.transport.completeAllInReverse();

    assertThat(empty.transport.writes).containsExactly("01 00 00 00 00 00 00 00 00 01 00 00 00 00 00 00 00 00");
  }

  @Test
  void statsGoesToEveryShardAndIsMergedInShardOrder() {
    h.read(query(k1));
    h.transport.completeAllInReverse();
    h.clock.advance(Duration.ofSeconds(59));
    h.read(STATS);
    h.clock.advance(Duration.ofSeconds(1)); // the shards run the STATS in the next window
    h.transport.completeAllInReverse();

    assertThat(h.transport.dispatched).hasSize(4);
    assertThat(h.transport.writes).containsExactly(
        queryReply(0, TTL),
        statsListing(List.of(
            new Listing.KeyStatsItem(ascii(k0), 0, 1, 0, 1),
            new Listing.KeyStatsItem(ascii(k1), 1, 1, 1, 1),
            new Listing.KeyStatsItem(ascii(k2), 0, 1, 0, 1))));
  }

  @Test
  void listingsAndKeyRequestsShareTheReadInOrder() {
    String fresh = h.keyOn(0, "new");
    h.read(insert(9, TTL, fresh), LIST, query(k0), query(k2));

    assertThat(h.transport.dispatched).hasSize(3);
    assertThat(h.transport.dispatched).filteredOn(d -> d.batch.route() == 0)
        .singleElement().satisfies(d -> assertThat(d.batch.size()).isEqualTo(3));
    h.transport.completeAllInReverse();

    // Shard 0 lists its two records in its own storage order; shards follow each other in order.
    List<Listing.KeyItem> base = expectedItems();
    Listing.KeyItem freshItem = new Listing.KeyItem(ascii(fresh), Listing.KeyItem.TYPE_COUNTER, 0x04,
        t0 + TimeUnit.SECONDS.toNanos(TTL), 2);
    String tail = " " + queryReply(5, TTL) + " " + queryReply(6, TTL);
    assertThat(h.transport.writes).singleElement().isIn(
        "01 " + listing(List.of(freshItem, base.get(0), base.get(1), base.get(2))) + tail,
        "01 " + listing(List.of(base.get(0), freshItem, base.get(1), base.get(2))) + tail);
  }

  @Test
  void infoSumsEveryShardAndTheInstanceFigures() {
    h.clock.advance(Duration.ofSeconds(3));
    h.read(INFO);
    assertThat(h.transport.dispatched).hasSize(3);
    h.transport.completeAllInReverse();

    byte[] info = Wire.bytes(h.transport.writes.get(0));
    assertThat(info).hasSize(Responses.INFO_LENGTH);
    assertThat(info[0]).isEqualTo((byte) 0x01);
    assertThat(Wire.u64(info, 1)).isEqualTo(TimeUnit.NANOSECONDS.toSeconds(h.clock.epochNanos()));
    assertThat(Wire.u64(info, 9)).as("total requests: 2 INSERT + SET + INFO").isEqualTo(4);
    assertThat(Wire.u64(info, 25)).as("INSERT total").isEqualTo(2);
    assertThat(Wire.u64(info, 105)).as("SET total").isEqualTo(1);
    assertThat(Wire.u64(info, 137)).as("INFO total").isEqualTo(1);
    assertThat(Wire.u64(info, 345)).as("keys").isEqualTo(3);
    assertThat(Wire.u64(info, 353)).as("counters").isEqualTo(2);
    assertThat(Wire.u64(info, 361)).as("buffers").isEqualTo(1);
    assertThat(Wire.u64(info, 369)).as("counter bytes").isEqualTo(4);
    assertThat(Wire.u64(info, 377)).as("buffer bytes").isEqualTo(3);
    assertThat(Wire.u64(info, 401)).as("running since").isEqualTo(t0);
    assertThat(Wire.u64(info, 409)).as("connections").isEqualTo(1);
    assertThat(new String(info, 417, 16, StandardCharsets.US_ASCII)).isEqualTo("9.9.9-test\0\0\0\0\0\0");
  }

  @Test
  void infoReportsRequestsPerMinuteOnceTheCountersRoll() {
    h.clock.advance(Duration.ofMinutes(1));
    h.instance.counters().rollTo(h.instance.currentWindow());
    h.read(INFO);
    h.transport.completeAllInReverse();

    byte[] info = Wire.bytes(h.transport.writes.get(0));
    assertThat(Wire.u64(info, 17)).as("per minute: 2 INSERT + SET").isEqualTo(3);
    assertThat(Wire.u64(info, 33)).as("INSERT per minute").isEqualTo(2);
    assertThat(Wire.u64(info, 145)).as("INFO per minute").isZero();
  }
}
