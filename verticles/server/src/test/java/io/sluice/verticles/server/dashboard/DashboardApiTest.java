package io.sluice.verticles.server.dashboard;

import io.sluice.verticles.server.kit.ChannelCalls;
import io.sluice.verticles.server.kit.ChannelFrames;
import io.sluice.verticles.server.kit.Conversation;
import io.sluice.verticles.server.kit.EventStream;
import io.sluice.verticles.server.kit.Hex;
import io.sluice.verticles.server.kit.HttpCalls;
import io.sluice.verticles.server.kit.HttpCalls.Answer;
import io.sluice.verticles.server.kit.JsonWebSocket;
import io.sluice.verticles.server.kit.KeyFrames;
import io.sluice.verticles.server.kit.SluiceUnderTest;
import io.sluice.verticles.server.kit.TcpConversation;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.List;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/** The dashboard's JSON API over real HTTP, next to Throttr clients on real TCP sockets. */
class DashboardApiTest {

  private final Vertx vertx = Vertx.vertx();
  private final SluiceUnderTest sut = new SluiceUnderTest(vertx);
  private final HttpCalls http = new HttpCalls(vertx, sut.httpPort());

  @AfterEach
  void stop() {
    http.close();
    sut.close();
    await(vertx.close());
  }

  private Conversation tcp() {
    return await(TcpConversation.open(vertx, sut.tcpPort()));
  }

  /** Inserts counters over TCP, pipelined, and waits for every 01. */
  private void insertOverTcp(Conversation client, List<String> keys) {
    ByteArrayOutputStream frames = new ByteArrayOutputStream();
    keys.forEach(key -> frames.writeBytes(KeyFrames.insert(key, 5, 60)));
    await(client.send(frames.toByteArray()));
    assertThat(await(client.receive(keys.size()))).containsOnly(1);
  }

  private JsonObject getJson(String uri) {
    return http.getJson(uri);
  }

  private static List<String> keysOf(JsonObject page) {
    return page.getJsonArray("items").stream().map(item -> ((JsonObject) item).getString("key")).toList();
  }

  @Test
  void overviewShowsWhatThrottrClientsDid() {
    try (Conversation client = tcp()) {
      insertOverTcp(client, List.of("a", "b", "c"));
      JsonObject overview = getJson("/api/overview");
      assertThat(overview.getString("version")).isEqualTo(SluiceUnderTest.VERSION);
      assertThat(overview.getInteger("connections")).isEqualTo(1);
      assertThat(overview.getJsonObject("keys").getLong("total")).isEqualTo(3);
      assertThat(overview.getJsonObject("keys").getLong("counters")).isEqualTo(3);
      assertThat(overview.getJsonObject("keys").getLong("counterBytes")).isEqualTo(6);
      assertThat(overview.getJsonObject("channels").getLong("subscriptions")).isEqualTo(2); // * and its own ID
      JsonObject insert = overview.getJsonObject("requests").getJsonArray("byCommand").getJsonObject(0);
      assertThat(insert).isEqualTo(new JsonObject().put("command", "INSERT").put("total", 3).put("perMinute", 0));
      assertThat(overview.getJsonObject("requests").getLong("total")).isEqualTo(3);
      assertThat(overview.getJsonObject("bytes").getLong("read")).isEqualTo(3 * 8); // INSERT of a one-byte key: 8 bytes
      assertThat(overview.getJsonArray("shards")).hasSize(2);
      assertThat(overview.getJsonObject("memory").getLong("heapUsedBytes")).isPositive();
    }
  }

