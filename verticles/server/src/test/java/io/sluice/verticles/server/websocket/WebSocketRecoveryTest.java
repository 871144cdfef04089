package io.sluice.verticles.server.websocket;

import io.sluice.verticles.engine.channel.ChannelHistory;
import io.sluice.verticles.engine.channel.HistoryLimits;
import io.sluice.verticles.engine.routing.ShardRouter;
import io.sluice.verticles.engine.storage.Eviction;
import io.sluice.verticles.engine.storage.StoreLimits;
import io.sluice.verticles.server.kit.HttpCalls;
import io.sluice.verticles.server.kit.JsonWebSocket;
import io.sluice.verticles.server.kit.SluiceUnderTest;
import io.sluice.verticles.server.listener.ConnectionLimits;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.sluice.protocol.binary.client.ThrottrClient;
import io.sluice.protocol.binary.client.ThrottrClientOptions;
import io.sluice.verticles.engine.persist.FsyncPolicy;
import io.sluice.verticles.server.ServerSettings;
import io.sluice.verticles.server.persistence.PersistenceSettings;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Channel history over real WebSockets ({@code --channel-history}): offsets on every message, a
 * subscribe with {@code since} that recovers exactly what was missed, and the {@code history} op.
 */
class WebSocketRecoveryTest {

  private static final int RACING = 150;
  private final Vertx vertx = Vertx.vertx();
  private final List<JsonWebSocket> clients = new ArrayList<>();
  private SluiceUnderTest sut;

  @AfterEach
  void stop() {
    clients.forEach(JsonWebSocket::close);
    if (sut != null) {
      sut.close();
    }
    await(vertx.close());
  }

  @TempDir
  Path dir;

  private void start(int history) {
    sut = new SluiceUnderTest(vertx, withHistory(history));
  }

  private static ServerSettings withHistory(int history) {
    return SluiceUnderTest.defaults().withLimits(ConnectionLimits.defaults().withHistory(new HistoryLimits(history, 0)));
  }

  private JsonWebSocket open() {
    JsonWebSocket client = await(JsonWebSocket.open(vertx, sut.httpPort()));
    clients.add(client);
    return client;
  }

  private static JsonObject call(JsonWebSocket client, JsonObject command) {
    await(client.send(command));
    return await(client.next());
  }

  private static JsonObject publish(JsonWebSocket publisher, String data) {
    return call(publisher, new JsonObject().put("op", "publish").put("channel", "news").put("data", data));
  }

  private static JsonObject since(long offset, String epoch) {
    return new JsonObject().put("op", "subscribe").put("channel", "news")
        .put("since", new JsonObject().put("offset", offset).put("epoch", epoch));
  }

  @Test
  void aClientThatComesBackGetsExactlyWhatItMissedInOrderOnce() {
    start(200);
    JsonWebSocket first = open();
    JsonWebSocket publisher = open();
    assertThat(call(first, new JsonObject().put("op", "subscribe").put("channel", "news")).getInteger("status")).isEqualTo(1);
    JsonObject ack = publish(publisher, "m0");
    assertThat(ack.getLong("offset")).isEqualTo(1);
    JsonObject seen = await(first.next());
    assertThat(seen.getString("data")).isEqualTo("m0");
    assertThat(seen.getLong("offset")).isEqualTo(1);
    String epoch = seen.getString("epoch");
    assertThat(epoch).hasSize(16).isEqualTo(ack.getString("epoch"));
    first.close();

    for (int i = 1; i <= 100; i++) {
      assertThat(publish(publisher, "m" + i).getLong("offset")).isEqualTo(i + 1);
    }
    JsonWebSocket back = open();
    JsonObject recovered = call(back, since(1, epoch));
    assertThat(recovered.getBoolean("recovered")).isTrue();
    assertThat(recovered.getString("epoch")).isEqualTo(epoch);
    assertThat(recovered.getInteger("status")).isEqualTo(1);
    for (int i = 1; i <= 100; i++) {
      JsonObject message = await(back.next());
      assertThat(message.getString("data")).isEqualTo("m" + i);
      assertThat(message.getLong("offset")).isEqualTo(i + 1);
    }
    publish(publisher, "live");
    assertThat(await(back.next()).getLong("offset")).isEqualTo(102);
    assertThat(back.unreadTexts()).isZero();
  }

