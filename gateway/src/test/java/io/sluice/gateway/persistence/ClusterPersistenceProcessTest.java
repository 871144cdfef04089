package io.sluice.gateway.persistence;

import io.sluice.gateway.process.Ports;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.protocol.binary.client.ThrottrClient;
import io.sluice.protocol.binary.client.ThrottrClientOptions;
import io.sluice.protocol.binary.codec.TtlUnit;
import io.sluice.protocol.binary.codec.response.Response;
import io.sluice.verticles.engine.persist.PersistenceWriter;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.time.Duration;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import static io.sluice.gateway.process.Waits.await;
import static io.sluice.gateway.process.Waits.until;

/**
 * A cluster of three nodes in separate processes, each with its own {@code --data-dir}: keys written
 * through every node; every node stopped with SIGTERM; all started again on the same directories.
 * Each node comes back with its id, the table is the one before, and every key, quota and TTL is
 * back, served by its owner. Each node writes the logs of its 271 partitions with one writer thread
 * per shard verticle, not one per partition.
 */
class ClusterPersistenceProcessTest {

  private static final int NODES = 3;
  private static final int SHARDS = 2;
  private static final int KEYS = 300;
  private static final long TTL_SECONDS = 600;

  @TempDir
  Path temp;

  private final Vertx vertx = Vertx.vertx();
  private final HttpClient http = HttpClient.newHttpClient();
  private final List<SluiceProcess> processes = new ArrayList<>(); // guarded by itself

  @AfterEach
  void tearDown() throws Exception {
    synchronized (processes) {
      processes.forEach(SluiceProcess::close);
    }
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  @Test
  void aWholeClusterStoppedWithSigtermAndStartedAgainServesEveryKeyQuotaAndTtlFromItsOwner() throws Exception {
    List<List<String>> arguments = arguments();
    List<SluiceProcess> nodes = startAll(arguments);
    awaitCluster(nodes);
    assertOneWriterPerShard(nodes);
    Map<String, Integer> ownedBefore = owned(nodes);

    List<ThrottrClient> clients = connect(nodes);
    List<Future<Boolean>> writes = new ArrayList<>();
    for (int i = 0; i < KEYS; i++) {
      writes.add(clients.get(i % NODES).insert("key:" + i, 1000 + i, TtlUnit.SECONDS, TTL_SECONDS));
    }
    assertThat(await(Future.all(writes)).<Boolean>list()).allMatch(ok -> ok);
    assertThat(keysServed(nodes)).isEqualTo(KEYS);

    // All at once, as when a whole deployment is deleted: each starts handing its partitions to
    // others that are leaving too.
    nodes.stream().map(node -> CompletableFuture.runAsync(() -> {
      try {
        node.stop();
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    })).toList().forEach(CompletableFuture::join);
    synchronized (processes) {
      processes.clear();
    }

    List<SluiceProcess> again = startAll(arguments);
    awaitCluster(again);
    assertOneWriterPerShard(again);
    assertThat(owned(again)).as("the same ids own the same partitions").isEqualTo(ownedBefore);
    assertThat(keysServed(again)).as("each key served once, by its owner").isEqualTo(KEYS);
    List<ThrottrClient> clientsAgain = connect(again);
    for (int n = 0; n < NODES; n++) {
      List<Future<Response.QueryResult>> reads = new ArrayList<>();
      for (int i = 0; i < KEYS; i++) {
        reads.add(clientsAgain.get(n).query("key:" + i));
      }
      List<Response.QueryResult> answers = await(Future.all(reads)).list();
      for (int i = 0; i < KEYS; i++) {
        Response.QueryResult answer = answers.get(i);
        assertThat(answer.quota()).as("key:%d through node %d", i, n).isEqualTo(1000 + i);
        assertThat(answer.ttlUnit()).isEqualTo(TtlUnit.SECONDS);
        assertThat(answer.ttl()).as("key:%d's TTL", i).isBetween(1L, TTL_SECONDS);
      }
    }
  }

  private List<List<String>> arguments() throws IOException {
    List<Integer> ports = new ArrayList<>();
    for (int n = 0; n < NODES; n++) {
      ports.add(Ports.free());
    }
    String members = ports.stream().map(port -> "127.0.0.1:" + port).collect(Collectors.joining(","));
    List<List<String>> all = new ArrayList<>();
    for (int n = 0; n < NODES; n++) {
      all.add(List.of("--cluster", "--cluster-port", String.valueOf(ports.get(n)), "--cluster-members", members,
          "--data-dir", temp.resolve("node-" + n).toString(), "--shards", String.valueOf(SHARDS), "--event-loops", "1"));
    }
    return all;
  }

  /**
   * Starts the nodes one after the other, each once the one before serves (as an orchestrator
   * does; Hazelcast's join is also surest so): every node but the first joins a cluster that
   * already serves, so the loaded copies are joined as docs/cluster.md says.
   */
  private List<SluiceProcess> startAll(List<List<String>> arguments) throws Exception {
    List<SluiceProcess> started = new ArrayList<>();
    for (List<String> args : arguments) {
      SluiceProcess node = SluiceProcess.start(args.toArray(String[]::new));
      synchronized (processes) {
        processes.add(node);
      }
      started.add(node);
    }
    return started;
  }

  private void awaitCluster(List<SluiceProcess> nodes) {
    until(Duration.ofSeconds(120), "every node ready in a cluster of " + NODES, () -> nodes.stream().allMatch(node ->
        status(node, "/ready") == 200 && cluster(node).getJsonArray("members").size() == NODES));
  }

  /** Every node's partitions (each persisted: 271 logs) are written by one thread per shard verticle. */
  private static void assertOneWriterPerShard(List<SluiceProcess> nodes) throws IOException {
    for (int n = 0; n < NODES; n++) {
      assertThat(nodes.get(n).threadsNamed(PersistenceWriter.THREAD_NAME)).as("node %d's persistence writers", n)
          .isEqualTo(SHARDS);
    }
  }

  /** Partitions owned, by node id, as the first node sees the table. */
  private Map<String, Integer> owned(List<SluiceProcess> nodes) {
    Map<String, Integer> owned = new HashMap<>();
    cluster(nodes.get(0)).getJsonArray("members").forEach(member -> {
      JsonObject m = (JsonObject) member;
      owned.put(m.getString("id"), m.getInteger("partitionsOwned"));
    });
    return owned;
  }

  /** The keys every node serves, summed: each key counts once, on its owner. */
  private long keysServed(List<SluiceProcess> nodes) {
    return nodes.stream().mapToLong(node -> cluster(node).getLong("keys")).sum();
  }

  private List<ThrottrClient> connect(List<SluiceProcess> nodes) {
    return nodes.stream().map(node -> await(ThrottrClient.connect(vertx,
        new ThrottrClientOptions().setHost("127.0.0.1").setPort(node.tcpPort())))).toList();
  }

  private JsonObject cluster(SluiceProcess node) {
    try {
      return new JsonObject(http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + node.httpPort()
          + "/api/cluster")).build(), HttpResponse.BodyHandlers.ofString()).body());
    } catch (IOException | InterruptedException e) {
      throw new AssertionError(e);
    }
  }

  private int status(SluiceProcess node, String path) {
    try {
      return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + node.httpPort() + path)).build(),
          HttpResponse.BodyHandlers.discarding()).statusCode();
    } catch (IOException | InterruptedException e) {
      return -1;
    }
  }



}
