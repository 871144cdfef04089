package io.sluice.gateway.cluster;

import io.sluice.gateway.process.Ports;
import io.sluice.gateway.Gateway;
import io.sluice.gateway.config.ConfigLoader;
import io.sluice.gateway.config.Invocation;
import io.sluice.protocol.binary.client.ThrottrClient;
import io.sluice.protocol.binary.client.ThrottrClientOptions;
import io.sluice.protocol.binary.client.UpdateAttribute;
import io.sluice.protocol.binary.client.UpdateChange;
import io.sluice.protocol.binary.codec.TtlUnit;
import io.sluice.verticles.server.cluster.ClusterNode;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static io.sluice.gateway.process.Waits.await;
import static io.sluice.gateway.process.Waits.until;

/**
 * A node in a separate process is killed with SIGKILL (no shutdown hook, no handoff): the node
 * left serves every key it owned, with every acknowledged write that had been replicated.
 */
class ClusterKillTest {

  private static final int KEYS = 100;
  private final Vertx clients = Vertx.vertx();
  private final HttpClient http = HttpClient.newHttpClient();
  private Gateway survivor;
  private Process victim;

  @AfterEach
  void stop() {
    if (victim != null) {
      victim.destroyForcibly();
    }
    if (survivor != null) {
      survivor.stop();
    }
    await(clients.close());
  }

  @Test
  void aNodeKilledWithSigkillLosesNoReplicatedWrite() throws Exception {
    int survivorCluster = Ports.free();
    Invocation invocation = ConfigLoader.load(List.of("--cluster", "--cluster-port", String.valueOf(survivorCluster),
        "--tcp-port", "0", "--http-port", "0", "--grpc-port", "0", "--udp-port", "0", "--event-loops", "1"), Map.of());
    survivor = Gateway.start(((Invocation.Run) invocation).config());
    ClusterNode node = survivor.server().cluster().orElseThrow().node();

    int victimHttp = Ports.free();
    int victimTcp = Ports.free();
    Path log = Files.createTempFile("sluice-victim", ".log");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    victim = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), "io.sluice.gateway.Main",
        "--cluster", "--cluster-port", String.valueOf(Ports.free()), "--cluster-members", "127.0.0.1:" + survivorCluster,
        "--tcp-port", String.valueOf(victimTcp), "--http-port", String.valueOf(victimHttp), "--grpc-port", "0", "--udp-port", "0",
        "--event-loops", "1")
        .redirectErrorStream(true).redirectOutput(log.toFile()).start();
    until(Duration.ofSeconds(90), "the second node is ready (log " + log + ")",
        () -> status(victimHttp, "/ready") == 200 && node.table().members().size() == 2 && node.ready());

    ThrottrClient viaSurvivor = await(ThrottrClient.connect(clients, new ThrottrClientOptions().setPort(survivor.server().tcpPort())));
    ThrottrClient viaVictim = await(ThrottrClient.connect(clients, new ThrottrClientOptions().setPort(victimTcp)));
    for (int i = 0; i < KEYS; i++) {
      assertThat(await(viaSurvivor.insert("killed:" + i, i, TtlUnit.MINUTES, 10))).isTrue();
      assertThat(await(viaVictim.update("killed:" + i, UpdateAttribute.QUOTA, UpdateChange.INCREASE, 500))).isTrue();
    }
    int victimOwned = survivor.server().cluster().orElseThrow().node().table().owned(
        node.table().members().stream().filter(id -> !id.equals(node.self())).findFirst().orElseThrow());
    assertThat(victimOwned).isPositive();
    until(Duration.ofSeconds(10), "the victim's changes reached their backup",
        () -> metric(victimHttp, "sluice_cluster_replication_in_flight ") == 0
            && node.meters().replicasInFlight() == 0);

    long killedAt = System.nanoTime();
    victim.destroyForcibly();
    assertThat(victim.waitFor(10, TimeUnit.SECONDS)).isTrue();
    until(Duration.ofSeconds(30), "the survivor serves alone",
        () -> node.table().members().size() == 1 && node.ready());
    System.out.println("kill -9 failover: " + victimOwned + " partitions served again after "
        + (System.nanoTime() - killedAt) / 1_000_000 + " ms");
    for (int i = 0; i < KEYS; i++) {
      assertThat(await(viaSurvivor.query("killed:" + i)).quota()).as("killed:%d", i).isEqualTo(500 + i);
    }
  }

  private int status(int port, String path) {
    try {
      return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
          HttpResponse.BodyHandlers.discarding()).statusCode();
    } catch (IOException e) {
      return -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  private double metric(int port, String prefix) {
    try {
      String body = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics")).build(),
          HttpResponse.BodyHandlers.ofString()).body();
      return body.lines().filter(line -> line.startsWith(prefix)).findFirst()
          .map(line -> Double.parseDouble(line.substring(prefix.length()).trim())).orElse(-1.0);
    } catch (IOException | InterruptedException e) {
      return -1;
    }
  }



}
