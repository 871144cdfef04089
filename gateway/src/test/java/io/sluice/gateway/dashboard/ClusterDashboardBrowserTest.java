package io.sluice.gateway.dashboard;

import io.sluice.gateway.process.Ports;
import io.sluice.gateway.Gateway;
import io.sluice.gateway.config.ConfigLoader;
import io.sluice.gateway.config.Invocation;
import io.sluice.protocol.binary.client.ThrottrClient;
import io.sluice.protocol.binary.client.ThrottrClientOptions;
import io.sluice.protocol.binary.codec.TtlUnit;
import io.sluice.verticles.engine.routing.PartitionTable;
import io.sluice.verticles.server.cluster.ClusterNode;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static io.sluice.gateway.process.Waits.await;
import static io.sluice.gateway.process.Waits.until;

/**
 * The dashboard's Cluster view in a real headless Chromium, against a real cluster of two nodes
 * (two gateways in this process, each its own Hazelcast member on loopback): every member with its
 * state, partitions and keys, as the page of either node shows it, kept live.
 */
class ClusterDashboardBrowserTest {

  private static final Duration PATIENCE = Duration.ofSeconds(30);
  private static final List<Gateway> NODES = new ArrayList<>();
  private static Vertx clients;
  private static WebDriver browser;
  private static WebDriverWait wait;

  @BeforeAll
  static void start() throws Exception {
    browser = HeadlessChromium.start();
    wait = new WebDriverWait(browser, PATIENCE);
    int firstClusterPort = Ports.free();
    NODES.add(node(firstClusterPort, List.of()));
    NODES.add(node(Ports.free(), List.of("--cluster-members", "127.0.0.1:" + firstClusterPort)));
    wait.until(driver -> NODES.stream().allMatch(node -> clusterNode(node).table().members().size() == 2
        && clusterNode(node).ready()));
    clients = Vertx.vertx();
  }

  private static Gateway node(int clusterPort, List<String> join) throws Exception {
    List<String> args = new ArrayList<>(List.of("--cluster", "--cluster-host", "127.0.0.1",
        "--cluster-port", String.valueOf(clusterPort), "--tcp-port", "0", "--http-port", "0", "--grpc-port", "0",
        "--udp-port", "0", "--event-loops", "1"));
    args.addAll(join);
    return Gateway.start(((Invocation.Run) ConfigLoader.load(args, Map.of())).config());
  }

  private static ClusterNode clusterNode(Gateway gateway) {
    return gateway.server().cluster().orElseThrow().node();
  }

  @AfterAll
  static void stop() throws Exception {
    if (browser != null) {
      browser.quit();
    }
    if (clients != null) {
      clients.close().toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
    }
    NODES.forEach(Gateway::stop);
    NODES.clear();
  }


  private static String textOf(String css) {
    return HeadlessChromium.shownText(wait, css);
  }

  @Test
  void eachNodesPageShowsEveryMemberWithItsPartitionsAndKeysLive() throws Exception {
    Gateway first = NODES.get(0);
    Gateway second = NODES.get(1);
    String firstId = clusterNode(first).self();
    String secondId = clusterNode(second).self();
    PartitionTable table = clusterNode(first).table();

    browser.get("http://127.0.0.1:" + second.server().httpPort() + "/#/cluster");
    wait.until(driver -> driver.findElement(By.id("nav-cluster")).isDisplayed());
    assertThat(textOf("#cluster-summary")).startsWith("2 members · 271 partitions · 1 backup");
    for (String id : List.of(firstId, secondId)) {
      String row = "#cluster-members tr[data-member='" + id + "']";
      String state = wait.ignoring(StaleElementReferenceException.class)
          .until(driver -> driver.findElement(By.cssSelector(row)).getAttribute("data-state"));
      assertThat(state).isEqualTo("UP");
      List<String> cells = wait.ignoring(StaleElementReferenceException.class).until(driver -> driver
          .findElements(By.cssSelector(row + " td")).stream().map(cell -> cell.getText().trim()).toList());
      assertThat(cells.get(3)).isEqualTo(String.valueOf(table.owned(id)));
      assertThat(cells.get(4)).isEqualTo(String.valueOf(table.backedUp(id)));
    }
    assertThat(textOf("#cluster-members tr[data-member='" + secondId + "']")).contains("this node");

    // Keys written through one node are counted on the node that owns each: the view follows.
    ThrottrClient throttr = await(ThrottrClient.connect(clients,
        new ThrottrClientOptions().setPort(first.server().tcpPort())));
    int keys = 40;
    for (int i = 0; i < keys; i++) {
      assertThat(await(throttr.insert("cluster-view:" + i, 5, TtlUnit.MINUTES, 10))).isTrue();
    }
    wait.until(driver -> keysShown(firstId) + keysShown(secondId) == keys);
    assertThat(keysShown(firstId)).isPositive();
    assertThat(keysShown(secondId)).isPositive();
    HeadlessChromium.screenshot(browser, "cluster");
    await(throttr.close());
  }

  /** The Keys cell of a member's row, as a number (-1 while it shows none). */
  private static long keysShown(String member) {
    String text = textOf("#cluster-members tr[data-member='" + member + "'] td:nth-child(6)").replaceAll("\\s", "");
    return text.matches("[0-9]+") ? Long.parseLong(text) : -1;
  }

}
