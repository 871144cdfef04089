package io.sluice.verticles.server.cluster;

import io.sluice.protocol.binary.codec.TtlUnit;
import io.sluice.verticles.engine.time.ManualClock;
import io.sluice.verticles.server.kit.ClusterNodeUnderTest;
import io.sluice.verticles.server.kit.ClusterNodes;
import io.sluice.verticles.server.kit.LogLines;
import io.sluice.verticles.server.kit.Poll;
import io.sluice.verticles.server.kit.TestCertificates;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.logging.Level;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Members admitted by the operator's certificates ({@code --cluster-tls-*}): those whose CA signed
 * their certificate form the cluster, one from another CA is refused, and a renewed certificate is
 * read again with no restart, and a key that does not match its certificate is not.
 */
class ClusterMemberCertificatesTest {

  private static final ManualClock CLOCK = new ManualClock();
  @RegisterExtension
  final ClusterNodes cluster = new ClusterNodes();
  private final List<ClusterNodeUnderTest> nodes = cluster.nodes();
  @TempDir
  Path folder;

  @Test
  void membersOfTheCaFormTheClusterAndAnotherCaIsRefused() throws Exception {
    TestCertificates ours = new TestCertificates(folder, "members");
    ClusterNodeUnderTest first = ClusterNodeUnderTest.start(List.of(), credentials(ours, "first"), CLOCK);
    nodes.add(first);
    nodes.add(ClusterNodeUnderTest.start(List.of(first.clusterPort()), credentials(ours, "second"), CLOCK));
    ClusterNodeUnderTest.awaitFormed(nodes);
    assertThat(await(first.client(cluster.clients()).insert("signed", 5, TtlUnit.SECONDS, 600))).isTrue();
    assertThat(await(cluster.client(1).query("signed")).quota()).isEqualTo(5);

    TestCertificates theirs = new TestCertificates(folder, "strangers");
    try (ClusterNodeUnderTest stranger = ClusterNodeUnderTest.start(List.of(first.clusterPort()),
        credentials(theirs, "stranger"), CLOCK)) {
      Poll.until("both members refused the stranger", () -> refusedMembers() == nodes.size());
      assertThat(await(stranger.client(cluster.clients()).query("signed"))).as("the stranger holds nothing of ours").isNull();
      for (ClusterNodeUnderTest node : nodes) {
        assertThat(node.node().table().members()).hasSize(nodes.size()).doesNotContain(stranger.node().self());
      }
    }

    TestCertificates.Issued renewed;
    try (LogLines log = new LogLines(Level.INFO)) {
      renewed = ours.server("first");
      Poll.until("the renewed certificate is read again", () -> !log.containing("cluster credentials read again").isEmpty());
    }

    // A renewal caught half done, a key that is not the certificate's: installed, it would fail every
    // handshake of a member with this node. Refused, naming the files.
    try (LogLines log = new LogLines(Level.WARNING)) {
      Path swap = Files.copy(ours.server("other").keyFile(), folder.resolve("swap.tmp"));
      Files.move(swap, renewed.keyFile(), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      Poll.until("the key that does not match is refused", () -> !log.containing("the private key in "
          + renewed.keyFile() + " does not match the certificate in " + renewed.certificateFile()).isEmpty());
      assertThat(log.containing("the event bus keeps those it had")).isNotEmpty();
    }
  }

  private static MemberCredentials credentials(TestCertificates certificates, String name) {
    TestCertificates.Issued issued = certificates.server(name);
    return new MemberCredentials.Certificates(issued.certificateFile(), issued.keyFile(), certificates.caFile());
  }

  private double refusedMembers() {
    return nodes.stream().mapToDouble(node -> {
      io.micrometer.core.instrument.Counter counter = node.metrics().find("sluice.cluster.refused.members").counter();
      return counter == null ? 0 : counter.count();
    }).sum();
  }
}
