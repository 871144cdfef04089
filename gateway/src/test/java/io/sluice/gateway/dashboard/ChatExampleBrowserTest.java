package io.sluice.gateway.dashboard;

import io.sluice.gateway.Gateway;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WindowType;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The chat example of deploy/examples/chat in a real headless Chromium, served from its own origin
 * against a real Sluice started from its options, with tokens minted by the example's own
 * {@code mint-token.py}: two users see each other in presence, a message of one reaches the other,
 * and a page that lost its connection gets, once it is back, what was said meanwhile (the server keeps
 * channel history, as the example's README runs it). Skipped where Chromium or python3 is not installed.
 */
class ChatExampleBrowserTest {

  private static final Path EXAMPLE = Path.of("..", "deploy", "examples", "chat");
  private static final Duration WITHIN = Duration.ofSeconds(20);

  @RegisterExtension
  static final ChromiumAndSluice SESSION = new ChromiumAndSluice();
  private static Vertx vertx;
  private static HttpServer page;
  private static Gateway gateway;
  private static WebDriver browser;
  private static Path secret;

  @BeforeAll
  static void start() throws Exception {
    browser = SESSION.browser();
    assumeTrue(Files.isExecutable(Path.of("/usr/bin/python3")), "python3 mints the example's tokens");
    vertx = Vertx.vertx();
    String html = Files.readString(EXAMPLE.resolve("index.html"), StandardCharsets.UTF_8);
    page = vertx.createHttpServer().requestHandler(request -> request.response()
        .putHeader("Content-Type", "text/html; charset=utf-8").end(html)).listen(0, "127.0.0.1")
        .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    secret = Files.writeString(Files.createTempFile("sluice-chat", ".secret"),
        "an-example-secret-of-more-than-32-bytes\n");
    gateway = SESSION.startSluice("--ws-jwt-secret-file", secret.toString(), "--channel-history", "100",
        "--allowed-origins", pageOrigin());
  }

  @AfterAll
  static void stop() {
    if (vertx != null) {
      vertx.close();
    }
  }

  private static String pageOrigin() {
    return "http://127.0.0.1:" + page.actualPort();
  }

  /** The command docs tell users to run: {@code python3 mint-token.py SECRET_FILE USER}. */
  private static String mint(String user) throws IOException, InterruptedException {
    Process mint = new ProcessBuilder("python3", EXAMPLE.resolve("mint-token.py").toString(), secret.toString(), user)
        .redirectErrorStream(true).start();
    String token = new String(mint.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).strip();
    assertThat(mint.waitFor()).as(token).isZero();
    return token;
  }

  private static String openChat(String user) throws IOException, InterruptedException {
    return openChat(user, "chat.room1");
  }

  private static String openChat(String user, String channel) throws IOException, InterruptedException {
    browser.get(pageOrigin() + "/?server=ws://127.0.0.1:" + gateway.server().httpPort() + "/ws&channel=" + channel
        + "&token=" + mint(user));
    return browser.getWindowHandle();
  }

  private static String openChatInNewTab(String user, String channel) throws IOException, InterruptedException {
    browser.switchTo().newWindow(WindowType.TAB);
    return openChat(user, channel);
  }

  private static Object inPage(String window, String script) {
    browser.switchTo().window(window);
    return ((JavascriptExecutor) browser).executeScript(script);
  }

  private static void say(String window, String text) {
    browser.switchTo().window(window);
    browser.findElement(By.id("text")).sendKeys(text);
    browser.findElement(By.cssSelector("#send button")).click();
  }

  /** The texts of the messages {@code window} shows, in order, without notices. */
  private static List<String> said(String window) {
    Object texts = inPage(window, "return [...document.querySelectorAll('#messages li:not(.notice)')]"
        + ".map(item => item.lastChild.textContent)");
    return ((List<?>) texts).stream().map(String::valueOf).toList();
  }

  /** Waits until {@code window} shows {@code last}, then holds it to show exactly {@code expected}. */
  private static void awaitSaidExactly(String window, List<String> expected) {
    String last = expected.get(expected.size() - 1);
    new WebDriverWait(browser, WITHIN).withMessage(() -> window + " shows " + last)
        .until(driver -> said(window).contains(last));
    assertThat(said(window)).containsExactlyElementsOf(expected);
  }

  private static void awaitGone(String window, String user) {
    browser.switchTo().window(window);
    new WebDriverWait(browser, WITHIN).withMessage(() -> user + " leaves the members of " + window)
        .until(driver -> driver.findElements(By.cssSelector("#members li[data-user='" + user + "']")).isEmpty());
  }

  /**
   * Waits until, in {@code window}, each of {@code expected} is in the text of one of the elements. The
   * texts are read in one script: the page rebuilds its member list on every presence event, so an
   * element found by one WebDriver call may be gone by the next.
   */
  private static void awaitText(String window, String selector, List<String> expected) {
    browser.switchTo().window(window);
    new WebDriverWait(browser, WITHIN).withMessage(() -> selector + " shows " + expected).until(driver -> {
      List<String> shown = textsOf(selector);
      return expected.stream().allMatch(text -> shown.stream().anyMatch(line -> line.contains(text)));
    });
  }

  private static List<String> textsOf(String selector) {
    Object texts = ((JavascriptExecutor) browser).executeScript(
        "return [...document.querySelectorAll(arguments[0])].map(item => item.innerText)", selector);
    return ((List<?>) texts).stream().map(String::valueOf).toList();
  }

  @Test
  void twoUsersSeeEachOtherAndTheirMessages() throws Exception {
    String alice = openChat("alice");
    awaitText(alice, "#members li", List.of("alice"));
    browser.switchTo().newWindow(WindowType.TAB);
    String bob = openChat("bob");

    awaitText(bob, "#members li", List.of("alice", "bob"));
    awaitText(alice, "#members li", List.of("alice", "bob"));

    browser.findElement(By.id("text")).sendKeys("hello bob");
    browser.findElement(By.cssSelector("#send button")).click();
    awaitText(bob, "#messages li", List.of("hello bob"));
    assertThat(HeadlessChromium.consoleErrors(browser)).isEmpty();
  }

  @Test
  void aPageBackFromALostConnectionShowsWhatWasSaidMeanwhileOnceAndInOrder() throws Exception {
    String alice = openChatInNewTab("alice", "chat.recovery");
    String bob = openChatInNewTab("bob", "chat.recovery");
    awaitText(bob, "#members li", List.of("alice", "bob"));
    say(bob, "before");
    awaitSaidExactly(alice, List.of("before"));

    // The reconnect is held until bob has said everything: alice misses all of it, deterministically.
    inPage(alice, "chatTest.hold = new Promise(release => chatTest.release = release); chatTest.drop();");
    awaitGone(bob, "alice");
    List<String> meanwhile = List.of("while away 1", "while away 2", "while away 3");
    meanwhile.forEach(text -> say(bob, text));
    awaitText(bob, "#messages li", meanwhile);
    inPage(alice, "chatTest.release();");

    awaitText(bob, "#members li", List.of("alice", "bob"));
    say(bob, "after");
    // "after" is live and leaves the channel's owner after the recovered ones: a duplicate would show before it.
    awaitSaidExactly(alice, List.of("before", "while away 1", "while away 2", "while away 3", "after"));
    assertThat(HeadlessChromium.consoleErrors(browser)).isEmpty();
  }

  @Test
  void aPageTellsItsUserWhenMissedMessagesCouldNotBeRecovered() throws Exception {
    String carol = openChatInNewTab("carol", "chat.lost");
    awaitText(carol, "#members li", List.of("carol"));
    say(carol, "hello");
    awaitSaidExactly(carol, List.of("hello"));

    // As if the server had lost the channel's history while carol was away: her epoch is not the channel's.
    inPage(carol, "last = {offset: last.offset, epoch: '0000000000000000'}; chatTest.drop();");
    awaitText(carol, "#messages li.notice", List.of("earlier messages may be missing", "epoch changed"));
    assertThat(HeadlessChromium.consoleErrors(browser)).isEmpty();
  }
}
