package io.sluice.gateway.cli;

import io.sluice.gateway.Gateway;
import io.sluice.gateway.config.ConfigLoader;
import io.sluice.gateway.config.Invocation;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Every `sluice cli` command against a real server over TCP: output, --json, exit status. */
class CliTest {

  private static Gateway gateway;

  @BeforeAll
  static void startServer() throws Exception {
    Invocation invocation = ConfigLoader.load(List.of("--tcp-port", "0", "--http-port", "0", "--grpc-port", "0", "--udp-port", "0"), Map.of());
    gateway = Gateway.start(((Invocation.Run) invocation).config());
  }

  @AfterAll
  static void stopServer() {
    gateway.stop();
  }

  /** One run of the client: exit status, stdout and stderr. */
  record Run(int status, String out, String err) {
  }

  private static Run cli(String... args) {
    return cli(new ByteArrayInputStream(new byte[0]), args);
  }

  private static Run cli(InputStream in, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    List<String> all = new ArrayList<>(List.of("--port", Integer.toString(gateway.server().tcpPort())));
    all.addAll(List.of(args));
    int status = Cli.run(all, in, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void countersInsertQueryUpdatePurge() {
    assertThat(cli("insert", "c1", "10", "60")).isEqualTo(new Run(0, "OK\n", ""));
    assertThat(cli("insert", "c1", "10", "60")).isEqualTo(new Run(1, "(00) not inserted: the key exists\n", ""));
    Run query = cli("query", "c1");
    assertThat(query.status()).isZero();
    assertThat(query.out()).matches("quota 10, ttl (59|60) s\n");
    assertThat(cli("update", "c1", "quota", "decrease", "3").status()).isZero();
    JsonObject json = new JsonObject(cli("--json", "query", "c1").out());
    assertThat(json.getLong("quota")).isEqualTo(7);
    assertThat(json.getString("ttl_unit")).isEqualTo("seconds");
    assertThat(json.getBoolean("ok")).isTrue();
    assertThat(cli("update", "c1", "quota", "decrease", "99").status()).as("below zero is refused").isEqualTo(1);
    assertThat(cli("insert", "c2", "1", "500ms").status()).isZero();
    assertThat(cli("query", "c2").out()).matches("quota 1, ttl \\d+ ms\n");
    assertThat(cli("purge", "c1")).isEqualTo(new Run(0, "OK\n", ""));
    assertThat(cli("purge", "c1")).isEqualTo(new Run(1, "(00) no such key\n", ""));
    Run missing = cli("--json", "query", "c1");
    assertThat(missing.status()).isEqualTo(1);
    assertThat(new JsonObject(missing.out()).getString("status")).isEqualTo("00");
  }

  @Test
  void buffersSetAndGet() {
    assertThat(cli("set", "b1", "hello world", "1h").status()).isZero();
    assertThat(cli("get", "b1").out()).matches("hello world  \\(ttl \\d+ h\\)\n");
    JsonObject json = new JsonObject(cli("--json", "get", "b1").out());
    assertThat(json.getString("value")).isEqualTo("hello world");
    assertThat(json.getString("value_base64")).isEqualTo("aGVsbG8gd29ybGQ=");
    assertThat(cli("get", "nothing-here").status()).isEqualTo(1);
  }

  @Test
  void instanceCommandsListStatsInfoConnections() {
    cli("insert", "listed", "5", "60");
    assertThat(cli("list").out()).contains("listed  counter").containsPattern("\\(\\d+ keys?\\)");
    assertThat(new JsonObject(cli("--json", "list").out()).getJsonArray("keys").toString()).contains("\"key\":\"listed\"");
    assertThat(cli("stats").out()).containsPattern("listed  reads \\d+/min \\d+ total, writes \\d+/min \\d+ total");
    Run info = cli("info");
    assertThat(info.status()).isZero();
    assertThat(info.out()).contains("version: ").containsPattern("keys: \\d+").containsPattern("connections: [1-9]");
    assertThat(cli("connections").out()).containsPattern("[0-9a-f]{32}  127\\.0\\.0\\.1:\\d+  read \\d+ B").contains("(1 connection)");
  }

  @Test
  void subscribeReceivesWhatPublishSends() throws Exception {
    assertThat(cli("publish", "news", "nobody listens")).isEqualTo(new Run(1, "(00) nobody is subscribed to news\n", ""));
    ByteArrayOutputStream subscriberOut = new ByteArrayOutputStream();
    CompletableFuture<Integer> subscriber = CompletableFuture.supplyAsync(() -> Cli.run(
        List.of("--port", Integer.toString(gateway.server().tcpPort()), "subscribe", "news", "1"), new ByteArrayInputStream(new byte[0]),
        new PrintStream(subscriberOut, true, StandardCharsets.UTF_8), System.err));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!subscriberOut.toString(StandardCharsets.UTF_8).contains("subscribed to news") && System.nanoTime() < deadline) {
      Thread.onSpinWait();
    }
    assertThat(subscriberOut.toString(StandardCharsets.UTF_8)).contains("subscribed to news");
    assertThat(cli("publish", "news", "hello there")).isEqualTo(new Run(0, "OK\n", ""));
    assertThat(subscriber.get(30, TimeUnit.SECONDS)).isZero();
    assertThat(subscriberOut.toString(StandardCharsets.UTF_8)).endsWith("news: hello there\n");
  }

  @Test
  void thePromptRunsOneCommandALine() {
    Run run = cli(new ByteArrayInputStream("insert 'spaced key' 3 60\n\nquery \"spaced key\"\nquit\nquery never-run\n"
        .getBytes(StandardCharsets.UTF_8)));
    assertThat(run.status()).isZero();
    assertThat(run.out()).matches("OK\nquota 3, ttl (59|60) s\n");
  }

  @Test
  void mistakesAreUsageErrors() {
    assertThat(cli("insert", "k", "ten", "60")).isEqualTo(new Run(2, "", "sluice cli: insert: QUOTA 'ten': expected a whole number, 0 or more\n"));
    assertThat(cli("insert", "k", "1", "5 days").err()).contains("TTL '5 days'");
    assertThat(cli("query").err()).isEqualTo("sluice cli: query: usage: query KEY\n");
    assertThat(cli("frobnicate").status()).isEqualTo(2);
    assertThat(Cli.run(List.of("--port", "1", "info"), new ByteArrayInputStream(new byte[0]), new PrintStream(new ByteArrayOutputStream()),
        new PrintStream(new ByteArrayOutputStream()))).isEqualTo(2);
    assertThat(Cli.help()).contains("--value-size SIZE").contains("insert KEY QUOTA TTL").contains("subscribe CHANNEL [COUNT]");
  }
}
