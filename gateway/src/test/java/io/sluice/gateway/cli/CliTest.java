package io.sluice.gateway.cli;

import io.sluice.gateway.cli.CliServer.Run;
import io.sluice.gateway.process.Waits;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Every Throttr command of `sluice cli` against a real server over TCP: output, --json, exit status. */
class CliTest {

  private static CliServer server;

  @BeforeAll
  static void startServer() throws Exception {
    server = new CliServer();
  }

  @AfterAll
  static void stopServer() {
    server.close();
  }

  private static Run cli(String... args) {
    return server.cli(args);
  }

  @Test
  void countersInsertQueryUpdatePurge() {
    assertThat(cli("insert", "c1", "10", "60")).isEqualTo(new Run(0, "OK\n", ""));
    assertThat(cli("insert", "c1", "10", "60")).isEqualTo(new Run(1, "(00) not inserted: the key exists\n", ""));
    assertThat(cli("query", "c1")).isEqualTo(new Run(0, "quota 10, ttl 60 s\n", ""));
    assertThat(cli("update", "c1", "quota", "decrease", "3").status()).isZero();
    JsonObject json = new JsonObject(cli("--json", "query", "c1").out());
    assertThat(json.getLong("quota")).isEqualTo(7);
    assertThat(json.getString("ttl_unit")).isEqualTo("seconds");
    assertThat(json.getBoolean("ok")).isTrue();
    assertThat(cli("update", "c1", "quota", "decrease", "99").status()).as("below zero is refused").isEqualTo(1);
    assertThat(cli("insert", "c2", "1", "500ms").status()).isZero();
    assertThat(cli("query", "c2").out()).isEqualTo("quota 1, ttl 500 ms\n");
    assertThat(cli("purge", "c1")).isEqualTo(new Run(0, "OK\n", ""));
    assertThat(cli("purge", "c1")).isEqualTo(new Run(1, "(00) no such key\n", ""));
    Run missing = cli("--json", "query", "c1");
    assertThat(missing.status()).isEqualTo(1);
    assertThat(new JsonObject(missing.out()).getString("status")).isEqualTo("00");
  }

  /** The examples of docs/operating.md's "sluice cli", as written there, one second after the insert. */
  @Test
  void theOperatingGuidesExamples() {
    server.toNextMinuteTick();
    assertThat(cli("insert", "user:42", "100", "1h")).isEqualTo(new Run(0, "OK\n", ""));
    server.clock.advance(Duration.ofSeconds(1));
    assertThat(cli("query", "user:42").out()).isEqualTo("quota 100, ttl 3599 s\n");
    assertThat(cli("--json", "query", "user:42").out())
        .isEqualTo("{\"key\":\"user:42\",\"quota\":100,\"ttl\":3599,\"ttl_unit\":\"seconds\",\"ok\":true}\n");
    assertThat(cli("update", "user:42", "ttl", "patch", "5m")).isEqualTo(new Run(0, "OK\n", ""));
    assertThat(cli("query", "user:42").out()).isEqualTo("quota 100, ttl 300 s\n");
    assertThat(cli("set", "greeting", "hello", "1h")).isEqualTo(new Run(0, "OK\n", ""));
    server.clock.advance(Duration.ofSeconds(1));
    assertThat(cli("get", "greeting").out()).isEqualTo("hello  (ttl 3599 s)\n");
    server.toNextMinuteTick();
    assertThat(cli("stats").out()).contains("user:42  reads 5 last minute, 5 total; writes 2 last minute, 2 total\n");
  }

  /** An hour reads as seconds, to the second, as it runs down. */
  @Test
  void aTtlInHoursShowsLiveInSeconds() {
    assertThat(cli("insert", "hourly", "100", "1h")).isEqualTo(new Run(0, "OK\n", ""));
    assertThat(cli("query", "hourly").out()).isEqualTo("quota 100, ttl 3600 s\n");
    server.clock.advance(Duration.ofMillis(1500));
    assertThat(cli("query", "hourly").out()).isEqualTo("quota 100, ttl 3598 s\n");
    assertThat(cli("insert", "day", "1", "24h").status()).as("86,400 s do not fit uint16: minutes do").isZero();
    assertThat(cli("query", "day").out()).isEqualTo("quota 1, ttl 1440 to 1441 m\n");
    assertThat(cli("insert", "too-long", "1", "70000h").err())
        .isEqualTo("sluice cli: insert: TTL 70000h does not fit --value-size uint16 (at most 65535 h)\n");
    assertThat(cli("insert", "big", "70000", "60"))
        .isEqualTo(new Run(2, "", "sluice cli: insert: QUOTA 70000 does not fit --value-size uint16 (at most 65535)\n"));
  }

