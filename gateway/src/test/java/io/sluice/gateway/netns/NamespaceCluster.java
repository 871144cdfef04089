package io.sluice.gateway.netns;

import io.sluice.gateway.process.ChildProcess;
import io.sluice.verticles.engine.routing.PartitionTable;
import io.sluice.verticles.engine.storage.KeyHash;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static io.sluice.gateway.process.Waits.until;

/**
 * Sluice nodes, each a JVM in its own network namespace of a {@link NetworkNamespaces}, all on the
 * same ports at their own address: a real cluster over a network the test can break. The test
 * reaches each node's Throttr and HTTP ports at {@link #address}.
 */
final class NamespaceCluster implements AutoCloseable {

  static final int TCP_PORT = 9000;
  static final int HTTP_PORT = 8080;
  private static final int CLUSTER_PORT = 5701;
  private static final Duration START = Duration.ofSeconds(150);
  /**
   * Hazelcast looks for a split to merge 300 s after start, then every 120 s; the scenarios heal
   * within seconds so that a run stays short. Production keeps Hazelcast's defaults (docs/cluster.md).
   */
  private static final List<String> JVM_OPTIONS = List.of("-Xmx256m",
      "-Dhazelcast.merge.first.run.delay.seconds=5", "-Dhazelcast.merge.next.run.delay.seconds=5");

  private final NetworkNamespaces network;
  private final Path directory;
  private final List<String> nodeArguments;
  private final ChildProcess[] nodes;
  /** What each node printed in its earlier runs, before a restart: kept with the last run's in its log. */
  private final StringBuilder[] earlierOutput;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  private NamespaceCluster(NetworkNamespaces network, Path directory, List<String> nodeArguments) {
    this.network = network;
    this.directory = directory;
    this.nodeArguments = nodeArguments;
    this.nodes = new ChildProcess[network.nodes()];
    this.earlierOutput = IntStream.range(0, nodes.length).mapToObj(node -> new StringBuilder()).toArray(StringBuilder[]::new);
  }

  /**
   * Starts a node in every namespace, the first alone (so the others join it rather than form
   * clusters of their own), and waits until every node is ready in a cluster of all of them.
   */
  static NamespaceCluster start(NetworkNamespaces network, Path directory, String... arguments) throws Exception {
    NamespaceCluster cluster = new NamespaceCluster(network, directory, List.of(arguments));
    try {
      cluster.startNode(0);
      cluster.awaitReady(0, 1);
      for (int node = 1; node < network.nodes(); node++) {
        cluster.startNode(node);
      }
      cluster.awaitAllReady();
    } catch (Exception | AssertionError e) {
      cluster.close();
      throw e;
    }
    return cluster;
  }

  int size() {
    return nodes.length;
  }

  String address(int node) {
    return network.address(node);
  }

  /** Starts the node in its namespace; a node that ran before is started again (a restart), its output kept. */
  void startNode(int node) throws IOException {
    if (nodes[node] != null) {
      earlierOutput[node].append(nodes[node].output()).append("\n--- started again ---\n");
    }
    String members = IntStream.range(0, nodes.length).mapToObj(other -> address(other) + ":" + CLUSTER_PORT)
        .collect(Collectors.joining(","));
    List<String> arguments = new ArrayList<>(List.of("--cluster", "--bind", address(node),
        "--cluster-port", String.valueOf(CLUSTER_PORT), "--cluster-members", members,
        "--tcp-port", String.valueOf(TCP_PORT), "--http-port", String.valueOf(HTTP_PORT),
        "--udp-port", "0", "--grpc-port", "0", "--event-loops", "1", "--shards", "1"));
    arguments.addAll(nodeArguments);
    nodes[node] = ChildProcess.start(network.inside(node, ChildProcess.gatewayCommand(JVM_OPTIONS,
        arguments.toArray(String[]::new))), Map.of(), directory);
  }

  /** Waits until every node that runs is ready and sees all the running nodes as members. */
  void awaitAllReady() {
    List<Integer> running = IntStream.range(0, nodes.length).filter(node -> nodes[node].process().isAlive()).boxed().toList();
    for (int node : running) {
      awaitReady(node, running.size());
    }
  }

  /** Waits until the node answers /ready and its table has {@code members} members. */
  void awaitReady(int node, int members) {
    until(START, "node " + node + " (" + address(node) + ") is ready with " + members + " members (its output: target/netns/"
            + network.namespace(node) + ".log)",
        () -> status(node, "/ready") == 200 && members(node) == members);
  }

  /** The status of a GET, or -1 when the node does not answer (not listening yet, gone, cut off). */
  int status(int node, String path) {
    try {
      return get(node, path).statusCode();
    } catch (IOException e) {
      return -1;
    }
  }

