package io.sluice.verticles.server.fuzz;

import io.sluice.protocol.binary.client.ThrottrClient;
import io.sluice.protocol.binary.client.ThrottrClientOptions;
import io.sluice.protocol.binary.codec.TtlUnit;
import io.sluice.verticles.server.kit.HttpCalls;
import io.sluice.verticles.server.kit.JsonWebSocket;
import io.sluice.verticles.server.kit.SluiceUnderTest;
import io.sluice.verticles.strategies.Quota;
import io.sluice.verticles.strategies.WindowPolicy;
import io.sluice.verticles.strategies.algorithm.FixedWindow;
import io.sluice.verticles.strategies.policy.Policies;
import io.sluice.verticles.strategies.policy.Policy;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetSocket;
import io.vertx.core.buffer.Buffer;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Random input through real sockets, on one server for every try: WebSocket JSON commands get an
 * acknowledgement or an error and the connection stays open; check API bodies get a defined answer,
 * never a 500; random Throttr bytes from several connections at once are answered or closed, and a
 * fresh client is then served.
 */
class FrontsFuzzTest {

  private static final Set<Integer> CHECK_ANSWERS = Set.of(200, 400, 404, 413, 415, 422, 429);

  private static Vertx vertx;
  private static SluiceUnderTest sut;
  private static HttpCalls http;

  @BeforeContainer
  static void start() {
    vertx = Vertx.vertx();
    sut = new SluiceUnderTest(vertx, SluiceUnderTest.defaults().withPolicies(Policies.of(
        new Policy("api", new FixedWindow(WindowPolicy.of(new Quota("default", 1_000_000, Duration.ofMinutes(1))))))));
    http = new HttpCalls(vertx, sut.httpPort());
  }

  @AfterContainer
  static void stop() {
    http.close();
    sut.close();
    await(vertx.close());
  }

  @Property
  void webSocketCommandsAreAnsweredAndTheConnectionStays(@ForAll("jsonCommands") String command) {
    JsonWebSocket socket = await(JsonWebSocket.open(vertx, sut.httpPort()));
    try {
      await(socket.sendText(command));
      JsonObject answer = await(socket.next());
      assertThat(answer.getString("event")).isIn("ack", "error", "message");
      await(socket.send(new JsonObject().put("op", "subscribe").put("channel", "still-open")));
      assertThat(await(socket.next()).getString("event")).as("the connection stays open").isIn("ack", "message");
    } finally {
      socket.close();
    }
  }

  @Property
  void checkBodiesGetADefinedAnswer(@ForAll("checkBodies") String body) {
    HttpCalls.Answer answer = http.post("/v1/check", body);
    assertThat(answer.status()).as(body).isIn(CHECK_ANSWERS);
  }

  @Property(tries = 30)
  void randomThrottrBytesFromSeveralConnectionsLeaveTheServerServing(
      @ForAll("throttrStreams") List<byte[]> streams) {
    NetClient client = vertx.createNetClient();
    List<Future<Void>> done = new ArrayList<>();
    for (byte[] stream : streams) {
      done.add(client.connect(sut.tcpPort(), "127.0.0.1").compose((NetSocket connection) -> {
        connection.handler(ignored -> { });
        // The server reads what was sent whether or not the client stays: a frame cut short may wait for ever.
        return connection.write(Buffer.buffer(stream)).compose(v -> connection.close());
      }));
    }
    await(Future.join(done).otherwiseEmpty());
    await(client.close());
    ThrottrClient fresh = await(ThrottrClient.connect(vertx, new ThrottrClientOptions().setPort(sut.tcpPort())));
    assertThat(await(fresh.insert("fresh", 1, TtlUnit.SECONDS, 60))).isNotNull();
    await(fresh.close());
  }

  @Provide
  Arbitrary<String> jsonCommands() {
    Arbitrary<Object> values = Arbitraries.oneOf(Arbitraries.strings().ofMaxLength(40).map(s -> s),
        Arbitraries.integers().map(i -> i), Arbitraries.of(true, false).map(b -> b), Arbitraries.just(null),
        Arbitraries.of("subscribe", "unsubscribe", "publish", "auth", "base64", "news").map(s -> s));
    Arbitrary<String> fields = Arbitraries.oneOf(Arbitraries.of("op", "channel", "data", "encoding", "id", "token"),
        Arbitraries.strings().ofMaxLength(6));
    Arbitrary<String> objects = Arbitraries.maps(fields, values).ofMaxSize(6)
        .map(map -> new JsonObject(new java.util.HashMap<>(map)).encode());
    // Not JSON objects at all: each also gets an error.
    Arbitrary<String> others = Arbitraries.oneOf(Arbitraries.strings().ofMaxLength(60), Arbitraries.of("[]", "1", "null", "\"x\""));
    return Arbitraries.frequencyOf(net.jqwik.api.Tuple.of(4, objects), net.jqwik.api.Tuple.of(1, others));
  }

  @Provide
  Arbitrary<String> checkBodies() {
    Arbitrary<Object> values = Arbitraries.oneOf(Arbitraries.strings().ofMaxLength(40).map(s -> s),
        Arbitraries.longs().map(l -> l), Arbitraries.doubles().map(d -> d), Arbitraries.just(null),
        Arbitraries.of("api", "nope", "/path", "-1", "0").map(s -> s), Arbitraries.of(true).map(b -> b));
    Arbitrary<String> fields = Arbitraries.oneOf(Arbitraries.of("policy", "key", "cost", "path"),
        Arbitraries.strings().ofMaxLength(6));
    Arbitrary<String> objects = Arbitraries.maps(fields, values).ofMaxSize(5)
        .map(map -> new JsonObject(new java.util.HashMap<>(map)).encode());
    return Arbitraries.frequencyOf(net.jqwik.api.Tuple.of(4, objects),
        net.jqwik.api.Tuple.of(1, Arbitraries.strings().ofMaxLength(60)));
  }

  @Provide
  Arbitrary<List<byte[]>> throttrStreams() {
    // Type bytes of every request and of none, then anything: frames of every kind, cut anywhere.
    Arbitrary<byte[]> frame = Arbitraries.bytes().array(byte[].class).ofMinSize(1).ofMaxSize(300);
    Arbitrary<byte[]> stream = frame.list().ofMinSize(1).ofMaxSize(10).map(frames -> {
      java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
      frames.forEach(out::writeBytes);
      return out.toByteArray();
    });
    return stream.list().ofMinSize(2).ofMaxSize(6);
  }
}
