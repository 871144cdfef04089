package io.sluice.gateway;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.gateway.config.ConfigLoader;
import io.sluice.gateway.config.Invocation;
import io.sluice.verticles.server.SluiceServer;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Persistence is per single node for now: --data-dir with --cluster is refused at start, before joining. */
class ClusterPersistenceRefusedTest {

  @TempDir
  Path dataDir;

  @Test
  void dataDirWithClusterIsRefusedWithAClearError() throws Exception {
    Invocation invocation = ConfigLoader.load(List.of("--cluster", "--data-dir", dataDir.toString(),
        "--tcp-port", "0", "--http-port", "0", "--grpc-port", "0", "--udp-port", "0"), Map.of());

    assertThatThrownBy(() -> Gateway.start(((Invocation.Run) invocation).config()))
        .hasMessageContaining(SluiceServer.CLUSTER_PERSISTENCE_REFUSED);
  }
}