  @Test
  void keysArePagedSortedAndSearchedOnTheServer() {
    try (Conversation client = tcp()) {
      List<String> users = java.util.stream.IntStream.range(0, 120).mapToObj(i -> String.format("user:%03d", i)).toList();
      insertOverTcp(client, users);
      insertOverTcp(client, List.of("ip:1.2.3.4"));

      JsonObject first = getJson("/api/keys");
      assertThat(first.getLong("total")).isEqualTo(121);
      assertThat(first.getInteger("limit")).isEqualTo(50);
      assertThat(keysOf(first)).hasSize(50).startsWith("ip:1.2.3.4", "user:000", "user:001");
      JsonObject item = first.getJsonArray("items").getJsonObject(1);
      assertThat(item.getString("type")).isEqualTo("counter");
      assertThat(item.getString("ttlUnit")).isEqualTo("seconds");
      assertThat(item.getLong("expiresInMillis")).isEqualTo(60_000);
      assertThat(item.getInteger("bytes")).isEqualTo(2);
      assertThat(item.getString("keyBase64")).isEqualTo("dXNlcjowMDA=");

      assertThat(keysOf(getJson("/api/keys?offset=110&limit=50"))).containsExactly("user:109", "user:110",
          "user:111", "user:112", "user:113", "user:114", "user:115", "user:116", "user:117", "user:118", "user:119");
      assertThat(first.getString("next")).as("the last key of the page, base64url").isEqualTo("dXNlcjowNDg");
      JsonObject second = getJson("/api/keys?limit=50&cursor=" + first.getString("next"));
      assertThat(second.getLong("offset")).isEqualTo(50);
      assertThat(keysOf(second)).hasSize(50).startsWith("user:049").endsWith("user:098");
      JsonObject third = getJson("/api/keys?limit=50&cursor=" + second.getString("next"));
      assertThat(keysOf(third)).hasSize(21).endsWith("user:119");
      assertThat(third.getValue("next")).isNull();

      JsonObject search = getJson("/api/keys?q=user:11&limit=3");
      assertThat(search.getLong("total")).isEqualTo(10);
      assertThat(keysOf(search)).containsExactly("user:110", "user:111", "user:112");

      sut.advance(Duration.ofSeconds(15));
      assertThat(getJson("/api/keys?limit=1").getJsonArray("items").getJsonObject(0).getLong("expiresInMillis"))
          .isEqualTo(45_000);
    }
  }

  @Test
  void aKeyIsShownWithoutCountingARead() {
    try (Conversation client = tcp()) {
      await(client.send(KeyFrames.insert("a/b ü", 5, 600)));
      assertThat(await(client.receive(1))).containsExactly(1);
      await(client.send(KeyFrames.query("a/b ü"))); // one read
      await(client.receive(6));
      JsonObject key = getJson("/api/keys/a%2Fb%20%C3%BC");
      assertThat(key.getString("key")).isEqualTo("a/b ü");
      assertThat(key.getString("type")).isEqualTo("counter");
      assertThat(key.getLong("quota")).isEqualTo(5);
      assertThat(key.getLong("ttl")).isEqualTo(600);
      getJson("/api/keys/a%2Fb%20%C3%BC");
      // Figures show closed one-minute windows: move past the first one.
      sut.advance(Duration.ofSeconds(61));
      JsonObject stats = getJson("/api/keys/a%2Fb%20%C3%BC").getJsonObject("stats");
      assertThat(stats.getLong("totalReads")).isEqualTo(1); // the QUERY, not the three looks
      assertThat(stats.getLong("readsPerMinute")).isEqualTo(1);
      assertThat(stats.getLong("totalWrites")).isEqualTo(1);
    }
  }

  @Test
  void countersAndBuffersCreatedInTheDashboardAreReadOverTcp() {
    assertThat(http.post("/api/keys", "{\"key\":\"made\",\"type\":\"counter\",\"quota\":7,\"ttl\":60,\"ttlUnit\":\"seconds\"}")
        .status()).isEqualTo(201);
    Answer again = http.post("/api/keys", "{\"key\":\"made\",\"type\":\"counter\",\"quota\":1,\"ttl\":60}");
    assertThat(again.status()).isEqualTo(409);
    assertThat(http.post("/api/keys", "{\"key\":\"greeting\",\"type\":\"buffer\",\"value\":\"hello\",\"ttl\":2,"
        + "\"ttlUnit\":\"minutes\"}").status()).isEqualTo(201);
    try (Conversation client = tcp()) {
      await(client.send(KeyFrames.query("made")));
      assertThat(Hex.of(await(client.receive(6)))).isEqualTo("01 07 00 04 3c 00");
      await(client.send(KeyFrames.get("greeting")));
      assertThat(Hex.of(await(client.receive(11)))).isEqualTo("01 05 02 00 05 00 68 65 6c 6c 6f");
    }
    JsonObject buffer = getJson("/api/keys/greeting");
    assertThat(buffer.getString("value")).isEqualTo("hello");
    assertThat(buffer.getString("valueBase64")).isEqualTo("aGVsbG8=");
    assertThat(buffer.getInteger("bytes")).isEqualTo(5);
    assertThat(buffer.getString("ttlUnit")).isEqualTo("minutes");
  }

