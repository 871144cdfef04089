package io.sluice.verticles.server.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.protocol.binary.client.ThrottrClient;
import io.sluice.protocol.binary.client.ThrottrClientOptions;
import io.sluice.protocol.binary.codec.TtlUnit;
import io.sluice.verticles.engine.persist.FsyncPolicy;
import io.sluice.verticles.server.kit.HttpCalls;
import io.sluice.verticles.server.kit.Scrapes;
import io.sluice.verticles.server.kit.SluiceUnderTest;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A write to the data directory that fails (here a snapshot whose temporary file cannot be created)
 * is counted, shown on /metrics and the dashboard, and turns /ready to 503 while requests are still
 * answered; the next snapshot that succeeds clears it.
 */
class PersistenceFailureTest {

  @TempDir
  Path dir;

  private final Vertx vertx = Vertx.vertx();
  private SluiceUnderTest sluice;
  private HttpCalls http;

  @AfterEach
  void tearDown() throws Exception {
    if (http != null) {
      http.close();
    }
    if (sluice != null) {
      sluice.close();
    }
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  @Test
  void aFailedWriteIsCountedShownAndMakesTheInstanceUnreadyWhileRequestsAreAnsweredUntilASnapshotRepairsIt()
      throws Exception {
    sluice = new SluiceUnderTest(vertx, new PersistenceSettings(Optional.of(dir), FsyncPolicy.ALWAYS,
        Duration.ofMinutes(5), false));
    http = new HttpCalls(vertx, sluice.httpPort());
    ThrottrClient client = await(ThrottrClient.connect(vertx,
        new ThrottrClientOptions().setHost("127.0.0.1").setPort(sluice.tcpPort())));
    assertThat(await(client.insert("before", 5, TtlUnit.SECONDS, 600))).isTrue();
    assertThat(http.get("/ready").status()).isEqualTo(200);
    assertThat(Scrapes.value(Scrapes.scrape(http), "sluice_ready_failures_total")).as("a 200 is no failure").isZero();
    JsonObject healthy = http.get("/api/overview").json().getJsonObject("persistence");
    assertThat(healthy.getBoolean("enabled")).isTrue();
    assertThat(healthy.getString("fsync")).isEqualTo("always");
    assertThat(healthy.getBoolean("failing")).isFalse();

    // Each shard's first log is generation 1, so its first snapshot is generation 2: a directory
    // (not empty) in the way of shard 0's temporary snapshot file makes that snapshot fail.
    Path blocker = dir.resolve("shard-0000.0000000000000002.snapshot.tmp");
    Files.createDirectories(blocker.resolve("in-the-way"));
    sluice.advance(Duration.ofMinutes(6));
    HttpCalls.Answer unready = poll(() -> http.get("/ready"), answer -> answer.status() == 503);
    assertThat(unready.json().getString("reason")).contains("persistence of shard 0: failed", blocker.toString());
    String scrape = Scrapes.scrape(http);
    assertThat(Scrapes.value(scrape, "sluice_persistence_errors_total{shard=\"0\"}")).isGreaterThanOrEqualTo(1);
    assertThat(Scrapes.value(scrape, "sluice_persistence_failing{shard=\"0\"}")).isEqualTo(1);
    assertThat(Scrapes.value(scrape, "sluice_ready_failures_total")).as("the 503s of /ready").isGreaterThanOrEqualTo(1);
    JsonObject shown = http.get("/api/overview").json().getJsonObject("persistence");
    assertThat(shown.getBoolean("failing")).isTrue();
    assertThat(shown.getString("error")).contains(blocker.toString());
    assertThat(await(client.insert("during", 5, TtlUnit.SECONDS, 600))).as("still answered").isTrue();
    assertThat(await(client.query("before")).quota()).isEqualTo(5);

    Files.delete(blocker.resolve("in-the-way"));
    Files.delete(blocker);
    sluice.advance(Duration.ofSeconds(10)); // past the 5 s between repair attempts
    poll(() -> http.get("/ready"), answer -> answer.status() == 200);
    assertThat(Scrapes.value(Scrapes.scrape(http), "sluice_persistence_failing{shard=\"0\"}")).isEqualTo(0);
    try (var files = Files.list(dir)) {
      assertThat(files.map(f -> f.getFileName().toString())).anyMatch(name -> name.matches("shard-0000\\.\\d+\\.snapshot"));
    }
  }

  private interface Call {
    HttpCalls.Answer call() throws Exception;
  }

  /** Asks again until the answer passes, for at most 30 s (the shards check for due snapshots each second). */
  private static HttpCalls.Answer poll(Call call, Predicate<HttpCalls.Answer> until) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (true) {
      HttpCalls.Answer answer = call.call();
      if (until.test(answer)) {
        return answer;
      }
      assertThat(System.nanoTime()).as("last answer: %s", answer).isLessThan(deadline);
      Thread.sleep(50);
    }
  }

  private static <T> T await(io.vertx.core.Future<T> future) throws Exception {
    return future.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
  }
}
