package io.sluice.verticles.server.udp;

import io.sluice.verticles.server.kit.HttpCalls;
import io.sluice.verticles.server.kit.SluiceUnderTest;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static io.sluice.verticles.server.kit.Scrapes.scrape;
import static io.sluice.verticles.server.kit.Scrapes.value;
import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * With the shipped MusicBrainz rules, {@code ^([^\s]*) cust=bbc$} keeps statistics for every first
 * word a client invents. They are forgotten once idle, as the rate states are: after expiry
 * get_size is 0, get_stats answers zeros, and the memory is given back.
 */
class UdpStatisticsRetentionTest {

  private static final int KEYS = 3_000;
  private static final String SERIES = "sluice_udp_stats_keys ";

  private final Vertx vertx = Vertx.vertx();
  private final SluiceUnderTest sut = new SluiceUnderTest(vertx, SluiceUnderTest.musicBrainzRules());
  private final UdpTestClient client = new UdpTestClient(sut.udpPort());
  private final HttpCalls http = new HttpCalls(vertx, sut.httpPort());

  @AfterEach
  void stop() {
    http.close();
    client.close();
    sut.close();
    await(vertx.close());
  }

  @Test
  void statisticsOfInventedKeysAreForgottenOnceIdle() {
    for (int i = 0; i < KEYS; i++) {
      assertThat(client.request("over_limit u" + i + " ip=132.185.1.1")).isEqualTo("ok N 0.0 300.0 20");
    }
    assertThat(client.size()).isEqualTo(KEYS);
    assertThat(client.request("get_stats u7 cust=bbc")).isEqualTo("n_req=1 n_over=0 last_max_rate=0 key=u7 cust=bbc");
    assertThat(value(scrape(http), SERIES)).isEqualTo(KEYS);

    sut.advance(Duration.ofSeconds(300));
    assertThat(client.size()).as("rate states expired").isZero();
    assertThat(client.request("get_stats u7 cust=bbc")).as("statistics kept for two buckets")
        .isEqualTo("n_req=1 n_over=0 last_max_rate=0 key=u7 cust=bbc");

    sut.advance(Duration.ofSeconds(300));
    assertThat(client.request("get_stats u7 cust=bbc")).isEqualTo("n_req=0 n_over=0 last_max_rate=0 key=u7 cust=bbc");
    assertThat(heldWhenReclaimed()).as("statistics held after the reclaim timer ran").isZero();

    // A fresh client is served, and its key starts afresh.
    try (UdpTestClient fresh = new UdpTestClient(sut.udpPort())) {
      assertThat(fresh.request("over_limit u7 ip=132.185.1.1")).isEqualTo("ok N 0.0 300.0 20");
      assertThat(fresh.request("get_stats u7 cust=bbc")).isEqualTo("n_req=1 n_over=0 last_max_rate=0 key=u7 cust=bbc");
      assertThat(fresh.request("ping")).isEqualTo("pong");
    }
  }

  /** The gauge once it stops falling (the timer reclaims every second), within a bounded wait. */
  private double heldWhenReclaimed() {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    double held = value(scrape(http), SERIES);
    while (held > 0 && System.nanoTime() < deadline) {
      Thread.onSpinWait();
      held = value(scrape(http), SERIES);
    }
    return held;
  }
}
