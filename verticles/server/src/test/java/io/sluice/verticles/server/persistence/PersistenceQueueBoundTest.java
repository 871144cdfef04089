package io.sluice.verticles.server.persistence;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.protocol.binary.client.ThrottrClient;
import io.sluice.protocol.binary.client.ThrottrClientOptions;
import io.sluice.protocol.binary.client.UpdateAttribute;
import io.sluice.protocol.binary.client.UpdateChange;
import io.sluice.protocol.binary.codec.Request;
import io.sluice.protocol.binary.codec.TtlUnit;
import io.sluice.protocol.binary.codec.response.Response;
import io.sluice.verticles.engine.persist.FsyncPolicy;
import io.sluice.verticles.server.kit.GatedDisk;
import io.sluice.verticles.server.kit.HttpCalls;
import io.sluice.verticles.server.kit.Poll;
import io.sluice.verticles.server.kit.Scrapes;
import io.sluice.verticles.server.kit.SluiceUnderTest;
import io.vertx.core.Vertx;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A disk slower than the changes (here one that lets no write through until the test says so):
 * the writer's queue stays within --persistence-queue-bytes, every request is still answered,
 * /ready says why it is 503, and once the disk has caught up a snapshot makes the files whole again:
 * a restart from them finds every key.
 */
class PersistenceQueueBoundTest {

  /** Both shards together; each holds half. */
  private static final long QUEUE_BYTES = 256 * 1024;
  private static final long SHARD_QUEUE_BYTES = QUEUE_BYTES / 2;
  /** One record image more than the bound is what passes it (a counter with a short key: ~40 bytes). */
  private static final long ONE_IMAGE = 64;
  private static final int KEYS = 40_000;
  private static final int BATCH = 1_000;

  @TempDir
  Path dir;

  private final Vertx vertx = Vertx.vertx();
  private SluiceUnderTest sluice;
  private HttpCalls http;
  private ThrottrClient client;

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
  void aDiskThatFallsBehindKeepsTheQueueBoundedAnswersEveryRequestAndASnapshotRepairsTheFiles() {
    GatedDisk disk = new GatedDisk();
    start(PersistenceSettings.OFF.withDataDir(dir).withQueueBytes(QUEUE_BYTES).withFiles(disk));
    insertAll("before-", 100, 7);
    Poll.until("the writer wrote the first keys", () -> queued() == 0);

    disk.close();
    insertAll("queued-", BATCH, 5);
    Poll.until("the writer is stuck on the disk", () -> disk.stuckWriters() > 0);
    // About 1.5 MB of changes in all, six times what the queues may hold.
    for (int from = BATCH; from < KEYS; from += BATCH) {
      assertThat(insertRange("queued-", from, from + BATCH, 5)).as("every insert answered").allMatch(ok -> ok);
    }
    Poll.until("/ready says the disk fell behind", () -> {
      HttpCalls.Answer ready = http.get("/ready");
      return ready.status() == 503 && ready.json().getString("reason").contains("the disk fell behind");
    });
    String scrape = Scrapes.scrape(http);
    for (String shard : List.of("0", "1")) {
      assertThat(Scrapes.value(scrape, "sluice_persistence_queue_overflows_total{shard=\"" + shard + "\"}"))
          .isGreaterThanOrEqualTo(1);
      assertThat(Scrapes.value(scrape, "sluice_persistence_queue_peak_bytes{shard=\"" + shard + "\"}"))
          .as("the queue never held more than its bound").isLessThanOrEqualTo(SHARD_QUEUE_BYTES + ONE_IMAGE);
      assertThat(Scrapes.value(scrape, "sluice_persistence_queue_bytes{shard=\"" + shard + "\"}"))
          .isLessThanOrEqualTo(SHARD_QUEUE_BYTES);
      assertThat(Scrapes.value(scrape, "sluice_persistence_failing{shard=\"" + shard + "\"}")).isEqualTo(1);
    }
    assertThat(await(client.insert("during", 9, TtlUnit.SECONDS, 600))).as("still answered").isTrue();
    assertThat(await(client.query("before-0")).quota()).isEqualTo(7);

    disk.open();
    Poll.until("a snapshot repaired the files", () -> http.get("/ready").status() == 200);
    assertThat(Scrapes.value(Scrapes.scrape(http), "sluice_persistence_failing{shard=\"0\"}")).isEqualTo(0);
    // Logged again after the repair: the new log holds it.
    assertThat(await(client.update("queued-7", UpdateAttribute.QUOTA, UpdateChange.PATCH, 3))).isTrue();

    restart();
    assertThat(queries("before-", 100)).allSatisfy(answer -> assertThat(answer.quota()).isEqualTo(7));
    List<Response.QueryResult> queued = queries("queued-", KEYS);
    assertThat(queued).as("every key written while the disk was behind is back").allSatisfy(answer -> {
      assertThat(answer.ttlUnit()).isEqualTo(TtlUnit.SECONDS);
      assertThat(answer.ttl()).isBetween(1L, 600L);
    });
    assertThat(queued.get(7).quota()).isEqualTo(3);
    assertThat(queued.stream().filter(answer -> answer.quota() == 5).count()).isEqualTo(KEYS - 1);
    assertThat(await(client.query("during")).quota()).isEqualTo(9);
  }

