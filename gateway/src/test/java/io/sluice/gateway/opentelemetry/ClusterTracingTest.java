package io.sluice.gateway.opentelemetry;

import io.sluice.gateway.Gateway;
import io.sluice.gateway.process.Ports;
import io.sluice.gateway.opentelemetry.OtlpReceiver.ReceivedSpan;
import io.sluice.verticles.server.check.LimitKey;
import io.sluice.verticles.server.cluster.ClusterNode;
import io.sluice.verticles.server.kit.ClusterNodeUnderTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static io.sluice.gateway.process.Waits.until;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A check on one node of a 2-node cluster whose key another node owns: one trace holds the check's
 * span and the event-bus hop's on the first node, and the hop's receiving span on the owner.
 */
class ClusterTracingTest {

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
    int firstCluster = Ports.free();
    Gateway first = node(config, firstCluster);
    Gateway second = node(config, Ports.free(), "--cluster-members", "127.0.0.1:" + firstCluster);
    ClusterNode firstNode = first.server().cluster().orElseThrow().node();
    ClusterNode secondNode = second.server().cluster().orElseThrow().node();
    until(Duration.ofSeconds(60), "both nodes serve", () -> firstNode.table().members().size() == 2 && firstNode.ready()
        && secondNode.ready());

    String firstId = firstNode.self();
    String secondId = secondNode.self();
    String key = keyOwnedBy(firstNode, secondId);
    String traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    assertThat(TracingTest.check(http, first.server().httpPort(), key, TracingTest.traceparent(traceId, "00f067aa0ba902b7"))
        .statusCode()).isEqualTo(200);
    stopAll();

    // The stop sent what was left: the spans are there now (the poll only bounds a slow receiver).
    until(Duration.ofSeconds(10), "the hop's three spans received",
        () -> receiver.spans().stream().filter(span -> span.traceId().equals(traceId)).count() >= 3);
    List<ReceivedSpan> hop = receiver.spans().stream().filter(span -> span.traceId().equals(traceId)).toList();
    ReceivedSpan check = only(hop, span -> span.name().equals("POST /v1/check"));
    assertThat(check.resource()).containsEntry("sluice.node.id", firstId);
    assertThat(check.parentSpanId()).isEqualTo("00f067aa0ba902b7");
    ReceivedSpan sent = only(hop, span -> span.parentSpanId().equals(check.spanId()));
    assertThat(sent.resource()).containsEntry("sluice.node.id", firstId);
    ReceivedSpan received = only(hop, span -> span.parentSpanId().equals(sent.spanId()));
    assertThat(received.resource()).containsEntry("sluice.node.id", secondId);
  }

  /** A check key whose state record the table puts on {@code owner}. */
  private static String keyOwnedBy(ClusterNode node, String owner) {
    for (int i = 0; i < 100_000; i++) {
      String key = "k" + i;
      byte[] record = (LimitKey.PREFIX + "one:" + key).getBytes(StandardCharsets.UTF_8);
      if (owner.equals(ClusterNodeUnderTest.ownerOf(node, record))) {
        return key;
      }
    }
    throw new AssertionError(owner + " owns no partition: " + node.table().owned(owner));
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
}
