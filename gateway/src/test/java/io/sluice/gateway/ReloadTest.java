package io.sluice.gateway;

import io.sluice.gateway.process.ChildProcess;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.DataInputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * SIGHUP sent to a real gateway process: a good change is served at once and shown by the
 * dashboard's API and one log line, a bad one is refused with the previous version kept and one
 * WARN line naming what is wrong; connections stay open and counters keep counting throughout.
 */
class ReloadTest {

  private static final String TWO = "  two:\n    strategy: fixed_window\n    limit: 2\n    window: 1h\n";
  private static final String POLICIES_V1 = "policies:\n" + TWO
      + "  changing:\n    strategy: fixed_window\n    limit: 3\n    window: 1h\n"
      + "  gone:\n    strategy: fixed_window\n    limit: 3\n    window: 1h\n";
  private static final String POLICIES_V2 = "policies:\n" + TWO
      + "  changing:\n    strategy: fixed_window\n    limit: 4\n    window: 1h\n"
      + "  added:\n    strategy: fixed_window\n    limit: 9\n    window: 1h\n";
  /** V2 with one typo, in the window of 'changing' (whose key is line 6 of the file). */
  private static final String POLICIES_TYPO = POLICIES_V2.replace("limit: 4\n    window: 1h", "limit: 4\n    window: 1hr");
  private static final String RULES_V1 = "default:\n  fixed-reply: {over: false, rate: 0}\n  limit: 1\n  period: 1\n";
  private static final String RULES_V2 = "default:\n  fixed-reply: {over: true, rate: 0}\n  limit: 2\n  period: 3\n";
  private static final String RULES_BAD = "rules:\n  - pattern: '(unclosed'\n    limit: 1\n    period: 1\n" + RULES_V2;
  private static final Pattern RELOADED = Pattern.compile(" INFO .*reloaded: ");

  @TempDir
  Path directory;

  private final HttpClient http = HttpClient.newHttpClient();
  private int httpPort;
  private int udpPort;