  @Test
  void updatesAndDeletesAreThrottrUpdatesAndPurges() {
    try (Conversation client = tcp()) {
      insertOverTcp(client, List.of("k"));
      assertThat(http.send(HttpMethod.PATCH, "/api/keys/k", "{\"attribute\":\"quota\",\"change\":\"decrease\",\"value\":2}")
          .status()).isEqualTo(200);
      assertThat(http.send(HttpMethod.PATCH, "/api/keys/k", "{\"attribute\":\"ttl\",\"change\":\"patch\",\"value\":600}")
          .status()).isEqualTo(200);
      await(client.send(KeyFrames.query("k")));
      assertThat(Hex.of(await(client.receive(6)))).isEqualTo("01 03 00 04 58 02");
      Answer belowZero = http.send(HttpMethod.PATCH, "/api/keys/k", "{\"attribute\":\"quota\",\"change\":\"decrease\",\"value\":9}");
      assertThat(belowZero.status()).isEqualTo(409);
      assertThat(http.send(HttpMethod.PATCH, "/api/keys/absent", "{\"attribute\":\"quota\",\"change\":\"patch\",\"value\":1}")
          .status()).isEqualTo(404);

      assertThat(http.send(HttpMethod.DELETE, "/api/keys/k", null).status()).isEqualTo(204);
      assertThat(http.send(HttpMethod.DELETE, "/api/keys/k", null).status()).isEqualTo(404);
      await(client.send(KeyFrames.query("k")));
      assertThat(await(client.receive(1))).containsExactly(0);
    }
  }

  @Test
  void badInputGetsAClearError() {
    assertBadRequest(http.post("/api/keys", "{\"key\":\"k\",\"type\":\"gauge\",\"ttl\":1}"), "'type' must be one of");
    assertBadRequest(http.post("/api/keys", "{\"key\":\"k\",\"type\":\"counter\",\"quota\":-1,\"ttl\":1}"), "'quota'");
    assertBadRequest(http.post("/api/keys", "{\"key\":\"k\",\"type\":\"counter\",\"quota\":70000,\"ttl\":1}"),
        "0 to 65535");
    assertBadRequest(http.post("/api/keys", "{\"key\":\"k\",\"type\":\"counter\",\"quota\":1,\"ttl\":1,\"ttlUnit\":\"days\"}"),
        "'ttlUnit'");
    assertBadRequest(http.post("/api/keys", "{\"key\":\"" + "x".repeat(256) + "\",\"type\":\"counter\",\"quota\":1,\"ttl\":1}"),
        "at most 255");
    assertBadRequest(http.post("/api/keys", "{\"key\":\"b\",\"type\":\"buffer\",\"ttl\":1}"), "'value'");
    assertBadRequest(http.post("/api/keys", "not json"), "JSON object");
    assertBadRequest(http.get("/api/keys?limit=0"), "'limit'");
    assertBadRequest(http.get("/api/keys?offset=10001"), "page further with 'cursor'");
    assertBadRequest(http.get("/api/keys?offset=99999999999"), "'offset' must be an integer from 0 to 10000");
    assertBadRequest(http.get("/api/keys?cursor=not*base64"), "'cursor'");
    assertBadRequest(http.get("/api/connections?offset=x"), "'offset'");
    Answer unknown = http.get("/api/nothing");
    assertThat(unknown.status()).isEqualTo(404);
    assertThat(unknown.json().getString("error")).contains("/api/nothing");
    Answer wrongMethod = http.send(HttpMethod.PUT, "/api/keys/k", "{}");
    assertThat(wrongMethod.status()).isEqualTo(405);
    assertThat(wrongMethod.json().getString("error")).contains("PUT");
    Answer missing = http.get("/api/keys/nothing");
    assertThat(missing.status()).isEqualTo(404);
    assertThat(missing.json().getString("error")).contains("nothing");
  }

  private static void assertBadRequest(Answer answer, String reason) {
    assertThat(answer.status()).as(answer.body()).isEqualTo(400);
    assertThat(answer.json().getString("error")).contains(reason);
  }