  @Test
  void withFsyncAlwaysTheRepliesHeldForAStuckDiskAreReleasedWhenTheQueueOverflows() {
    GatedDisk disk = new GatedDisk();
    start(PersistenceSettings.OFF.withDataDir(dir).withFsync(FsyncPolicy.ALWAYS).withQueueBytes(QUEUE_BYTES).withFiles(disk));
    insertAll("before-", 100, 7);
    disk.close();
    // One insert first, to have the writer stuck on the disk before the flood comes.
    var first = client.insert("first", 5, TtlUnit.SECONDS, 600);
    Poll.until("the writer is stuck on the disk", () -> disk.stuckWriters() > 0);
    // Pipelined: each reply waits for an fsync that cannot come, until the queue overflows.
    List<Request> inserts = new ArrayList<>();
    for (int i = 0; i < KEYS; i++) {
      inserts.add(new Request.Insert(5, TtlUnit.SECONDS.code(), 600, key("held-", i)));
    }
    ThrottrClient pipelining = await(ThrottrClient.connect(vertx, new ThrottrClientOptions().setHost("127.0.0.1")
        .setPort(sluice.tcpPort()).setMaxPending(KEYS)));
    assertThat(await(pipelining.batch(inserts))).as("every reply released without the disk")
        .allMatch(reply -> ((Response.Status) reply).ok());
    assertThat(await(first)).as("the first reply released too").isTrue();
    assertThat(disk.stuckWriters()).as("the writer is still stuck").isPositive();
    assertThat(http.get("/ready").status()).isEqualTo(503);

    disk.open();
    Poll.until("a snapshot repaired the files", () -> http.get("/ready").status() == 200);
    restart();
    assertThat(queries("held-", KEYS)).allSatisfy(answer -> assertThat(answer.quota()).isEqualTo(5));
  }

  private void start(PersistenceSettings settings) {
    sluice = new SluiceUnderTest(vertx, SluiceUnderTest.defaults().withPersistence(settings));
    http = new HttpCalls(vertx, sluice.httpPort());
    client = await(ThrottrClient.connect(vertx,
        new ThrottrClientOptions().setHost("127.0.0.1").setPort(sluice.tcpPort())));
  }

  /** Stops (the writers write what they hold) and starts again from the same directory, on the real disk. */
  private void restart() {
    http.close();
    sluice.close();
    start(PersistenceSettings.OFF.withDataDir(dir));
  }

  private long queued() {
    return sluice.server().persistence().stats().stream().mapToLong(s -> s.queuedBytes()).sum();
  }

  private void insertAll(String prefix, int count, long quota) {
    assertThat(insertRange(prefix, 0, count, quota)).allMatch(ok -> ok);
  }

  private List<Boolean> insertRange(String prefix, int from, int to, long quota) {
    List<Request> inserts = new ArrayList<>();
    for (int i = from; i < to; i++) {
      inserts.add(new Request.Insert(quota, TtlUnit.SECONDS.code(), 600, key(prefix, i)));
    }
    return await(client.batch(inserts)).stream().map(r -> ((Response.Status) r).ok()).toList();
  }

  private List<Response.QueryResult> queries(String prefix, int count) {
    List<Response.QueryResult> all = new ArrayList<>();
    for (int from = 0; from < count; from += BATCH) {
      List<Request> batch = new ArrayList<>();
      for (int i = from; i < Math.min(count, from + BATCH); i++) {
        batch.add(new Request.Query(key(prefix, i)));
      }
      await(client.batch(batch)).forEach(r -> all.add((Response.QueryResult) r));
    }
    return all;
  }

  private static byte[] key(String prefix, int i) {
    return (prefix + i).getBytes(StandardCharsets.US_ASCII);
  }
}