  @Test
  void aGoodChangeIsServedAndShownAndABadOneRefusedWithoutDroppingConnectionsOrCounters() throws Exception {
    Path config = Files.writeString(directory.resolve("sluice.yaml"), POLICIES_V1);
    Path rules = Files.writeString(directory.resolve("rules.yaml"), RULES_V1);
    try (ChildProcess gateway = ChildProcess.start(ChildProcess.gatewayCommand("--config", config.toString(),
        "--rules", rules.toString(), "--tcp-port", "0", "--http-port", "0", "--grpc-port", "0", "--udp-port", "0"), Map.of(), directory)) {
      Matcher started = gateway.awaitLine(Pattern.compile("serving Throttr on tcp://[^ ]+:(\\d+), UDP on udp://[^ ]+:(\\d+), HTTP on http://[^ ]+:(\\d+)"));
      udpPort = Integer.parseInt(started.group(2));
      httpPort = Integer.parseInt(started.group(3));
      try (Socket throttr = new Socket("127.0.0.1", Integer.parseInt(started.group(1)))) {
        // uint16 INSERT "k" quota 7, 1 h: status 01.
        throttr.getOutputStream().write(new byte[] {0x01, 0x07, 0x00, 0x04, 0x10, 0x0e, 0x01, 'k'});
        assertThat(throttr.getInputStream().read()).isEqualTo(1);
        assertThat(udp("over_limit a")).isEqualTo("ok N 0.0 1.0 1");
        assertThat(check("two")).isEqualTo(200);
        assertThat(check("added")).isEqualTo(400);
        assertThat(limitQuotas()).isEqualTo(Map.of("two", 2, "changing", 3, "gone", 3));
        assertThat(configuredPolicies()).containsExactly("two", "changing", "gone");
        assertThat(json("/api/admin/config").getValue("lastReload")).as("no reload yet").isNull();

        // A good change of both files: a policy added, one changed, one removed.
        Files.writeString(config, POLICIES_V2 + "max-frame: 9000\n");
        Files.writeString(rules, RULES_V2);
        int mark = gateway.lineCount();
        gateway.signal("HUP");
        gateway.awaitLine(Pattern.compile("reloaded: policies added \\[added\\], changed \\[changing\\], removed \\[gone\\];"
            + " udp rules read again; tls certificates and token file read again( |$)"), mark);
        assertThat(gateway.linesFrom(mark)).filteredOn(line -> RELOADED.matcher(line).find()).as("one line says what changed")
            .hasSize(1);
        assertThat(gateway.awaitLine(Pattern.compile("cannot change while Sluice runs.*--max-frame \\(8096 -> 9000\\)"), mark)).isNotNull();
        assertThat(udp("over_limit a")).isEqualTo("ok Y 0.0 2.0 3");
        assertThat(check("added")).isEqualTo(200);
        assertThat(check("gone")).isEqualTo(400);
        // The policy kept by name kept its counter: one left of 2, then denied.
        assertThat(check("two")).isEqualTo(200);
        assertThat(check("two")).isEqualTo(429);
        assertThat(limitQuotas()).as("the Limits view's API shows the reloaded set")
            .isEqualTo(Map.of("two", 2, "changing", 4, "added", 9));
        assertThat(configuredPolicies()).containsExactly("two", "changing", "added");
        JsonObject reload = json("/api/admin/config").getJsonObject("lastReload");
        assertThat(reload.getString("outcome")).isEqualTo("ok");
        assertThat(reload.getLong("atMillis")).isCloseTo(System.currentTimeMillis(), org.assertj.core.data.Offset.offset(60_000L));
        assertThat(reload.getJsonArray("parts").getJsonObject(0).getMap()).containsEntry("part", "policies")
            .containsEntry("result", "ok").containsEntry("detail", "policies added [added], changed [changing], removed [gone]");

        // A typo in one policy: one WARN, naming the file, the line and the policy; the rest reloads.
        Files.writeString(config, POLICIES_TYPO);
        mark = gateway.lineCount();
        gateway.signal("HUP");
        gateway.awaitLine(Pattern.compile("reloaded: udp rules read again; tls certificates and token file read again( |$)"), mark);
        assertThat(gateway.linesFrom(mark)).filteredOn(line -> line.contains(" WARN ") && !ChildProcess.blockedThreadWarning(line))
            .singleElement().asString()
            .containsPattern("reload: policies refused, the previous one stays in service: config file .*sluice.yaml:6: policy 'changing'")
            .contains("1hr");
        assertThat(check("added")).as("the policies in service stay").isEqualTo(200);
        assertThat(json("/api/admin/config").getJsonObject("lastReload").getString("outcome")).isEqualTo("partly refused");

        // A bad rules file and a config file that is not YAML: both refused, the previous versions serve on.
        Files.writeString(config, POLICIES_V2);
        Files.writeString(rules, RULES_BAD);
        mark = gateway.lineCount();
        gateway.signal("HUP");
        assertThat(gateway.awaitLine(Pattern.compile("reload: udp rules refused, the previous one stays in service: .*rules.yaml:2: rules\\[0\\]\\.pattern: invalid regular expression"), mark)).isNotNull();
        assertThat(udp("over_limit a")).isEqualTo("ok Y 0.0 2.0 3");
        Files.writeString(config, "policies: [unclosed\n");
        mark = gateway.lineCount();
        gateway.signal("HUP");
        gateway.awaitLine(Pattern.compile(" WARN .*reload refused, nothing changed: config file .*sluice.yaml:\\d+(:\\d+)?: malformed YAML"), mark);
        assertThat(check("added")).as("the policy added by the good reload still serves").isEqualTo(200);
        reload = json("/api/admin/config").getJsonObject("lastReload");
        assertThat(reload.getString("outcome")).isEqualTo("refused");
        assertThat(reload.getJsonArray("parts").getJsonObject(0).getString("part")).isEqualTo("configuration");

        // The Throttr connection opened before the reloads is still served, its key intact: QUERY "k".
        throttr.getOutputStream().write(new byte[] {0x02, 0x01, 'k'});
        DataInputStream reply = new DataInputStream(throttr.getInputStream());
        assertThat(reply.readUnsignedByte()).isEqualTo(1);
        assertThat(Short.reverseBytes(reply.readShort())).isEqualTo((short) 7);

        String metrics = get("/metrics");
        assertThat(metrics).contains("sluice_config_reloads_total{part=\"udp rules\",result=\"ok\"} 2.0")
            .contains("sluice_config_reloads_total{part=\"udp rules\",result=\"refused\"} 1.0")
            .contains("sluice_config_reloads_total{part=\"policies\",result=\"ok\"} 2.0")
            .contains("sluice_config_reloads_total{part=\"policies\",result=\"refused\"} 1.0")
            .contains("sluice_config_reloads_total{part=\"configuration\",result=\"refused\"} 1.0");
      }
      assertThat(gateway.process().isAlive()).as("SIGHUP must not stop the server").isTrue();
      // Many requests and connections, and not one duplicate-gauge warning from Micrometer.
      assertThat(gateway.output()).doesNotContain("already registered");
    }
  }

