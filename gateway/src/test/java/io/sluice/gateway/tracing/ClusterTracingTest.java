package io.sluice.gateway.tracing;

import io.sluice.gateway.Gateway;
import io.sluice.gateway.tracing.OtlpReceiver.ReceivedSpan;
import io.sluice.verticles.server.cluster.ClusterNode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static io.sluice.gateway.process.Waits.until;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A check on one node of a 2-node cluster whose key another node owns: one trace holds the check's
 * span and the event-bus hop's on the first node, and the hop's receiving span on the owner.
 */
class ClusterTracingTest {

  /** Keys checked: each lands on either node's partitions, so all on the first has odds of 2^-32. */
  private static final int KEYS = 32;

  @TempDir
  Path dir;
  private final HttpClient http = HttpClient.newHttpClient();
  private final OtlpReceiver receiver = new OtlpReceiver();
  private final List<Gateway> nodes = new ArrayList<>();

  @AfterEach
  void stop() {
    nodes.forEach(Gateway::stop);
    receiver.close();
  }

  @Test
  void aCheckWhoseKeyIsOnAnotherNodeIsOneTraceAcrossBoth() throws Exception {
    Path config = Files.writeString(dir.resolve("sluice.yaml"), TracingTest.POLICY);
    int firstCluster = freePort();
    Gateway first = node(config, firstCluster);
    Gateway second = node(config, freePort(), "--cluster-members", "127.0.0.1:" + firstCluster);
    ClusterNode firstNode = first.server().cluster().orElseThrow().node();
    ClusterNode secondNode = second.server().cluster().orElseThrow().node();
    until(Duration.ofSeconds(60), "both nodes serve", () -> firstNode.table().members().size() == 2 && firstNode.ready()
        && secondNode.ready());

    for (int i = 0; i < KEYS; i++) {
      String traceId = String.format("%032x", 0xabc000 + i);
      assertThat(TracingTest.check(http, first.server().httpPort(), "k" + i,
          TracingTest.traceparent(traceId, "00f067aa0ba902b7")).statusCode()).isEqualTo(200);
    }
    stopAll();

    // The stop sent what was left: the spans are there now (the poll only bounds a slow receiver).
    until(Duration.ofSeconds(10), "a span per check received", () -> receiver.spans().size() >= KEYS);
    Map<String, List<ReceivedSpan>> byTrace = receiver.spans().stream().collect(Collectors.groupingBy(ReceivedSpan::traceId));
    List<ReceivedSpan> hop = byTrace.values().stream()
        .filter(spans -> spans.stream().map(span -> span.resource().get("sluice.node.id")).distinct().count() == 2)
        .findFirst().orElseThrow(() -> new AssertionError("no trace spans both nodes: " + receiver.spans()));
    String firstId = firstNode.self();
    String secondId = secondNode.self();
    assertThat(secondId).isNotEqualTo(firstId);
    ReceivedSpan check = only(hop, span -> span.name().equals("POST /v1/check"));
    assertThat(check.resource()).containsEntry("sluice.node.id", firstId);
    assertThat(check.parentSpanId()).isEqualTo("00f067aa0ba902b7");
    ReceivedSpan sent = only(hop, span -> span.parentSpanId().equals(check.spanId()));
    assertThat(sent.resource()).containsEntry("sluice.node.id", firstId);
    ReceivedSpan received = only(hop, span -> span.parentSpanId().equals(sent.spanId()));
    assertThat(received.resource()).containsEntry("sluice.node.id", secondId);
  }

  private static ReceivedSpan only(List<ReceivedSpan> spans, java.util.function.Predicate<ReceivedSpan> which) {
    List<ReceivedSpan> found = spans.stream().filter(which).toList();
    assertThat(found).as("in %s", spans).hasSize(1);
    return found.get(0);
  }

  private Gateway node(Path config, int clusterPort, String... more) throws Exception {
    List<String> flags = new ArrayList<>(List.of("--config", config.toString(), "--cluster", "--cluster-port",
        String.valueOf(clusterPort), "--event-loops", "1", "--otel-endpoint", receiver.endpoint()));
    flags.addAll(List.of(more));
    Gateway node = TracingTest.start(flags);
    nodes.add(node);
    return node;
  }

  /** Stops the nodes, which sends their last spans. */
  private void stopAll() {
    nodes.forEach(Gateway::stop);
    nodes.clear();
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