  @Test
  void updateTakesATtlAsInsertDoesCountedInTheRecordsUnit() {
    cli("insert", "u1", "5", "1h");
    assertThat(cli("update", "u1", "ttl", "patch", "5m")).isEqualTo(new Run(0, "OK\n", ""));
    assertThat(cli("query", "u1").out()).isEqualTo("quota 5, ttl 300 s\n");
    assertThat(cli("update", "u1", "ttl", "increase", "90")).isEqualTo(new Run(0, "OK\n", ""));
    assertThat(cli("query", "u1").out()).isEqualTo("quota 5, ttl 390 s\n");
    assertThat(cli("update", "u1", "ttl", "decrease", "500ms")).isEqualTo(new Run(2, "",
        "sluice cli: update: the record counts its TTL in seconds: 500ms is no whole number of them\n"));
    cli("insert", "u2", "5", "500ms");
    assertThat(cli("update", "u2", "ttl", "patch", "2s").status()).isZero();
    assertThat(cli("query", "u2").out()).isEqualTo("quota 5, ttl 2000 ms\n");
    cli("set", "u3", "text", "10s");
    assertThat(cli("update", "u3", "ttl", "patch", "1m").status()).as("a buffer's TTL too").isZero();
    assertThat(cli("get", "u3").out()).isEqualTo("text  (ttl 60 s)\n");
    assertThat(cli("update", "nothing", "ttl", "patch", "5m")).isEqualTo(new Run(1, "(00) not updated: no such key\n", ""));
  }

  @Test
  void buffersSetAndGet() {
    assertThat(cli("set", "b1", "hello world", "1h").status()).isZero();
    assertThat(cli("get", "b1").out()).isEqualTo("hello world  (ttl 3600 s)\n");
    JsonObject json = new JsonObject(cli("--json", "get", "b1").out());
    assertThat(json.getString("value")).isEqualTo("hello world");
    assertThat(json.getString("value_base64")).isEqualTo("aGVsbG8gd29ybGQ=");
    assertThat(json.getLong("ttl")).isEqualTo(3600);
    assertThat(cli("get", "nothing-here").status()).isEqualTo(1);
  }

  @Test
  void instanceCommandsListInfoConnections() {
    cli("insert", "listed", "5", "60");
    assertThat(cli("list").out()).contains("listed  counter").containsPattern("\\(\\d+ keys?\\)");
    assertThat(new JsonObject(cli("--json", "list").out()).getJsonArray("keys").toString()).contains("\"key\":\"listed\"");
    Run info = cli("info");
    assertThat(info.status()).isZero();
    assertThat(info.out()).contains("version: ").containsPattern("keys: \\d+").containsPattern("connections: [1-9]");
    server.awaitNoConnections();
    assertThat(cli("connections").out()).containsPattern("[0-9a-f]{32}  127\\.0\\.0\\.1:\\d+  read \\d+ B").contains("(1 connection)");
  }

  /**
   * STAT and STATS report whole minutes (counted from the server's start): the reads of this minute
   * show once the clock passes the next tick, with the STATS that listed the key counted too.
   */
  @Test
  void statsCountTheReadsOfTheLastWholeMinute() {
    server.toNextMinuteTick();
    cli("insert", "read-me", "5", "1h");
    cli("query", "read-me");
    cli("query", "read-me");
    assertThat(cli("stats").out()).contains("read-me  reads 0 last minute, 0 total; writes 0 last minute, 0 total\n")
        .contains("this minute's figures show after the next tick");
    server.toNextMinuteTick();
    assertThat(cli("stats").out()).contains("read-me  reads 3 last minute, 3 total; writes 1 last minute, 1 total\n");
    server.toNextMinuteTick();
    JsonObject item = new JsonObject(cli("--json", "stats").out()).getJsonArray("keys").stream().map(JsonObject.class::cast)
        .filter(key -> key.getString("key").equals("read-me")).findFirst().orElseThrow();
    assertThat(item.getLong("reads_per_minute")).as("the STATS of the minute before").isEqualTo(1);
    assertThat(item.getLong("total_reads")).isEqualTo(4);
  }