  @Test
  void connectionsOfEveryFrontAreListedWithTheirFigures() {
    try (Conversation client = tcp(); JsonWebSocket browser = await(JsonWebSocket.open(vertx, sut.httpPort()))) {
      insertOverTcp(client, List.of("x", "y"));
      // The client's handshake completes before the server registers the WebSocket (it does so
      // before reading from it): a first answer over the socket says it is registered.
      assertThat(ChannelCalls.call(browser, new JsonObject().put("op", "none")).getString("event")).isEqualTo("error");
      JsonObject page = getJson("/api/connections");
      assertThat(page.getLong("total")).isEqualTo(2);
      JsonObject overTcp = byProtocol(page, "tcp");
      assertThat(overTcp.getInteger("port")).isEqualTo(TcpConversation.localPort(client));
      assertThat(overTcp.getString("address")).isEqualTo("127.0.0.1");
      assertThat(overTcp.getLong("requests")).isEqualTo(2);
      assertThat(overTcp.getLong("readBytes")).isEqualTo(2 * 8);
      assertThat(byProtocol(page, "websocket").getLong("requests")).isZero();

      String id = overTcp.getString("id");
      JsonObject detail = getJson("/api/connections/" + id);
      assertThat(detail.getJsonObject("requestsByCommand").getLong("INSERT")).isEqualTo(2);
      assertThat(detail.getJsonObject("requestsByCommand").getLong("QUERY")).isZero();
      assertThat(http.get("/api/connections/" + "0".repeat(32)).status()).isEqualTo(404);
      assertThat(http.get("/api/connections/nothex").status()).isEqualTo(404);
    }
  }

  private static JsonObject byProtocol(JsonObject page, String protocol) {
    return page.getJsonArray("items").stream().map(JsonObject.class::cast)
        .filter(connection -> connection.getString("protocol").equals(protocol)).findFirst().orElseThrow();
  }

  @Test
  void udpPeersAreListedApartFromTheConnectionsOneRowPerSourceAddress() throws Exception {
    try (java.net.DatagramSocket first = new java.net.DatagramSocket(0, java.net.InetAddress.getLoopbackAddress());
         java.net.DatagramSocket second = new java.net.DatagramSocket(0, java.net.InetAddress.getLoopbackAddress())) {
      for (java.net.DatagramSocket udp : List.of(first, second)) { // two source ports of one address
        byte[] ping = "ping".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        udp.send(new java.net.DatagramPacket(ping, ping.length, java.net.InetAddress.getLoopbackAddress(), sut.udpPort()));
        udp.setSoTimeout(10_000);
        udp.receive(new java.net.DatagramPacket(new byte[16], 16));
      }
      assertThat(getJson("/api/connections").getLong("total")).as("a UDP peer is no open connection").isZero();
      JsonObject overview = getJson("/api/overview");
      assertThat(overview.getInteger("connections")).isZero();
      assertThat(overview.getInteger("udpPeers")).isEqualTo(2);
      JsonObject page = getJson("/api/udp-peers");
      assertThat(page.getLong("total")).as("one source address").isEqualTo(1);
      JsonObject source = byProtocol(page, "udp");
      assertThat(source.getString("id")).isEqualTo("udp:127.0.0.1");
      assertThat(source.getInteger("ports")).isEqualTo(2);
      assertThat(source.getLong("requests")).isEqualTo(2);
      assertThat(source.getLong("readBytes")).isEqualTo(8);
      assertThat(source.getLong("writeBytes")).isEqualTo(8); // pongs
      assertThat(getJson("/api/connections/udp%3A127.0.0.1").getInteger("ports")).isEqualTo(2);
      String port = "udp:127.0.0.1:" + first.getLocalPort();
      assertThat(getJson("/api/connections/" + java.net.URLEncoder.encode(port, java.nio.charset.StandardCharsets.UTF_8))
          .getLong("requests")).as("one source port").isEqualTo(1);
    }
  }

