package io.sluice.gateway.cluster;

import io.sluice.gateway.process.ChildProcess;
import io.sluice.gateway.process.Tools;
import io.sluice.protocol.binary.client.ThrottrClient;
import io.sluice.protocol.binary.codec.TtlUnit;
import io.sluice.verticles.engine.time.ManualClock;
import io.sluice.verticles.server.cluster.MemberCredentials;
import io.sluice.verticles.server.kit.ClusterNodeUnderTest;
import io.sluice.verticles.server.kit.ClusterNodes;
import io.vertx.core.internal.VertxInternal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static io.sluice.gateway.process.Waits.await;
import static io.sluice.gateway.process.Waits.until;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A packet capture of two members that share a secret, while keys travel between them (forwarded
 * to their owner, replicated to their backup): no key's bytes appear in clear on their member and
 * event-bus ports. The clients' own Throttr traffic, plain text, is the control: the same search
 * finds the keys there, so it would find them in member traffic too.
 */
class MemberTrafficCaptureTest {

  private static final String MARKER = "capture-marker-5c1ce";
  private static final int KEYS = 200;
  @RegisterExtension
  final ClusterNodes cluster = new ClusterNodes();
  private final List<ClusterNodeUnderTest> nodes = cluster.nodes();
  @TempDir
  Path folder;

  @Test
  void memberTrafficCarriesNoKeyInClear() throws Exception {
    Tools.need("tshark");
    assumeTrue("root".equals(System.getProperty("user.name")) || Tools.ci(), "capturing on lo needs root");
    Path secret = folder.resolve("cluster.secret");
    Files.writeString(secret, "Y2FwdHVyZWQgbWVtYmVycyBzaGFyZSB0aGlzIHNlY3JldA==\n");
    Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("rw-------"));
    MemberCredentials credentials = new MemberCredentials.SharedSecret(secret);
    ManualClock clock = new ManualClock();
    nodes.add(ClusterNodeUnderTest.start(List.of(), credentials, clock));
    nodes.add(ClusterNodeUnderTest.start(List.of(nodes.get(0).clusterPort()), credentials, clock));
    ClusterNodeUnderTest.awaitFormed(nodes);
    List<Integer> clientPorts = nodes.stream().map(ClusterNodeUnderTest::tcpPort).toList();
    List<Integer> memberPorts = new ArrayList<>();
    for (ClusterNodeUnderTest node : nodes) {
      memberPorts.add(node.clusterPort());
      memberPorts.add(((VertxInternal) node.vertx()).clusterManager().getNodeInfo().port());
    }
    Path capture = folder.resolve("members.pcapng");
    // Only these nodes' ports: other programs on this machine talk over lo too.
    String ports = "tcp and (" + java.util.stream.Stream.concat(clientPorts.stream(), memberPorts.stream())
        .map(port -> "port " + port).collect(Collectors.joining(" or ")) + ")";

    try (ChildProcess tshark = ChildProcess.start(List.of("tshark", "-i", "lo", "-f", ports, "-w", capture.toString()),
        Map.of(), folder)) {
      tshark.awaitLine(Pattern.compile("Capturing on"));
      ThrottrClient writer = cluster.client(0);
      for (int i = 0; i < KEYS; i++) {
        // About half are owned by the other node (forwarded there); every one is copied to its backup.
        assertThat(await(writer.insert(MARKER + i, i, TtlUnit.MINUTES, 10))).isTrue();
      }
      assertThat(await(cluster.client(1).query(MARKER + 7)).quota()).isEqualTo(7);
      until(Duration.ofSeconds(10), "every change reached its backup", () -> nodes.stream()
          .allMatch(node -> node.node().meters().replicasInFlight() == 0));
      tshark.process().destroy();
      assertThat(tshark.process().waitFor()).as("tshark ends on SIGTERM, its capture written").isZero();
    }

    String marker = HexFormat.of().formatHex(MARKER.getBytes(StandardCharsets.US_ASCII));
    String clientTraffic = payloads(capture, clientPorts);
    String memberTraffic = payloads(capture, memberPorts);
    assertThat(clientTraffic).as("the control: the clients' plain Throttr traffic shows the keys").contains(marker);
    assertThat(memberTraffic).as("member traffic was captured").hasSizeGreaterThan(10_000);
    assertThat(memberTraffic).as("no key in clear between members").doesNotContain(marker);
  }

  /** Every TCP payload to or from {@code ports}, as hex, in capture order (segments of a stream joined). */
  private String payloads(Path capture, List<Integer> ports) throws Exception {
    String filter = "tcp.len > 0 && tcp.port in {" + ports.stream().map(String::valueOf)
        .collect(Collectors.joining(", ")) + "}";
    ChildProcess.Finished read = ChildProcess.run(List.of("tshark", "-r", capture.toString(), "-Y", filter,
        "-T", "fields", "-e", "tcp.payload"), Map.of(), folder);
    assertThat(read.status()).as(read.output()).isZero();
    // tshark's own remarks (running as root) are not payloads: only lines of hex are.
    return read.output().lines().filter(line -> line.matches("[0-9a-f:]*")).map(line -> line.replace(":", ""))
        .collect(Collectors.joining());
  }
}
