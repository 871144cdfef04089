package io.sluice.gateway.dashboard;

import io.sluice.gateway.Gateway;
import io.sluice.gateway.config.ConfigLoader;
import io.sluice.gateway.config.Invocation;
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
import org.junit.jupiter.api.TestMethodOrder;
import org.openqa.selenium.By;
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
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The dashboard in a real headless Chromium (Debian's chromium and chromium-driver, installed by
 * deploy/install-build-tools.sh) against a real Sluice, with a real Throttr client on TCP beside it.
 * Each view's screenshot is saved to target/screenshots/. Skipped where Chromium is not installed.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DashboardBrowserTest {

  private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
  private static final Path SCREENSHOTS = Path.of("target", "screenshots");
  private static final Duration PATIENCE = Duration.ofSeconds(20);

  private static Gateway gateway;
  private static Vertx clientVertx;
  private static ThrottrClient throttr;
  private static WebDriver browser;
  private static WebDriverWait wait;
  private static String base;

  @BeforeAll
  static void start() throws Exception {
    assumeTrue(Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
        "Chromium and chromedriver are not installed (deploy/install-build-tools.sh installs them)");
    Invocation invocation = ConfigLoader.load(List.of("--tcp-port", "0", "--http-port", "0", "--grpc-port", "0", "--udp-port", "0"), Map.of());
    gateway = Gateway.start(((Invocation.Run) invocation).config());
    base = "http://127.0.0.1:" + gateway.server().httpPort() + "/";
    clientVertx = Vertx.vertx();

    ChromeDriverService service = new ChromeDriverService.Builder()
        .usingDriverExecutable(CHROMEDRIVER.toFile())
        .usingAnyFreePort()
        .build();
    ChromeOptions options = new ChromeOptions()
        .setBinary(CHROMIUM.toFile())
        // The machine has no network but loopback: background services would only fail and retry.
        .addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--disable-dev-shm-usage", "--window-size=1400,900",
            "--user-data-dir=" + Files.createTempDirectory("sluice-chromium"));
    browser = new ChromeDriver(service, options);
    wait = new WebDriverWait(browser, PATIENCE);
    Files.createDirectories(SCREENSHOTS);
  }

  @AfterAll
  static void stop() throws Exception {
    if (browser != null) {
      browser.quit();
    }
    if (throttr != null) {
      await(throttr.close());
    }
    if (clientVertx != null) {
      await(clientVertx.close());
    }
    if (gateway != null) {
      gateway.stop();
    }
  }

  private static <T> T await(Future<T> future) throws Exception {
    return future.toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
  }

  private static void open(String route) {
    browser.get(base + route);
  }


  /**
   * The text of the element at {@code css} once it is there. Live tables re-render when a pushed
   * update changes what they list, so an element found a moment ago may be gone: look it up again.
   */
  private static String textOf(String css) {
    return wait.ignoring(StaleElementReferenceException.class)
        .until(driver -> driver.findElement(By.cssSelector(css)).getText());
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
    File shot = ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE);
    Files.copy(shot.toPath(), SCREENSHOTS.resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
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
    assertThat(query.ttl()).isBetween(290L, 300L);
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
    screenshot("overview-live");
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
}
