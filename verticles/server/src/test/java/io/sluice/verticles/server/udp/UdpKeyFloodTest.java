package io.sluice.verticles.server.udp;

import io.sluice.protocol.udp.rulefile.MusicBrainzRulesFile;
import io.sluice.verticles.benchmarks.load.UdpKeyFlood;
import io.sluice.verticles.engine.storage.Eviction;
import io.sluice.verticles.engine.storage.StoreLimits;
import io.sluice.verticles.server.kit.HttpCalls;
import io.sluice.verticles.server.kit.LiveHeap;
import io.sluice.verticles.server.kit.Scrapes;
import io.sluice.verticles.server.kit.SluiceUnderTest;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Distinct UDP keys against the MusicBrainz rules: {@code u<i> ip=132.185.1.1} is
 * rewritten to {@code u<i> cust=bbc}, whose rule keeps a rate state (a shard record) and statistics
 * for each. The states are held under the record bound ({@code --max-keys} here; {@code --max-memory}
 * by default), the statistics under their own cap ({@code --udp-max-stats-keys}), the rule decisions
 * in a bounded cache (two generations of 16,384 keys): the live heap grows by those bounds, not by
 * the keys sent (about 45 MB for these unbounded, by the per-record and per-key estimates of
 * docs/memory-bound.md and docs/udp.md), and a fresh client is served. 100,000 keys, 20
 * times the record bound and 10 times the statistics cap, keep the test short (every new key misses
 * the rule cache and runs the rules' expressions); verticles/benchmarks/scripts/attacks.sh sends
 * 1,000,000 to the packaged server with the default caps.
 */
class UdpKeyFloodTest {

  private static final int KEYS = 100_000;
  private static final int MAX_KEYS = 5_000;
  private static final int MAX_STATS_KEYS = 10_000;
  /** The rule cache (the most of it), the statistics (about 200 bytes a key) and the records, with room to spare. */
  private static final long MOST_HEAP_GROWTH = 24L << 20;

  private final Vertx vertx = Vertx.vertx();
  private final SluiceUnderTest sut = new SluiceUnderTest(vertx, SluiceUnderTest.defaults()
      .withUdp(UdpSettings.defaults().withRules(MusicBrainzRulesFile.load()).withMaxStatsKeys(MAX_STATS_KEYS))
      .withRecordLimits(new StoreLimits(MAX_KEYS, StoreLimits.UNLIMITED, Eviction.VOLATILE_TTL)));
  private final HttpCalls http = new HttpCalls(vertx, sut.httpPort());

  @AfterEach
  void stop() {
    http.close();
    sut.close();
    await(vertx.close());
  }

  @Test
  void distinctKeysCostTheBoundsNotARecordEach() throws Exception {
    long before = LiveHeap.bytes();
    long answered = UdpKeyFlood.send(new InetSocketAddress(InetAddress.getLoopbackAddress(), sut.udpPort()), KEYS);
    assertThat(answered).as("requests answered (the rest lost to the kernel's receive buffer)").isGreaterThan(KEYS * 99L / 100);

    String scrape = Scrapes.scrape(http);
    double records = Scrapes.value(scrape, "sluice_keys{shard=\"0\"}") + Scrapes.value(scrape, "sluice_keys{shard=\"1\"}");
    double evicted = Scrapes.value(scrape, "sluice_evicted_keys_total{reason=\"max-keys\"}");
    assertThat(records).as("rate states held").isLessThanOrEqualTo(MAX_KEYS);
    assertThat(records + evicted).as("every answered key got a state").isGreaterThanOrEqualTo(answered);
    assertThat(Scrapes.value(scrape, "sluice_udp_stats_keys ")).as("keys with statistics")
        .isEqualTo(MAX_STATS_KEYS);
    assertThat(LiveHeap.bytes() - before).as("live heap growth (8 MB measured)").isLessThan(MOST_HEAP_GROWTH);

    try (UdpTestClient fresh = new UdpTestClient(sut.udpPort())) {
      assertThat(fresh.request("over_limit ws ip=9.9.9.9")).isEqualTo("ok N 0.0 22.0 20");
      assertThat(fresh.request("over_limit fresh ip=132.185.1.1")).isEqualTo("ok N 0.0 300.0 20");
      assertThat(fresh.request("get_stats fresh cust=bbc")).isEqualTo("n_req=1 n_over=0 last_max_rate=0 key=fresh cust=bbc");
      assertThat(fresh.request("ping")).isEqualTo("pong");
    }
  }
}
