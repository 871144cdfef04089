package io.sluice.verticles.server.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.protocol.binary.client.ThrottrClient;
import io.sluice.protocol.binary.client.ThrottrClientOptions;
import io.sluice.protocol.binary.codec.TtlUnit;
import io.sluice.verticles.engine.persist.DataFile;
import io.sluice.verticles.engine.persist.FsyncPolicy;
import io.sluice.verticles.server.kit.GatedDisk;
import io.sluice.verticles.server.kit.HttpCalls;
import io.sluice.verticles.server.kit.LogCapture;
import io.sluice.verticles.server.kit.Poll;
import io.sluice.verticles.server.kit.Scrapes;
import io.sluice.verticles.server.kit.SluiceUnderTest;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.logging.Level;
import java.util.logging.LogRecord;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A write to the data directory that fails (here a snapshot whose temporary file cannot be created,
 * or a full disk) is counted, shown on /metrics and the dashboard, and turns /ready to 503 while
 * requests are still answered; the next snapshot that succeeds clears it. It is logged once, however
 * often the repair fails again, and its recovery once.
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
    sluice = new SluiceUnderTest(vertx, SluiceUnderTest.defaults()
        .withPersistence(PersistenceSettings.OFF.withDataDir(dir).withFsync(FsyncPolicy.ALWAYS)));
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

  @Test
  void aFullDiskIsLoggedOnceLeavesNoEmptyFileAndItsRecoveryIsLoggedOnce() throws Exception {
    GatedDisk disk = new GatedDisk();
    sluice = new SluiceUnderTest(vertx,
        SluiceUnderTest.defaults().withPersistence(PersistenceSettings.OFF.withDataDir(dir).withFiles(disk)));
    http = new HttpCalls(vertx, sluice.httpPort());
    ThrottrClient client = await(ThrottrClient.connect(vertx,
        new ThrottrClientOptions().setHost("127.0.0.1").setPort(sluice.tcpPort())));
    try (LogCapture log = new LogCapture("io.sluice.verticles.engine.persist")) {
      disk.fill();
      // TTLs of days: the clock runs ahead by minutes here, and starts again where it began after the restart.
      assertThat(await(client.insert("during", 5, TtlUnit.HOURS, 240))).as("still answered").isTrue();
      // Every repair attempt (one each 5 s of the clock) fails again: a rotation and a snapshot each.
      Poll.until("five writes failed on shard 0", () -> {
        sluice.advance(Duration.ofSeconds(6));
        return Scrapes.value(Scrapes.scrape(http), "sluice_persistence_errors_total{shard=\"0\"}") >= 5;
      });
      assertThat(lines(log, Level.SEVERE, "persistence of shard 0: failed")).as("logged once").hasSize(1);
      assertThat(http.get("/ready").status()).isEqualTo(503);
      // The last step of the clock above may have made one more attempt due, which the shard starts
      // within a second, on the writer's thread, while this looks: its file exists, empty or .tmp,
      // between its creation and its deletion. The clock stands still now, so no attempt follows it:
      // a file the attempts leave behind stays, and this still fails after the poll's bound.
      Poll.until("no empty or unfinished file is left by the failed attempts", () -> unfinishedFiles().isEmpty());

      disk.open();
      Poll.until("a snapshot repaired the files", () -> {
        sluice.advance(Duration.ofSeconds(6));
        return http.get("/ready").status() == 200;
      });
      assertThat(lines(log, Level.INFO, "persistence of shard 0 recovered")).hasSize(1);
      assertThat(lines(log, Level.SEVERE, "persistence of shard 0")).as("still that one ERROR").hasSize(1);
    }
    assertThat(await(client.insert("after", 6, TtlUnit.HOURS, 240))).isTrue();
    http.close();
    sluice.close();
    // The repaired chain loads, without --data-recover, with what the repair snapshot saved.
    sluice = new SluiceUnderTest(vertx,
        SluiceUnderTest.defaults().withPersistence(PersistenceSettings.OFF.withDataDir(dir)));
    client = await(ThrottrClient.connect(vertx,
        new ThrottrClientOptions().setHost("127.0.0.1").setPort(sluice.tcpPort())));
    assertThat(await(client.query("during")).quota()).isEqualTo(5);
    assertThat(await(client.query("after")).quota()).isEqualTo(6);
  }

  /** The data directory's files named .tmp or shorter than a header; one deleted while listed is not left. */
  private List<Path> unfinishedFiles() throws IOException {
    List<Path> unfinished = new ArrayList<>();
    try (var files = Files.list(dir)) {
      for (Path file : files.toList()) {
        try {
          if (file.getFileName().toString().endsWith(".tmp") || Files.size(file) < DataFile.HEADER_BYTES) {
            unfinished.add(file);
          }
        } catch (NoSuchFileException deletedMeanwhile) {
          // an attempt's file, removed as it failed
        }
      }
    }
    return unfinished;
  }

  private static List<String> lines(LogCapture log, Level level, String text) {
    return log.records().stream().filter(r -> r.getLevel() == level).map(LogRecord::getMessage)
        .filter(message -> message.contains(text)).toList();
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