  @Test
  void channelsAndTheirSubscribersAcrossFronts() {
    try (Conversation tcp = tcp(); JsonWebSocket browser = await(JsonWebSocket.open(vertx, sut.httpPort()))) {
      await(tcp.send(ChannelFrames.subscribe("news")));
      assertThat(await(tcp.receive(1))).containsExactly(1);
      await(browser.send(ChannelFrames.jsonSubscribe("news", null)));
      await(browser.next());
      JsonObject page = getJson("/api/channels");
      JsonObject news = page.getJsonArray("items").stream().map(JsonObject.class::cast)
          .filter(channel -> channel.getString("name").equals("news")).findFirst().orElseThrow();
      assertThat(news.getLong("subscribers")).isEqualTo(2);
      assertThat(news.getLong("presence")).as("the WebSocket client, not the Throttr one").isEqualTo(1);

      await(tcp.send(ChannelFrames.publish("news", ChannelFrames.utf8("hi"))));
      await(tcp.receive(1 + 1 + 2 + 4 + 2 + 1)); // its own push, then 01
      JsonObject detail = getJson("/api/channels/news");
      assertThat(detail.getJsonArray("subscribers")).hasSize(2);
      assertThat(detail.getJsonArray("subscribers").getJsonObject(0).getLong("bytes")).isEqualTo(2);
      assertThat(getJson("/api/channels/*").getJsonArray("subscribers")).hasSize(2);
      assertThat(page.getLong("hiddenIds")).as("each connection's own channel").isEqualTo(2);
      assertThat(page.getJsonArray("items").stream().map(item -> ((JsonObject) item).getString("name")))
          .containsExactly("*", "news");
      assertThat(getJson("/api/channels?ids=true").getLong("total")).isEqualTo(4);
      assertThat(http.get("/api/channels/quiet").status()).isEqualTo(404);
    }
  }

  /** A JSON publish is a request like a binary one: the connection's, the overview's and /metrics' counts agree. */
  @Test
  void webSocketJsonCommandsCountAsRequests() {
    try (JsonWebSocket browser = await(JsonWebSocket.open(vertx, sut.httpPort()))) {
      await(browser.send(ChannelFrames.jsonSubscribe("news", 1)));
      await(browser.next());
      await(browser.send(ChannelFrames.jsonPublish("news", "hello", 2)));
      await(browser.next()); // its own push
      await(browser.next()); // the ack
      JsonObject connection = byProtocol(getJson("/api/connections"), "websocket");
      assertThat(connection.getLong("requests")).isEqualTo(2);
      assertThat(connection.getLong("readBytes")).isPositive();
      JsonObject detail = getJson("/api/connections/" + connection.getString("id")).getJsonObject("requestsByCommand");
      assertThat(detail.getLong("PUBLISH")).isEqualTo(1);
      assertThat(detail.getLong("SUBSCRIBE")).isEqualTo(1);
      assertThat(http.get("/metrics").body())
          .contains("sluice_requests_total{command=\"publish\",protocol=\"websocket\"} 1.0");
    }
  }

  @Test
  void theLiveStreamPushesTheOverviewAsItChanges() {
    EventStream stream = await(EventStream.open(vertx, sut.httpPort(), "/api/events"));
    try {
      assertThat(stream.status()).isEqualTo(200);
      assertThat(stream.contentType()).startsWith("text/event-stream");
      EventStream.Event first = await(stream.next());
      assertThat(first.name()).isEqualTo("overview");
      assertThat(first.data().getInteger("connections")).isZero();
      try (Conversation client = tcp()) {
        EventStream.Event update = await(stream.until(overview -> overview.getInteger("connections") == 1));
        assertThat(update.data().getJsonObject("keys").getLong("total")).isZero();
        insertOverTcp(client, List.of("live"));
        await(stream.until(overview -> overview.getJsonObject("keys").getLong("total") == 1));
      }
    } finally {
      stream.close();
    }
  }

  /** A path nothing serves, in or out of /api, is a JSON 404, not the router's HTML page. */
  @Test
  void unknownPathsAreJson404() {
    for (String path : List.of("/no-such-page", "/app/missing.js", "/v2/check", "/api/nothing")) {
      Answer answer = http.get(path);
      assertThat(answer.status()).as(path).isEqualTo(404);
      assertThat(answer.header("Content-Type")).as(path).isEqualTo("application/json");
      assertThat(answer.json().getString("error")).as(path).contains(path);
    }
  }

  /** The cluster's API on a single node: a JSON 404 that says why (docs/dashboard-api.md). */
  @Test
  void aSingleNodeSaysItServesNoClusterApi() {
    for (String path : List.of("/api/cluster", "/api/cluster/partitions")) {
      Answer answer = http.get(path);
      assertThat(answer.status()).as(path).isEqualTo(404);
      assertThat(answer.json().getString("error")).as(path).contains(path).contains("cluster nodes only");
    }
  }

  @Test
  void healthAndReadiness() {
    Answer health = http.get("/health");
    assertThat(health.status()).isEqualTo(200);
    assertThat(health.json().getString("status")).isEqualTo("UP");
    Answer ready = http.get("/ready");
    assertThat(ready.status()).isEqualTo(200);
    assertThat(ready.json()).isEqualTo(new JsonObject().put("status", "READY").put("shards", 2));
  }
}