  @Test
  void sighupReloadsTheRateLimitServiceConfigAndRefusesABadOne() throws Exception {
    Path rls = Files.writeString(directory.resolve("rls.yaml"), rlsConfig(1, "hour"));
    try (ChildProcess gateway = ChildProcess.start(ChildProcess.gatewayCommand("--rls-config", rls.toString(),
        "--tcp-port", "0", "--http-port", "0", "--grpc-port", "0", "--udp-port", "0"), Map.of(), directory)) {
      httpPort = Integer.parseInt(gateway.awaitLine(Pattern.compile("HTTP on http://[^ ]+:(\\d+)")).group(1));
      gateway.awaitLine(Pattern.compile("check API policies"));
      assertThat(rlsStatus()).isEqualTo(200);
      assertThat(rlsStatus()).as("1 an hour").isEqualTo(429);

      Files.writeString(rls, rlsConfig(5, "hour"));
      int mark = gateway.lineCount();
      gateway.signal("HUP");
      gateway.awaitLine(Pattern.compile("reloaded: .*rls config domains \\[api\\]"), mark);
      assertThat(rlsStatus()).as("5 an hour now, the count kept: the third").isEqualTo(200);

      Files.writeString(rls, rlsConfig(5, "fortnight"));
      mark = gateway.lineCount();
      gateway.signal("HUP");
      gateway.awaitLine(Pattern.compile("reload: rls config refused, the previous one stays in service: .*rls.yaml.*fortnight"), mark);
      assertThat(rlsStatus()).as("the 5 an hour in force before stays: the fourth").isEqualTo(200);
      assertThat(get("/metrics")).contains("sluice_config_reloads_total{part=\"rls config\",result=\"ok\"} 1.0")
          .contains("sluice_config_reloads_total{part=\"rls config\",result=\"refused\"} 1.0");
    }
  }

  private static String rlsConfig(int limit, String unit) {
    return "domain: api\ndescriptors:\n  - key: user\n    rate_limit:\n      unit: " + unit
        + "\n      requests_per_unit: " + limit + "\n";
  }

  private int rlsStatus() throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + "/json"))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(
                "{\"domain\":\"api\",\"descriptors\":[{\"entries\":[{\"key\":\"user\",\"value\":\"u1\"}]}]}")).build(),
        HttpResponse.BodyHandlers.ofString()).statusCode();
  }

  private String udp(String request) throws Exception {
    try (DatagramSocket socket = new DatagramSocket()) {
      socket.setSoTimeout(10_000);
      byte[] bytes = request.getBytes(StandardCharsets.US_ASCII);
      socket.send(new DatagramPacket(bytes, bytes.length, InetAddress.getLoopbackAddress(), udpPort));
      DatagramPacket reply = new DatagramPacket(new byte[512], 512);
      socket.receive(reply);
      return new String(reply.getData(), 0, reply.getLength(), StandardCharsets.US_ASCII);
    }
  }

  private int check(String policy) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + "/v1/check"))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString("{\"policy\":\"" + policy + "\",\"key\":\"user-1\"}")).build(),
        HttpResponse.BodyHandlers.ofString()).statusCode();
  }

  /** Each policy of the Limits view's API with the quota of its one limit. */
  private Map<String, Integer> limitQuotas() throws Exception {
    Map<String, Integer> quotas = new LinkedHashMap<>();
    for (Object policy : json("/api/limits").getJsonArray("policies")) {
      JsonObject one = (JsonObject) policy;
      quotas.put(one.getString("name"), one.getJsonArray("limits").getJsonObject(0).getInteger("quota"));
    }
    return quotas;
  }

  /** The policies' names as the admin API's configuration shows them. */
  private List<String> configuredPolicies() throws Exception {
    return json("/api/admin/config").getJsonArray("policies").stream()
        .map(policy -> ((JsonObject) policy).getString("name")).toList();
  }

  private JsonObject json(String path) throws Exception {
    return new JsonObject(get(path));
  }

  private String get(String path) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + path)).build(),
        HttpResponse.BodyHandlers.ofString()).body();
  }
}
