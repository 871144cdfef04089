package io.sluice.gateway.netns;

import io.sluice.gateway.process.ChildProcess;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A network a test can break: a bridge in the test's namespace and one Linux network namespace per
 * node, joined to it by a veth pair, with an address in a /24 of 10.77.0.0/16 picked per run. The
 * test reaches every node over the bridge; {@link #cut} and {@link #heal} cut and restore the links
 * between nodes (blackhole routes inside the namespaces: packets dropped silently, as a partition
 * does, while the test still reaches each node), {@link #delay} adds latency and loss
 * ({@link LinkDelay}).
 *
 * <p>Names carry a random run id ({@code sn<hex>…}), so a leftover of a killed run never clashes
 * with the next; {@link #close} removes every namespace, veth and the bridge, and a shutdown hook
 * does it if the test JVM is stopped first.
 */
final class NetworkNamespaces implements AutoCloseable {

  private static final Path HERE = Path.of(".");

  private final String run;
  private final int subnet;
  private final int nodes;
  private final Set<String> cuts = new LinkedHashSet<>();
  private final Thread cleanupOnExit = new Thread(this::removeAll, "netns-cleanup");

  private NetworkNamespaces(String run, int subnet, int nodes) {
    this.run = run;
    this.subnet = subnet;
    this.nodes = nodes;
  }

  /**
   * The scenarios make namespaces, so they need root and {@code ip}: without them they skip with the
   * reason, except under CI (CI set), where .ci/run runs them and a missing capability fails.
   */
  static void requireRoot() throws Exception {
    boolean root = ChildProcess.run(List.of("id", "-u"), Map.of(), HERE).output().strip().equals("0");
    boolean ip = ChildProcess.run(List.of("sh", "-c", "command -v ip"), Map.of(), HERE).status() == 0;
    String why = !root ? "the network-namespace scenarios need root (ip netns, veth, bridge)"
        : "the network-namespace scenarios need ip (iproute2)";
    if (System.getenv("CI") != null) {
      assertThat(root && ip).as(why + "; .ci/run runs them as root").isTrue();
    }
    assumeTrue(root && ip, why);
  }

  /** Makes the bridge, and a namespace with its veth and address for each of {@code nodes} nodes. */
  static NetworkNamespaces create(int nodes) throws Exception {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    String run = "sn" + HexFormat.of().toHexDigits((short) random.nextInt()); // 6 characters: names stay within 15
    int subnet = freeSubnet(random);
    NetworkNamespaces network = new NetworkNamespaces(run, subnet, nodes);
    Runtime.getRuntime().addShutdownHook(network.cleanupOnExit);
    try {
      network.build();
    } catch (Exception | AssertionError e) {
      network.close();
      throw e;
    }
    return network;
  }

  private static int freeSubnet(ThreadLocalRandom random) throws Exception {
    String routes = ChildProcess.run(List.of("ip", "-4", "route", "show"), Map.of(), HERE).output();
    for (int attempt = 0; attempt < 100; attempt++) {
      int candidate = random.nextInt(1, 255);
      if (!routes.contains("10.77." + candidate + ".")) {
        return candidate;
      }
    }
    throw new AssertionError("no free 10.77.x.0/24 among the routes:\n" + routes);
  }

  private void build() throws Exception {
    ip("link", "add", bridge(), "type", "bridge");
    ip("addr", "add", "10.77." + subnet + ".254/24", "dev", bridge());
    ip("link", "set", bridge(), "up");
    for (int node = 0; node < nodes; node++) {
      ip("netns", "add", namespace(node));
      ip("link", "add", veth(node), "type", "veth", "peer", "name", "eth0", "netns", namespace(node));
      ip("link", "set", veth(node), "master", bridge(), "up");
      ip("-n", namespace(node), "addr", "add", address(node) + "/24", "dev", "eth0");
      ip("-n", namespace(node), "link", "set", "eth0", "up");
      ip("-n", namespace(node), "link", "set", "lo", "up");
    }
  }

  int nodes() {
    return nodes;
  }

  String address(int node) {
    return "10.77." + subnet + "." + (node + 1);
  }

  String namespace(int node) {
    return run + "n" + node;
  }

  private String veth(int node) {
    return run + "v" + node;
  }

  private String bridge() {
    return run + "br";
  }

  /** {@code command} run inside the node's namespace ({@code ip netns exec} execs it: its pid is the command's). */
  List<String> inside(int node, List<String> command) {
    List<String> inside = new ArrayList<>(List.of("ip", "netns", "exec", namespace(node)));
    inside.addAll(command);
    return inside;
  }

  /**
   * Every packet a node sends is held for {@code mean} ± {@code jitter} (uniformly drawn) or, with
   * {@code lossPercent}, dropped: {@link LinkDelay}, in place of tc netem, which this machine's kernel
   * lacks. Until {@link #close}.
   */
  LinkDelay delay(Duration mean, Duration jitter, double lossPercent) throws Exception {
    return LinkDelay.start(this, mean, jitter, lossPercent);
  }

  /** Cuts {@code node} from every other node, both ways; the test still reaches it. */
  void isolate(int node) throws Exception {
    for (int other = 0; other < nodes; other++) {
      if (other != node) {
        cut(node, other);
      }
    }
  }

  /** Packets between the two nodes are dropped, both ways, from now until {@link #heal}. */
  void cut(int node, int other) throws Exception {
    blackhole("add", node, other);
    blackhole("add", other, node);
  }

  /** Every cut link works again. */
  void heal() throws Exception {
    for (String cut : List.copyOf(cuts)) {
      String[] ends = cut.split(">");
      blackhole("del", Integer.parseInt(ends[0]), Integer.parseInt(ends[1]));
    }
  }

  private void blackhole(String change, int from, int to) throws Exception {
    ip("-n", namespace(from), "route", change, "blackhole", address(to) + "/32");
    if (change.equals("add")) {
      cuts.add(from + ">" + to);
    } else {
      cuts.remove(from + ">" + to);
    }
  }

  private void ip(String... arguments) throws Exception {
    List<String> command = new ArrayList<>(List.of("ip"));
    command.addAll(List.of(arguments));
    run(command);
  }

  private static void run(List<String> command) throws IOException, InterruptedException {
    ChildProcess.Finished finished = ChildProcess.run(command, Map.of(), HERE);
    if (finished.status() != 0) {
      throw new AssertionError(String.join(" ", command) + " failed (" + finished.status() + "): " + finished.output());
    }
  }

  /**
   * Kills what still runs inside the namespaces (the nodes this test started there, if the test
   * could not stop them), removes the namespaces (their veths go with them) and the bridge; what
   * is already gone is fine.
   */
  @Override
  public void close() {
    removeAll();
    try {
      Runtime.getRuntime().removeShutdownHook(cleanupOnExit);
    } catch (IllegalStateException exiting) {
      // the JVM is stopping: the hook runs removeAll, which finds nothing left
    }
  }

  private void removeAll() {
    List<String> failures = new ArrayList<>();
    for (int node = 0; node < nodes; node++) {
      killInside(node, failures);
      remove(List.of("ip", "netns", "del", namespace(node)), failures);
    }
    remove(List.of("ip", "link", "del", bridge()), failures);
    if (!failures.isEmpty()) {
      System.err.println("network-namespace cleanup: " + String.join("; ", failures));
    }
  }

  private void killInside(int node, List<String> failures) {
    try {
      String pids = ChildProcess.run(List.of("ip", "netns", "pids", namespace(node)), Map.of(), HERE).output();
      pids.lines().map(String::strip).filter(pid -> pid.matches("\\d+")).map(Long::parseLong)
          .forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
    } catch (IOException | InterruptedException | AssertionError e) {
      failures.add("ip netns pids " + namespace(node) + ": " + e);
    }
  }

  private static void remove(List<String> command, List<String> failures) {
    try {
      ChildProcess.Finished finished = ChildProcess.run(command, Map.of(), HERE, Duration.ofSeconds(30));
      String output = finished.output();
      if (finished.status() != 0 && !output.contains("No such file") && !output.contains("Cannot find device")) {
        failures.add(String.join(" ", command) + ": " + output);
      }
    } catch (IOException | InterruptedException | AssertionError e) {
      failures.add(String.join(" ", command) + ": " + e);
    }
  }
}