  /** How many members the node's partition table has now, or -1 when it does not answer. */
  int members(int node) {
    try {
      HttpResponse<String> cluster = get(node, "/api/cluster");
      return cluster.statusCode() == 200 ? new JsonObject(cluster.body()).getJsonArray("members").size() : -1;
    } catch (IOException e) {
      return -1;
    }
  }

  /** The node that owns {@code key}'s partition, by {@code askedNode}'s table. */
  int ownerOf(int askedNode, String key) throws IOException {
    JsonObject table = new JsonObject(get(askedNode, "/api/cluster/partitions").body());
    JsonArray owners = table.getJsonArray("owners");
    int partition = partitionOf(key, table.getInteger("partitions"));
    String http = owners.getJsonObject(partition).getString("http");
    String host = http.substring(0, http.lastIndexOf(':'));
    return IntStream.range(0, nodes.length).filter(node -> address(node).equals(host)).findFirst()
        .orElseThrow(() -> new AssertionError("partition " + partition + " is owned at " + http + ", no node of this cluster"));
  }

  /**
   * The nodes ranked for {@code key}'s partition by {@code askedNode}'s members: its owner first, then
   * its backups in the order they would take it over. Computed with the cluster's own {@link PartitionTable}
   * from the members' node ids, which {@code /api/cluster/partitions} does not list beyond the owner.
   */
  List<Integer> ranking(int askedNode, String key) throws IOException {
    JsonArray members = new JsonObject(get(askedNode, "/api/cluster").body()).getJsonArray("members");
    Map<String, Integer> nodeOfId = new HashMap<>();
    for (int i = 0; i < members.size(); i++) {
      JsonObject member = members.getJsonObject(i);
      String host = member.getString("address").replaceAll("^\\[|\\]:\\d+$", "");
      int node = IntStream.range(0, nodes.length).filter(candidate -> address(candidate).equals(host)).findFirst()
          .orElseThrow(() -> new AssertionError("member " + member + " is no node of this cluster"));
      nodeOfId.put(member.getString("id"), node);
    }
    PartitionTable table = PartitionTable.of(nodeOfId.keySet(), nodeOfId.size() - 1);
    return table.replicasOf(partitionOf(key, PartitionTable.PARTITIONS)).stream().map(nodeOfId::get).toList();
  }

  private static int partitionOf(String key, int partitions) {
    return KeyHash.shardOf(KeyHash.of(key.getBytes(StandardCharsets.UTF_8)), partitions);
  }

  /** The node's last replication lag (its latest batch of changes to a backup, acknowledged), in nanoseconds. */
  long lastReplicationLagNanos(int node) throws IOException {
    return (long) (new JsonObject(get(node, "/api/cluster").body()).getDouble("replicationLagMillis") * 1e6);
  }

  HttpResponse<String> get(int node, String path) throws IOException {
    try {
      return http.send(HttpRequest.newBuilder(URI.create("http://" + address(node) + ":" + HTTP_PORT + path))
          .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    }
  }

  /** kill -9: no shutdown hook, no handoff. */
  void kill(int node) throws InterruptedException {
    nodes[node].process().destroyForcibly();
    if (!nodes[node].process().waitFor(30, TimeUnit.SECONDS)) {
      throw new AssertionError("node " + node + " survived kill -9");
    }
  }

  /** SIGTERM, as a rolling restart stops a node: it hands its partitions over, then exits. */
  void stop(int node) throws Exception {
    nodes[node].signal("TERM");
    nodes[node].awaitExit();
  }

  /**
   * One step of a rolling restart: SIGTERM (the node hands its partitions over and exits), started
   * again, and waited for until every running node counts every running node.
   */
  void restart(int node) throws Exception {
    stop(node);
    startNode(node);
    awaitAllReady();
  }

  /** SIGSTOP: the process is frozen, its sockets stay open, as in a long GC pause or a stalled VM. */
  void pause(int node) throws Exception {
    nodes[node].signal("STOP");
  }

  void resume(int node) throws Exception {
    nodes[node].signal("CONT");
  }


  /**
   * Kills every node still running (a paused one is woken first), and keeps each node's output in
   * target/netns/{@code <namespace>}.log: what a failed scenario's nodes said, for CI to keep.
   */
  @Override
  public void close() throws Exception {
    for (ChildProcess node : nodes) {
      if (node != null && node.process().isAlive()) {
        node.signal("CONT");
        node.process().destroyForcibly();
      }
    }
    Path logs = Files.createDirectories(Path.of(System.getProperty("basedir", "."), "target", "netns"));
    for (int node = 0; node < nodes.length; node++) {
      if (nodes[node] != null) {
        nodes[node].close();
        Files.writeString(logs.resolve(network.namespace(node) + ".log"), earlierOutput[node] + nodes[node].output());
      }
    }
  }
}