  /**
   * INFO's byte totals are those of the connections open now; one prompt session keeps its own
   * open, so they add up its requests' frames: INSERT 3 + 2N + K, QUERY 2 + K, INFO 1.
   */
  @Test
  void infoCountsTheBytesOfTheOpenConnections() {
    server.awaitNoConnections();
    Run session = server.prompt("insert ib 5 60\nquery ib\ninfo\n");
    assertThat(session.out()).contains("connections: 1\n")
        .contains("bytes read: " + (3 + 4 + 2 + 2 + 2 + 1) + " by the connections open now, ");
    server.awaitNoConnections();
    assertThat(cli("info").out()).as("a one-shot info has sent its 1 byte").contains("bytes read: 1 by the connections open now");
    server.toNextMinuteTick();
    Waits.until(Duration.ofSeconds(10), "the server's once-a-second roll saw the tick",
        () -> new JsonObject(cli("--json", "info").out()).getLong("read_bytes_per_minute") > 0);
  }

  @Test
  void subscribeReceivesWhatPublishSends() throws Exception {
    assertThat(cli("publish", "news", "nobody listens")).isEqualTo(new Run(1, "(00) nobody is subscribed to news\n", ""));
    ByteArrayOutputStream subscriberOut = new ByteArrayOutputStream();
    CompletableFuture<Integer> subscriber = CompletableFuture.supplyAsync(() -> Cli.run(
        List.of("--port", Integer.toString(server.tcpPort()), "subscribe", "news", "1"), Map.of(), new ByteArrayInputStream(new byte[0]),
        new PrintStream(subscriberOut, true, StandardCharsets.UTF_8), System.err));
    Waits.until(Duration.ofSeconds(30), "the subscriber is subscribed",
        () -> subscriberOut.toString(StandardCharsets.UTF_8).contains("subscribed to news"));
    assertThat(cli("publish", "news", "hello there")).isEqualTo(new Run(0, "OK\n", ""));
    assertThat(subscriber.get(30, TimeUnit.SECONDS)).isZero();
    assertThat(subscriberOut.toString(StandardCharsets.UTF_8)).endsWith("news: hello there\n");
  }

  @Test
  void thePromptRunsOneCommandALine() {
    Run run = server.prompt("insert 'spaced key' 3 60\n\nquery \"spaced key\"\nquit\nquery never-run\n");
    assertThat(run.status()).isZero();
    assertThat(run.out()).isEqualTo("OK\nquota 3, ttl 60 s\n");
  }

  @Test
  void mistakesAreUsageErrors() {
    assertThat(cli("insert", "k", "ten", "60")).isEqualTo(new Run(2, "", "sluice cli: insert: QUOTA 'ten': expected a whole number, 0 or more\n"));
    assertThat(cli("insert", "k", "1", "5 days").err()).contains("TTL '5 days'");
    assertThat(cli("query").err()).isEqualTo("sluice cli: query: usage: query KEY\n");
    assertThat(cli("frobnicate").status()).isEqualTo(2);
    Run unreachable = CliServer.run(List.of("--port", "1", "info"), Map.of(), new ByteArrayInputStream(new byte[0]));
    assertThat(unreachable.status()).isEqualTo(2);
    assertThat(unreachable.err()).startsWith("sluice cli: info failed: cannot connect to 127.0.0.1:1: ");
    assertThat(cli("--tls-cert", "client.pem", "info").err()).isEqualTo("sluice cli: --tls-cert: no such file: client.pem\n");
    assertThat(cli("--http", "ftp://x", "policies").err()).contains("--http: expected http://HOST:PORT");
    assertThat(Cli.help()).contains("--value-size SIZE").contains("insert KEY QUOTA TTL").contains("subscribe CHANNEL [COUNT]")
        .contains("--tls-ca FILE").contains("check POLICY KEY [COST]").contains("reset POLICY KEY").contains("policies");
  }
}
