package io.sluice.gateway.dashboard;

import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.sluice.gateway.Gateway;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Overview shows the rate limiting it serves, in a real headless Chromium against a real
 * Sluice: HTTP checks, Envoy's ShouldRateLimit over gRPC and UDP over_limit requests flow while the
 * page is watched, until it shows requests and verdicts per second, allowed and denied, and the
 * policy and key denied most. A single node's pages log no console error. Skipped where Chromium
 * is not installed.
 */
class OverviewRateLimitingBrowserTest {

  private static final Duration PATIENCE = Duration.ofSeconds(20);

  @RegisterExtension
  static final ChromiumAndSluice SESSION = new ChromiumAndSluice();
  private static Gateway gateway;
  private static WebDriver browser;
  private static WebDriverWait wait;
  private static ManagedChannel grpc;
  private static String base;

  @BeforeAll
  static void start() throws Exception {
    browser = SESSION.browser();
    Path directory = Files.createTempDirectory("sluice-overview");
    Path config = Files.writeString(directory.resolve("policies.yaml"), String.join("\n", "policies:", "  per-key:",
        "    strategy: fixed_window", "    limit: 2", "    window: 1m", "    key: param", ""));
    Path rls = Files.createDirectories(directory.resolve("rls"));
    Files.writeString(rls.resolve("edge.yaml"), String.join("\n", "domain: edge", "descriptors:", "  - key: api_key",
        "    rate_limit: {unit: minute, requests_per_unit: 3}", ""));
    Path rules = Path.of(System.getProperty("basedir", "."), "..", "deploy", "rules", "musicbrainz.yaml");
    gateway = SESSION.startSluice("--config", config.toString(), "--rules", rules.toString(),
        "--rls-config", rls.toString());
    base = SESSION.base();
    grpc = NettyChannelBuilder.forAddress("127.0.0.1", gateway.server().grpcPort()).usePlaintext().build();
    wait = new WebDriverWait(browser, PATIENCE);
  }

  @AfterAll
  static void stop() {
    if (grpc != null) {
      grpc.shutdownNow();
    }
  }

  private static int rounds;

  /**
   * A round of traffic with both verdicts in it: a check of a new key (allowed) and of bob (2 a
   * minute: denied from the third round), an Envoy call (3 a minute: over from the fourth), a UDP
   * verdict.
   */
  private static void rateLimitedTraffic() throws Exception {
    assertThat(Traffic.check(base, "per-key", "caller-" + rounds++)).isEqualTo(200);
    assertThat(Traffic.check(base, "per-key", "bob")).isIn(200, 429);
    RateLimitResponse.Code code = Traffic.shouldRateLimit(grpc, Traffic.request("edge", "api_key", "k")).getOverallCode();
    assertThat(code).isIn(RateLimitResponse.Code.OK, RateLimitResponse.Code.OVER_LIMIT);
    Traffic.overLimit(gateway.server().udpPort(), "ws ip=1.2.3.4");
  }

  /**
   * Waits until {@code shown} holds while traffic flows, a round of it before each look: the page's
   * rates are per second of its last update, so they stay above 0 only while requests keep coming.
   */
  private static void untilWithTraffic(java.util.function.BooleanSupplier shown) {
    wait.until(driver -> {
      try {
        rateLimitedTraffic();
      } catch (Exception e) {
        throw new AssertionError(e);
      }
      return shown.getAsBoolean();
    });
  }

  private static String textOf(String css) {
    return HeadlessChromium.shownText(wait, css);
  }

  /** The number a "12.5/s" figure starts with; 0 for "—". */
  private static double rateOf(String css) {
    String text = textOf(css).replace("\u202F", "");
    return text.endsWith("/s") ? Double.parseDouble(text.substring(0, text.length() - 2)) : 0;
  }

  @Test
  void theOverviewShowsTheRateLimitingItServesAndLogsNoError() throws Exception {
    browser.get(base + "#/overview");
    untilWithTraffic(() -> rateOf("#overview-requests") > 0 && rateOf("#overview-allowed") > 0 && rateOf("#overview-denied") > 0
        && textOf("#overview-verdicts-detail").matches("HTTP checks [0-9.]+/s · Envoy calls [0-9.]+/s · UDP verdicts [0-9.]+/s"));
    assertThat(textOf("#overview-top-policy")).isEqualTo("per-key");
    assertThat(textOf("#overview-top-policy-detail")).startsWith("HTTP check policy · ");
    assertThat(textOf("#overview-top-key")).startsWith("key bob of per-key · ");
    assertThat(textOf("#overview-allowed-detail")).matches("[0-9\u202F]+ since start");
    assertThat(textOf("#overview-denied-detail")).matches("[0-9\u202F]+ since start · [0-9.]+ % of all");
    assertThat(textOf("#overview-requests-detail")).contains("since start");
    assertThat(textOf("#overview-bytes-in")).endsWith("/s");
    HeadlessChromium.screenshot(browser, "overview-rate-limiting");

    // The denying key's link opens its rate limit state.
    // The live view draws the card again every second: a link found just before that is gone when clicked.
    wait.ignoring(StaleElementReferenceException.class).until(driver -> {
      driver.findElement(By.cssSelector("#overview-top-key a")).click();
      return true;
    });
    wait.until(driver -> driver.getCurrentUrl().endsWith("#/keys/" + "rl%3Aper-key%3Abob"));

    // Envoy RLS: the domain's hits per second with its chart, and the descriptor most over its limit.
    browser.get(base + "#/rate-limits");
    // The table of descriptors over their limit is drawn from the last seconds' rates: it is looked
    // for while the traffic goes on, since once the traffic stops the row leaves with its rate (a
    // loaded full run looked for it 20 s after the last request).
    untilWithTraffic(() -> rateOf("#rls-edge-hits-now") > 0
        && !browser.findElements(By.cssSelector("#rls-top-edge tr[data-descriptor='api_key']")).isEmpty());
    assertThat(textOf("#rls-top-edge tr[data-descriptor='api_key']")).startsWith("api_key");
    assertThat(browser.findElements(By.cssSelector("#chart-rls-edge path.line"))).hasSize(2);
    HeadlessChromium.screenshot(browser, "envoy-rls");

    // Every view of a single node, the Cluster view included, without a console error.
    for (String route : List.of("#/overview", "#/limits", "#/rate-limits", "#/connections", "#/cluster")) {
      browser.get(base + route);
      wait.until(driver -> !driver.findElements(By.cssSelector("#view .card, #view .notice")).isEmpty());
    }
    wait.until(driver -> textOf("#cluster-summary").equals("single node"));
    // Every UDP request came from a new source port of one address: one row for that address.
    browser.get(base + "#/connections");
    wait.until(driver -> textOf("#udp-peers-total").equals("1"));
    assertThat(textOf("#udp-peers-table tbody tr")).startsWith("127.0.0.1");
    // The checks and the Envoy calls came from 127.0.0.1: one HTTP and one gRPC caller, with their verdicts.
    wait.until(driver -> textOf("#callers-total").equals("2"));
    assertThat(textOf("#callers-table tr[data-caller='http:127.0.0.1']")).startsWith("127.0.0.1 http ");
    assertThat(textOf("#callers-table tr[data-caller='grpc:127.0.0.1']")).startsWith("127.0.0.1 grpc ");
    HeadlessChromium.screenshot(browser, "connections-callers");
    assertThat(HeadlessChromium.consoleErrors(browser)).as("console errors on a single node").isEmpty();
    assertThat(browser.findElement(By.id("nav-cluster")).isDisplayed()).isFalse();
  }
}
