package io.sluice.gateway.netns;

import io.sluice.gateway.process.ChildProcess;
import io.sluice.gateway.process.Tools;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Latency and loss on every node's link without tc netem: in each node's namespace, an iptables
 * rule hands every packet leaving {@code eth0} to an NFQUEUE queue, and
 * verticles/benchmarks/scripts/link-delay.py holds each one for its delay (uniform in mean ± jitter,
 * as netem draws it) or drops it. So a packet between two nodes is delayed once, by its sender: the
 * one-way delay is the mean, a round trip twice it.
 *
 * <p>This machine's kernel has no netem (no CONFIG_NET_SCH_NETEM, and no qdisc at all) but has
 * iptables' NFQUEUE target and nfnetlink_queue, which need nothing but a user-space reader.
 */
final class LinkDelay implements AutoCloseable {

  static final Path SCRIPT = Path.of("..", "verticles", "benchmarks", "scripts", "link-delay.py").toAbsolutePath().normalize();
  private static final Path HERE = Path.of(".");
  private static final int QUEUE = 7;
  private static final Pattern COUNTS = Pattern.compile("^packets \\d+, delayed (\\d+) .*");

  private final NetworkNamespaces network;
  private final List<ChildProcess> holders = new ArrayList<>();

  private LinkDelay(NetworkNamespaces network) {
    this.network = network;
  }

  /** iptables and python3, which deploy/install-build-tools.sh installs: without, skipped, except under CI. */
  static void require() throws Exception {
    Tools.need("iptables");
    Tools.need("python3");
    assertThat(Files.isRegularFile(SCRIPT)).as(SCRIPT.toString()).isTrue();
  }

  /** Starts a holder in every node's namespace, then sends eth0's outgoing packets to it. */
  static LinkDelay start(NetworkNamespaces network, Duration mean, Duration jitter, double lossPercent) throws Exception {
    require();
    LinkDelay delay = new LinkDelay(network);
    try {
      for (int node = 0; node < network.nodes(); node++) {
        ChildProcess holder = ChildProcess.start(network.inside(node, List.of("python3", SCRIPT.toString(),
            "--queue", Integer.toString(QUEUE), "--delay-us", Long.toString(mean.toNanos() / 1_000),
            "--jitter-us", Long.toString(jitter.toNanos() / 1_000), "--loss", Double.toString(lossPercent))), Map.of(), HERE);
        delay.holders.add(holder);
        // Until the queue has its reader the kernel drops what the rule sends it: the rule comes after.
        holder.awaitLine(Pattern.compile("^ready$"));
        run(network.inside(node, List.of("iptables", "-A", "OUTPUT", "-o", "eth0", "-j", "NFQUEUE",
            "--queue-num", Integer.toString(QUEUE))));
      }
    } catch (Exception | AssertionError e) {
      delay.close();
      throw e;
    }
    return delay;
  }

  /** One holder's line of counts, and the packets it let through after their delay. */
  record Counts(int node, String line, long delayed) {
  }

  /**
   * Each holder stopped (it lets go what it still holds) after its rule is removed, and its counts:
   * proof that the packets went through it.
   */
  List<Counts> stop() throws Exception {
    List<Counts> counts = new ArrayList<>();
    for (int node = 0; node < holders.size(); node++) {
      run(network.inside(node, List.of("iptables", "-D", "OUTPUT", "-o", "eth0", "-j", "NFQUEUE",
          "--queue-num", Integer.toString(QUEUE))));
      ChildProcess holder = holders.get(node);
      holder.signal("TERM");
      Matcher line = holder.awaitLine(COUNTS);
      counts.add(new Counts(node, line.group(), Long.parseLong(line.group(1))));
    }
    return counts;
  }

  private static void run(List<String> command) throws IOException, InterruptedException {
    ChildProcess.Finished finished = ChildProcess.run(command, Map.of(), HERE);
    if (finished.status() != 0) {
      throw new AssertionError(String.join(" ", command) + " failed (" + finished.status() + "): " + finished.output());
    }
  }

  /** The holders stopped, if {@link #stop} did not; removing the namespaces removes the rules. */
  @Override
  public void close() throws InterruptedException {
    for (ChildProcess holder : holders) {
      holder.close();
    }
  }
}