  @Test
  void aPublishRacingTheRecoveryIsDeliveredOnceWithoutGaps() {
    start(1000);
    JsonWebSocket publisher = open();
    String epoch = publish(publisher, "first").getString("epoch");
    List<Future<Void>> sent = new ArrayList<>();
    for (int i = 0; i < RACING; i++) {
      sent.add(publisher.send(new JsonObject().put("op", "publish").put("channel", "news").put("data", "r" + i)));
    }
    JsonWebSocket late = open();
    await(late.send(since(1, epoch)));
    await(Future.all(sent));
    JsonObject ack = await(late.next());
    assertThat(ack.getBoolean("recovered")).isTrue();
    for (long offset = 2; offset <= RACING + 1; offset++) {
      JsonObject message = await(late.next());
      assertThat(message.getLong("offset")).isEqualTo(offset);
      assertThat(message.getString("data")).isEqualTo("r" + (offset - 2));
    }
    for (int i = 0; i < RACING; i++) {
      assertThat(await(publisher.next()).getLong("offset")).isEqualTo(i + 2);
    }
    assertThat(publish(publisher, "after").getLong("offset")).isEqualTo(RACING + 2);
    assertThat(await(late.next()).getLong("offset")).isEqualTo(RACING + 2);
    assertThat(late.unreadTexts()).isZero();
  }

  @Test
  void recoverySaysWhenMessagesWereDroppedOrTheEpochChanged() {
    start(5);
    JsonWebSocket publisher = open();
    String epoch = null;
    for (int i = 1; i <= 10; i++) {
      epoch = publish(publisher, "m" + i).getString("epoch");
    }
    JsonWebSocket late = open();
    JsonObject dropped = call(late, since(2, epoch));
    assertThat(dropped.getBoolean("recovered")).isFalse();
    assertThat(dropped.getString("reason")).isEqualTo("messages dropped");
    assertThat(await(late.next()).getLong("offset")).isEqualTo(6);

    JsonWebSocket other = open();
    JsonObject changed = call(other, since(9, "0123456789abcdef"));
    assertThat(changed.getBoolean("recovered")).isFalse();
    assertThat(changed.getString("reason")).isEqualTo("epoch changed");
    assertThat(changed.getString("epoch")).isEqualTo(epoch);
  }

  @Test
  void theHistoryOpReadsTheLatestMessages() {
    start(50);
    JsonWebSocket publisher = open();
    for (int i = 1; i <= 4; i++) {
      publish(publisher, "m" + i);
    }
    JsonObject history = call(publisher, new JsonObject().put("op", "history").put("channel", "news").put("limit", 2).put("id", 7));
    assertThat(history.getString("event")).isEqualTo("history");
    assertThat(history.getString("epoch")).hasSize(16);
    assertThat(history.getInteger("id")).isEqualTo(7);
    JsonArray messages = history.getJsonArray("messages");
    assertThat(messages.stream().map(m -> ((JsonObject) m).getString("data"))).containsExactly("m3", "m4");
    assertThat(messages.getJsonObject(1).getLong("offset")).isEqualTo(4);
    JsonWebSocket subscriber = open();
    call(subscriber, new JsonObject().put("op", "subscribe").put("channel", "news"));
    JsonObject channels = new HttpCalls(vertx, sut.httpPort()).get("/api/channels").json();
    assertThat(channels.getJsonArray("items").stream().map(JsonObject.class::cast)
        .filter(item -> item.getString("name").equals("news")).findFirst().orElseThrow().getInteger("history"))
        .as("the dashboard's history size").isEqualTo(4);
    JsonObject empty = call(publisher, new JsonObject().put("op", "history").put("channel", "quiet"));
    assertThat(empty.getJsonArray("messages")).isEmpty();
    assertThat(empty.getValue("epoch")).isNull();
  }

