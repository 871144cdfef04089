package io.sluice.gateway.dashboard;

import io.sluice.verticles.server.kit.Jwts;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A user's token in a real headless Chromium page against a real Sluice started from its options
 * ({@code --ws-jwt-secret-file}): the browser's own WebSocket, with the token as {@code ?token=}.
 * Skipped where Chromium is not installed.
 */
class WebSocketTokenBrowserTest {

  /** Opens the bridge with a token, sends the commands, and answers the first {@code count} events (or why not). */
  private static final String SCRIPT = String.join("\n",
      "const [token, commands, count, done] = arguments;",
      "const ws = new WebSocket(`ws://${location.host}/ws?token=${token}`);",
      "const seen = [];",
      "ws.onopen = () => commands.forEach((command) => ws.send(command));",
      "ws.onmessage = (e) => { seen.push(JSON.parse(e.data)); if (seen.length === count) { ws.close(); done(JSON.stringify(seen)); } };",
      "ws.onclose = (e) => done(JSON.stringify({closed: e.code, seen}));");

  @RegisterExtension
  static final ChromiumAndSluice SESSION = new ChromiumAndSluice();
  private static WebDriver browser;

  @BeforeAll
  static void start() throws Exception {
    browser = SESSION.browser();
    browser.manage().timeouts().scriptTimeout(Duration.ofSeconds(20));
    Path secret = Files.writeString(Files.createTempFile("sluice-ws", ".secret"), Jwts.SECRET);
    SESSION.startSluice("--ws-jwt-secret-file", secret.toString());
    browser.get(SESSION.base());
  }

  private static String run(String token, int count, JsonObject... commands) {
    List<String> texts = java.util.Arrays.stream(commands).map(JsonObject::encode).toList();
    return (String) ((JavascriptExecutor) browser).executeAsyncScript(SCRIPT, token, texts, count);
  }

  private static String token(JsonObject claims) {
    return Jwts.hs256(Jwts.SECRET, claims.put("exp", System.currentTimeMillis() / 1000 + 3600));
  }

  @Test
  void aPageWithAChatTokenSubscribesIsRefusedAdminAndSeesItsOwnMessage() {
    String token = token(Jwts.claims("alice", Jwts.grants(List.of("chat.*"), List.of("chat.a"))));
    JsonArray events = new JsonArray(run(token, 4,
        new JsonObject().put("op", "subscribe").put("channel", "chat.a").put("id", 1),
        new JsonObject().put("op", "subscribe").put("channel", "admin").put("id", 2),
        new JsonObject().put("op", "publish").put("channel", "chat.a").put("data", "hi").put("id", 3)));
    assertThat(events).containsExactly(
        new JsonObject().put("event", "ack").put("op", "subscribe").put("status", 1).put("channel", "chat.a").put("id", 1),
        new JsonObject().put("event", "error").put("op", "subscribe").put("channel", "admin").put("reason", "forbidden")
            .put("id", 2),
        new JsonObject().put("event", "message").put("channel", "chat.a").put("data", "hi"),
        new JsonObject().put("event", "ack").put("op", "publish").put("status", 1).put("channel", "chat.a").put("id", 3));
  }

  @Test
  void aPageWithAForgedTokenIsNotLetIn() {
    String forged = Jwts.hs256(Jwts.SECRET.toUpperCase(java.util.Locale.ROOT),
        Jwts.claims("mallory", Jwts.grants(List.of("*"), List.of("*"))).put("exp", System.currentTimeMillis() / 1000 + 60));
    JsonObject outcome = new JsonObject(run(forged, 1, new JsonObject().put("op", "subscribe").put("channel", "chat.a")));
    assertThat(outcome.getInteger("closed")).as("the upgrade failed (1006 in a browser)").isEqualTo(1006);
    assertThat(outcome.getJsonArray("seen")).isEmpty();
  }
}
