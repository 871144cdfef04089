package io.sluice.gateway.dashboard;

import io.sluice.gateway.Gateway;
import io.sluice.protocol.binary.client.ThrottrClient;
import io.sluice.protocol.binary.client.ThrottrClientOptions;
import io.sluice.protocol.binary.codec.TtlUnit;
import io.sluice.protocol.binary.codec.response.Response;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.TestMethodOrder;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.io.File;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static io.sluice.gateway.process.Waits.await;
import static io.sluice.gateway.process.Waits.until;

/**
 * The dashboard in a real headless Chromium (Debian's chromium and chromium-driver, installed by
 * deploy/install-build-tools.sh) against a real Sluice, with a real Throttr client on TCP beside it.
 * Each view's screenshot is saved to target/screenshots/. Skipped where Chromium is not installed.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DashboardBrowserTest {

  private static final Duration PATIENCE = Duration.ofSeconds(20);
  /** How every time is shown: date, time and zone. */
  private static final String DATE_TIME_ZONE = "[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2} \\S+";

  @RegisterExtension
  static final ChromiumAndSluice SESSION = new ChromiumAndSluice();
  private static Gateway gateway;
  private static Vertx clientVertx;
  private static ThrottrClient throttr;
  private static WebDriver browser;
  private static WebDriverWait wait;
  private static String base;

  @BeforeAll
  static void start() throws Exception {
    browser = SESSION.browser();
    // One check policy for the Limits view: 5 per 5 minutes per key. aKeyPageDecodesRateLimitState reads
    // alice's window a test later: it must still be open then, however slowly a loaded machine drives
    // the browser through theLimitsViewShowsWhoIsLimited (a minute's window could close in between).
    Path config = Files.createTempFile("sluice-browser", ".yaml");
    Files.writeString(config, String.join("\n", "policies:", "  per-key:", "    strategy: fixed_window", "    limit: 5",
        "    window: 5m", "    key: param", ""));
    Path rules = Path.of(System.getProperty("basedir", "."), "..", "deploy", "rules", "musicbrainz.yaml");
    gateway = SESSION.startSluice("--config", config.toString(), "--rules", rules.toString(), "--max-keys", "100000");
    base = SESSION.base();
    clientVertx = Vertx.vertx();

    wait = new WebDriverWait(browser, PATIENCE);
  }

  @AfterAll
  static void stop() throws Exception {
    if (throttr != null) {
      await(throttr.close());
    }
    if (clientVertx != null) {
      await(clientVertx.close());
    }
  }


  private static void open(String route) {
    browser.get(base + route);
  }


  private static String textOf(String css) {
    return HeadlessChromium.shownText(wait, css);
  }

  /** Clicks the element at {@code css}, looking it up again if a re-render replaced it. */
  private static void click(String css) {
    wait.ignoring(StaleElementReferenceException.class).until(driver -> {
      driver.findElement(By.cssSelector(css)).click();
      return true;
    });
  }

  private static void waitForText(String css, String expected) {
    wait.until(ExpectedConditions.textToBe(By.cssSelector(css), expected));
  }

  private static void screenshot(String name) throws Exception {
    HeadlessChromium.screenshot(browser, name);
  }

  @Test
  @Order(1)
  void theOverviewCountsAThrottrClientThatConnects() throws Exception {
    open("#/overview");
    wait.until(driver -> textOf("#overview-connections").trim().matches("[0-9]+"));
    int before = Integer.parseInt(textOf("#overview-connections").trim());
    throttr = await(ThrottrClient.connect(clientVertx,
        new ThrottrClientOptions().setPort(gateway.server().tcpPort())));
    waitForText("#overview-connections", Integer.toString(before + 1));
    assertThat(textOf("#overview-version")).contains(gateway.server().instance().version());
    screenshot("overview");
  }

  @Test
  @Order(2)
  void theKeysTableShowsAKeyInsertedOverTcp() throws Exception {
    assertThat(await(throttr.insert("inserted-over-tcp", 5, TtlUnit.SECONDS, 600))).isTrue();
    open("#/keys");
    String row = "#keys-table tr[data-key='inserted-over-tcp']";
    assertThat(textOf(row + " .key")).isEqualTo("inserted-over-tcp");
    assertThat(textOf(row)).contains("counter");
    screenshot("keys");
  }

  @Test
  @Order(3)
  void aCounterCreatedInTheBrowserIsReadableOverTcp() throws Exception {
    open("#/keys");
    WebElement form = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("key-create")));
    form.findElement(By.name("key")).sendKeys("made-in-browser");
    new Select(form.findElement(By.name("type"))).selectByValue("counter");
    WebElement quota = form.findElement(By.name("quota"));
    quota.clear();
    quota.sendKeys("42");
    WebElement ttl = form.findElement(By.name("ttl"));
    ttl.clear();
    ttl.sendKeys("300");
    new Select(form.findElement(By.name("ttlUnit"))).selectByValue("seconds");
    form.findElement(By.cssSelector("button[type=submit], input[type=submit]")).click();
    wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("key-create-result"), "created"));

    Response.QueryResult query = await(throttr.query("made-in-browser"));
    assertThat(query.quota()).isEqualTo(42);
    assertThat(query.ttlUnit()).isEqualTo(TtlUnit.SECONDS);
    // In seconds, near 300: not in minutes nor milliseconds; the lower bound leaves a loaded machine its time.
    assertThat(query.ttl()).isBetween(240L, 300L);
    wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("#keys-table tr[data-key='made-in-browser']")));
  }

  @Test
  @Order(4)
  void aMessagePublishedOverTcpAppearsInTheChannelConsole() throws Exception {
    open("#/channels");
    waitForText("#console-status", "connected");
    browser.findElement(By.id("console-channel")).sendKeys("news");
    browser.findElement(By.id("console-subscribe")).click();
    // The browser's WebSocket connection is a subscriber of "news" once Sluice lists one.
    wait.until(driver -> {
      try {
        return !await(throttr.channel("news")).isEmpty();
      } catch (Exception notYet) {
        return false;
      }
    });
    assertThat(await(throttr.publish("news", "hello from tcp"))).isTrue();
    wait.until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector("#console-log li.message"),
        "hello from tcp"));
    assertThat(textOf("#console-log li.message")).contains("news");
    wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("#channels-table tr[data-channel='news']")));
    screenshot("channels");
  }

  @Test
  @Order(5)
  void theConnectionsTableListsTheTcpClient() throws Exception {
    String id = HexFormat.of().formatHex(await(throttr.whoami()));
    open("#/connections");
    String row = "#connections-table tr[data-connection='" + id + "']";
    assertThat(textOf(row)).containsIgnoringCase("tcp");
    screenshot("connections");
    click(row);
    wait.until(ExpectedConditions.textToBePresentInElementLocated(By.tagName("body"), "INSERT"));
    screenshot("connection-detail");
  }

  @Test
  @Order(6)
  void aKeyDetailShowsTheCounter() throws Exception {
    open("#/keys/made-in-browser");
    waitForText("#key-detail-quota", "42");
    screenshot("key-detail");
  }

  @Test
  @Order(7)
  void theOverviewMovesWithTraffic() throws Exception {
    open("#/overview");
    List<Future<Boolean>> inserts = new java.util.ArrayList<>();
    for (int i = 0; i < 500; i++) {
      inserts.add(throttr.insert("load:" + i, 10, TtlUnit.MINUTES, 10));
    }
    await(Future.all(inserts));
    waitForText("#overview-keys", "502");
    // The memory bound's card: the keys against --max-keys (the record memory against --max-memory before it).
    wait.until(driver -> textOf("#overview-bound-detail").contains("502 of 100\u202F000 keys max"));
    assertThat(textOf("#overview-bound-evictions")).isEqualTo("when full: volatile-ttl · 0 evicted · 0 refused");
    screenshot("overview-live");
  }

  /** POST /v1/check of the per-key policy, as an API gateway would. */
  private static int check(String key) throws Exception {
    return Traffic.check(base, "per-key", key);
  }

  /**
   * The Limits view: the policy with its parameters, what it decided, the most-denied key and the
   * key near its limit, the UDP verdicts.
   */
  @Test
  @Order(9)
  void theLimitsViewShowsWhoIsLimited() throws Exception {
    for (int i = 0; i < 4; i++) {
      assertThat(check("alice")).isEqualTo(200);
    }
    for (int i = 0; i < 5; i++) {
      assertThat(check("bob")).isEqualTo(200);
    }
    assertThat(check("bob")).isEqualTo(429);
    Traffic.overLimit(gateway.server().udpPort(), "ws ip=1.2.3.4");
    open("#/limits");
    String policy = "#limits-policy-per-key";
    waitForText(policy + " .limit-parameters", "5 per 5m");
    waitForText(policy + " .limits-allowed", "9");
    waitForText(policy + " .limits-denied", "1");
    assertThat(textOf("#limits-denied-per-key tr[data-key='bob']")).contains("bob").endsWith("1");
    assertThat(textOf("#limits-near-per-key tr[data-key='alice']")).contains("4 of 5 (80 %)");
    wait.until(driver -> Integer.parseInt(textOf("#limits-udp-under").trim()) + Integer.parseInt(textOf("#limits-udp-over").trim()) == 1);
    wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("#chart-policy-per-key path.line")));
    screenshot("limits");
    click("#limits-denied-per-key tr[data-key='bob'] a");
    waitForText("#key-decoded-verdict", "would be denied");
  }

  /** The key page decodes an rl: key's state: per limit, remaining, used and reset; a udp: key's rate. */
  @Test
  @Order(10)
  void aKeyPageDecodesRateLimitState() throws Exception {
    open("#/keys/" + URLEncoder.encode("rl:per-key:alice", StandardCharsets.UTF_8));
    waitForText("#key-decoded .decoded-remaining", "1 of 5");
    assertThat(textOf("#key-decoded .decoded-used")).isEqualTo("4");
    assertThat(textOf("#key-decoded .decoded-reset")).matches("in [0-9]+ s · " + DATE_TIME_ZONE);
    assertThat(textOf("#key-detail")).contains("4 total"); // four checks, four writes
    screenshot("key-decoded");
    open("#/keys/" + URLEncoder.encode("udp:ws ip=1.2.3.4", StandardCharsets.UTF_8).replace("+", "%20"));
    wait.until(ExpectedConditions.textMatches(By.id("key-decoded-last-seen"), Pattern.compile(DATE_TIME_ZONE)));
    assertThat(textOf("#key-decoded-rate")).endsWith("per period");
    // The state's bytes are binary (two doubles): shown as hex, not as mojibake.
    assertThat(textOf("#key-detail-value")).matches("([0-9a-f]{2} )+[0-9a-f]{2}");
  }

  /** At 390 px wide (a phone) no view scrolls sideways: wide tables scroll inside their card. */
  @Test
  @Order(11)
  void everyViewFitsA390PixelScreen() throws Exception {
    browser.manage().window().setSize(new Dimension(390, 844));
    try {
      for (String route : List.of("#/overview", "#/limits", "#/keys", "#/connections", "#/channels", "#/config",
          "#/keys/" + URLEncoder.encode("rl:per-key:alice", StandardCharsets.UTF_8))) {
        open(route);
        // A new hash is rendered by the page's next task: until then the view of the route before (at
        // first test 10's key page) still shows its cards, and would be measured in this one's name.
        String title = "Sluice \u00b7 " + route.substring(2).split("/")[0];
        wait.until(driver -> title.equals(driver.getTitle())
            && driver.findElements(By.cssSelector("#view .card, #view .notice")).size() > 0);
        JavascriptExecutor page = (JavascriptExecutor) browser;
        Object overflow = page.executeScript(
            "return document.documentElement.scrollWidth - document.documentElement.clientWidth;");
        // What sticks out, to say where a failure comes from.
        Object wide = page.executeScript("const w = document.documentElement.clientWidth;"
            + "return [...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > w + 0.5)"
            + ".slice(0, 5).map(e => e.tagName + '.' + e.className + '#' + e.id).join(', ');");
        assertThat(((Number) overflow).longValue()).as("sideways scroll on " + route + ": " + wide).isLessThanOrEqualTo(0);
        screenshot("390px-" + route.replaceAll("[^a-z0-9]+", "-"));
      }
      open("#/overview");
      wait.until(ExpectedConditions.textMatches(By.cssSelector("#view .view-header .muted"),
          Pattern.compile("started " + DATE_TIME_ZONE)));
    } finally {
      browser.manage().window().setSize(new Dimension(1400, 900));
    }
  }

  /** The keys table pages by cursor (each page's {@code next}); Prev returns to the pages before. */
  @Test
  @Order(8)
  void theKeysTablePagesForwardAndBack() throws Exception {
    List<String> keys = new java.util.ArrayList<>(List.of("inserted-over-tcp", "made-in-browser"));
    for (int i = 0; i < 500; i++) {
      keys.add("load:" + i);
    }
    java.util.Collections.sort(keys);
    String firstRow = "#keys-table tbody tr:first-child .key";
    open("#/keys");
    waitForText(firstRow, keys.get(0));
    wait.until(ExpectedConditions.elementToBeClickable(By.id("keys-next")));

    click("#keys-next");
    waitForText(firstRow, keys.get(50));
    assertThat(textOf("#keys-table tbody tr:last-child .key")).isEqualTo(keys.get(99));
    assertThat(textOf(".pager-range")).isEqualTo("51–100");
    click("#keys-next");
    waitForText(firstRow, keys.get(100));
    screenshot("keys-page-3");

    click("#keys-prev");
    waitForText(firstRow, keys.get(50));
    click("#keys-prev");
    waitForText(firstRow, keys.get(0));
    wait.until(driver -> !driver.findElement(By.id("keys-prev")).isEnabled());
  }

  @Test
  @Order(12)
  void aSingleNodeListsNoClusterViewAndItsPageSaysSingleNode() throws Exception {
    open("#/cluster");
    waitForText("#cluster-summary", "single node");
    assertThat(textOf(".view")).contains("Single node");
    assertThat(browser.findElement(By.id("nav-cluster")).isDisplayed()).isFalse();
    screenshot("cluster-single-node");
  }
}