  @Test
  void anEvictedHistoryIsRecoveredAsAChangedEpoch() {
    sut = new SluiceUnderTest(vertx, withHistory(10)
        .withRecordLimits(new StoreLimits(2, StoreLimits.UNLIMITED, Eviction.VOLATILE_TTL)));
    JsonWebSocket publisher = open();
    String epoch = publish(publisher, "kept").getString("epoch");
    String neighbour = IntStream.range(0, 1000).mapToObj(i -> "other" + i)
        .filter(name -> shardOf(name) == shardOf("news")).findFirst().orElseThrow();
    call(publisher, new JsonObject().put("op", "publish").put("channel", neighbour).put("data", "evicts news"));
    JsonWebSocket late = open();
    JsonObject ack = call(late, since(1, epoch));
    assertThat(ack.getBoolean("recovered")).isFalse();
    assertThat(ack.getString("reason")).isEqualTo("epoch changed");
  }

  /** One record per shard (--max-keys 2 over the 2 shards): a neighbour's history evicts this one's. */
  private static int shardOf(String channel) {
    return ShardRouter.routeOf(ChannelHistory.keyOf(channel.getBytes(java.nio.charset.StandardCharsets.UTF_8)),
        SluiceUnderTest.defaults().shards());
  }

  @Test
  void throttrPublishersAreNumberedToo() {
    start(10);
    JsonWebSocket subscriber = open();
    call(subscriber, new JsonObject().put("op", "subscribe").put("channel", "news"));
    ThrottrClient throttr = await(ThrottrClient.connect(vertx,
        new ThrottrClientOptions().setHost("127.0.0.1").setPort(sut.tcpPort())));
    try {
      assertThat(await(throttr.publish("news", "from tcp"))).isTrue();
      assertThat(await(throttr.publish("news", "again"))).isTrue();
    } finally {
      throttr.close();
    }
    JsonObject first = await(subscriber.next());
    assertThat(first.getString("data")).isEqualTo("from tcp");
    assertThat(first.getLong("offset")).isEqualTo(1);
    assertThat(await(subscriber.next()).getLong("offset")).isEqualTo(2);
  }

  @Test
  void theHistoryAndItsEpochSurviveARestartWithDataDir() {
    ServerSettings persisted = withHistory(10)
        .withPersistence(PersistenceSettings.OFF.withDataDir(dir).withFsync(FsyncPolicy.ALWAYS));
    sut = new SluiceUnderTest(vertx, persisted);
    JsonWebSocket publisher = open();
    String epoch = null;
    for (int i = 1; i <= 3; i++) {
      epoch = publish(publisher, "m" + i).getString("epoch");
    }
    publisher.close();
    sut.close();
    sut = new SluiceUnderTest(vertx, persisted);
    JsonWebSocket back = open();
    JsonObject ack = call(back, since(1, epoch));
    assertThat(ack.getBoolean("recovered")).isTrue();
    assertThat(ack.getString("epoch")).isEqualTo(epoch);
    assertThat(await(back.next()).getString("data")).isEqualTo("m2");
    assertThat(await(back.next()).getLong("offset")).isEqualTo(3);
  }

  @Test
  void withoutHistoryASinceIsAnsweredWithAnError() {
    start(0);
    JsonWebSocket client = open();
    JsonObject answer = call(client, since(1, "0123456789abcdef"));
    assertThat(answer.getString("event")).isEqualTo("error");
    assertThat(answer.getString("reason")).isEqualTo(HistoryCommands.NO_HISTORY);
    JsonObject message = call(client, new JsonObject().put("op", "subscribe").put("channel", "news"));
    assertThat(message.getInteger("status")).isEqualTo(1);
  }
}
