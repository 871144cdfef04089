package io.sluice.verticles.server.cluster;

import io.sluice.verticles.benchmarks.load.Bench;
import io.sluice.verticles.engine.time.ManualClock;
import io.sluice.verticles.server.kit.ClusterNodeUnderTest;
import io.sluice.verticles.server.kit.SluiceUnderTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code bench --route-by-owner --auth-token-file FILE} against a cluster node whose HTTP port asks
 * for a token, over real sockets: the bench reads the partition table with the file's token and
 * loads the owner; without the token, or with a file holding no token, it stops with exit 1.
 */
class BenchRouteByOwnerTokenTest {

  private static final String TOKEN = "bench-route-token";
  private static ClusterNodeUnderTest node;

  @TempDir
  static Path directory;

  @BeforeAll
  static void start() {
    node = ClusterNodeUnderTest.startAlone(SluiceUnderTest.defaults().http().withAuthToken(Optional.of(TOKEN)),
        new ManualClock());
    ClusterNodeUnderTest.awaitFormed(List.of(node));
    ClusterNodeUnderTest.awaitCondition("the node published its addresses", Duration.ofSeconds(10),
        () -> node.node().addressesOf(node.node().self()).isPresent());
  }

  @AfterAll
  static void stop() {
    node.close();
  }

  @Test
  void theTableIsReadWithTheFilesToken() throws Exception {
    Path token = Files.writeString(directory.resolve("token"), TOKEN + "\n");

    assertThat(bench("--auth-token-file", token.toString())).isZero();
  }

  @Test
  void withoutTheTokenTheNodeRefusesTheTableAndTheBenchStops() {
    assertThat(bench()).isEqualTo(1);
  }

  @Test
  void aFileWithoutATokenIsRefusedBeforeAnyRequest() throws Exception {
    Path blank = Files.writeString(directory.resolve("blank"), " \n");

    assertThat(bench("--auth-token-file", blank.toString())).isEqualTo(1);
    assertThat(bench("--auth-token-file", directory.resolve("absent").toString())).isEqualTo(1);
  }

  private static int bench(String... token) {
    List<String> args = new ArrayList<>(List.of("--route-by-owner", "--host", "127.0.0.1",
        "--http-port", String.valueOf(node.httpPort()), "--connections", "1", "--pipeline", "4", "--keys", "50",
        "--duration", "1", "--warmup", "0"));
    args.addAll(List.of(token));
    return Bench.run(args);
  }
}
