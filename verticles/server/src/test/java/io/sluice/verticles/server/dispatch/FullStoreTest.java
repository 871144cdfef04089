package io.sluice.verticles.server.dispatch;

import io.sluice.protocol.binary.client.ThrottrClient;
import io.sluice.protocol.binary.client.ThrottrClientOptions;
import io.sluice.protocol.binary.codec.Request;
import io.sluice.protocol.binary.codec.TtlUnit;
import io.sluice.protocol.binary.codec.response.Response;
import io.sluice.verticles.engine.storage.Eviction;
import io.sluice.verticles.engine.storage.StoreLimits;
import io.sluice.verticles.server.kit.HttpCalls;
import io.sluice.verticles.server.kit.LogCapture;
import io.sluice.verticles.server.kit.Scrapes;
import io.sluice.verticles.server.kit.SluiceUnderTest;
import io.sluice.verticles.server.udp.UdpTestClient;
import io.sluice.verticles.strategies.Quota;
import io.sluice.verticles.strategies.Result;
import io.sluice.verticles.strategies.WindowPolicy;
import io.sluice.verticles.strategies.algorithm.FixedWindow;
import io.sluice.verticles.strategies.policy.KeyExtractor;
import io.sluice.verticles.strategies.policy.OnFull;
import io.sluice.verticles.strategies.policy.Policies;
import io.sluice.verticles.strategies.policy.Policy;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * --eviction reject over real sockets: once the shards are full, a new record is refused on every
 * front in its documented way (Throttr 00, the check API per policy on-full, UDP as allowed) while
 * the records already held keep working.
 */
class FullStoreTest {

  /** Two shards of two records each. */
  private static final int MAX_KEYS = 4;
  private static final FixedWindow ONE_PER_MINUTE = new FixedWindow(WindowPolicy.of(new Quota(Result.DEFAULT, 1, Duration.ofMinutes(1))));

  private final Vertx vertx = Vertx.vertx();
  private final SluiceUnderTest sut = new SluiceUnderTest(vertx, SluiceUnderTest.musicBrainzRules()
      .withPolicies(Policies.of(new Policy("open", ONE_PER_MINUTE, KeyExtractor.PARAM, false, false, OnFull.ALLOW),
          new Policy("closed", ONE_PER_MINUTE, KeyExtractor.PARAM, false, false, OnFull.DENY)))
      .withRecordLimits(new StoreLimits(MAX_KEYS, StoreLimits.UNLIMITED, Eviction.REJECT)));
  private final ThrottrClient throttr = await(ThrottrClient.connect(vertx,
      new ThrottrClientOptions().setHost("127.0.0.1").setPort(sut.tcpPort())));
  private final HttpCalls http = new HttpCalls(vertx, sut.httpPort());
  private final UdpTestClient udp = new UdpTestClient(sut.udpPort());
  private final List<String> held = new ArrayList<>();
  private final LogCapture log = new LogCapture(ShardVerticle.class.getName());

  @BeforeEach
  void fill() {
    List<Request> inserts = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      inserts.add(new Request.Insert(5, TtlUnit.SECONDS.code(), 600, ("key-" + i).getBytes(StandardCharsets.US_ASCII)));
    }
    List<Response> replies = await(throttr.batch(inserts));
    for (int i = 0; i < replies.size(); i++) {
      if (((Response.Status) replies.get(i)).ok()) {
        held.add("key-" + i);
      }
    }
    assertThat(held).as("each shard takes its 2 records, then refuses").hasSize(MAX_KEYS);
  }

  @AfterEach
  void stop() {
    log.close();
    udp.close();
    http.close();
    await(throttr.close());
    sut.close();
    await(vertx.close());
  }

  @Test
  void throttrRefusesNewRecordsWith00AndKeepsServingTheHeldOnes() {
    assertThat(await(throttr.insert("fresh", 5, TtlUnit.SECONDS, 60))).isFalse();
    assertThat(await(throttr.set("fresh", new byte[] {1}, TtlUnit.SECONDS, 60))).isFalse();
    assertThat(await(throttr.query("fresh"))).isNull();
    for (String key : held) {
      assertThat(await(throttr.query(key)).quota()).isEqualTo(5);
    }
    assertThat(await(throttr.info()).figures().totalKeys()).isEqualTo(MAX_KEYS);
    // Room comes back as soon as a held record goes.
    assertThat(await(throttr.purge(held.get(0)))).isTrue();
    assertThat(await(throttr.info()).figures().totalKeys()).isEqualTo(MAX_KEYS - 1);
    assertThat(Scrapes.value(Scrapes.scrape(http), "sluice_rejected_keys_total")).isGreaterThanOrEqualTo(98);
  }

  @Test
  void eachShardWarnsOnceThatItIsFull() {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (warnings().size() < 2 && System.nanoTime() < deadline) {
      Thread.onSpinWait();
    }
    assertThat(warnings()).hasSize(2).allSatisfy(line -> assertThat(line)
        .matches("shard [01] full: 2 records, \\d+ bytes estimated \\(limits: 2 records, no byte limit\\); "
            + "0 records evicted \\(0 for --max-keys, 0 for --max-memory\\), \\d+ writes refused \\(--eviction reject\\)"));
    // More refusals within the minute do not make more lines.
    assertThat(await(throttr.insert("another", 5, TtlUnit.SECONDS, 60))).isFalse();
    assertThat(await(throttr.info()).figures().totalKeys()).isEqualTo(MAX_KEYS);
    assertThat(warnings()).hasSize(2);
  }

  private List<String> warnings() {
    return log.aboveDebug().stream().map(java.util.logging.LogRecord::getMessage).toList();
  }

  @Test
  void theCheckApiFailsOpenOrClosedAsEachPolicySays() {
    // The limit is 1 a minute: with its state stored, the second check would be denied.
    for (int i = 0; i < 3; i++) {
      HttpCalls.Answer open = http.post("/v1/check", "{\"policy\":\"open\",\"key\":\"alice\"}");
      assertThat(open.status()).as("on-full allow, check %d", i).isEqualTo(200);
    }
    HttpCalls.Answer closed = http.post("/v1/check", "{\"policy\":\"closed\",\"key\":\"alice\"}");
    assertThat(closed.status()).isEqualTo(429);
    assertThat(closed.header("Retry-After")).isEqualTo("1");
    assertThat(closed.json().getBoolean("allowed")).isFalse();
    assertThat(await(throttr.info()).figures().totalKeys()).isEqualTo(MAX_KEYS);
  }

  @Test
  void udpAnswersAsAllowedWithoutCountingAnything() {
    // The MusicBrainz ws rule: 22 per 20 s. With its state stored, the rate would grow from 0.0
    // and request 23 would be over; unstored, every request is the key's first.
    for (int i = 1; i <= 25; i++) {
      assertThat(udp.request(i + " over_limit ws ip=1.2.3.4")).as("request %d", i).isEqualTo(i + " ok N 0.0 22.0 20");
    }
    assertThat(await(throttr.info()).figures().totalKeys()).isEqualTo(MAX_KEYS);
  }
}
