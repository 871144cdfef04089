package io.sluice.verticles.server.kit;

import io.sluice.verticles.engine.instance.ConnectionStats;
import io.vertx.core.json.JsonObject;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/** Round trips the channel tests make over and over, on Throttr conversations and JSON WebSockets. */
public final class ChannelCalls {

  /** INFO's TOTAL SUBSCRIPTIONS and TOTAL CHANNELS (offsets 385 and 393). */
  public record Figures(long subscriptions, long channels) {
  }

  /** One CHANNEL entry: a subscription record (40 bytes on the wire). */
  public record Subscriber(String idHex, long subscribedAtNanos, long readBytes, long writeBytes) {
  }

  private ChannelCalls() {
  }

  /** Sends a request and checks the next bytes are exactly the expected reply. */
  public static void expect(Conversation on, byte[] request, byte[] reply) {
    await(on.send(request));
    assertThat(Hex.of(await(on.receive(reply.length)))).as("reply to %s", Hex.of(request)).isEqualTo(Hex.of(reply));
  }

  public static void expect(Conversation on, byte[] request, String replyHex) {
    expect(on, request, Hex.bytes(replyHex));
  }

  /** The next bytes received are exactly these (a push, say). */
  public static void expectReceived(Conversation on, byte[] bytes) {
    assertThat(Hex.of(await(on.receive(bytes.length)))).isEqualTo(Hex.of(bytes));
  }

  public static byte[] whoami(Conversation on) {
    await(on.send(Hex.bytes("18")));
    byte[] reply = await(on.receive(17));
    assertThat(reply[0]).isEqualTo((byte) 1);
    return Arrays.copyOfRange(reply, 1, 17);
  }

  public static String whoamiHex(Conversation on) {
    return HexFormat.of().formatHex(whoami(on));
  }

  public static Figures info(Conversation on) {
    await(on.send(Hex.bytes("08")));
    ByteBuffer info = ByteBuffer.wrap(await(on.receive(433))).order(ByteOrder.LITTLE_ENDIAN);
    assertThat(info.get(0)).isEqualTo((byte) 1);
    return new Figures(info.getLong(385), info.getLong(393));
  }

  /**
   * Asks INFO until it shows the figures, for what the server does after a client has gone (it
   * learns of a close asynchronously); each try is a real round trip, and the wait is bounded.
   */
  public static void awaitFigures(Conversation on, Figures expected) {
    long deadline = System.nanoTime() + 10_000_000_000L;
    Figures seen = info(on);
    while (!seen.equals(expected) && System.nanoTime() < deadline) {
      seen = info(on);
    }
    assertThat(seen).isEqualTo(expected);
  }

  /** CHANNEL: the subscription records of a channel in the order they were made; empty when it answers 00. */
  public static List<Subscriber> channel(Conversation on, String channel) {
    await(on.send(ChannelFrames.channel(channel)));
    byte status = await(on.receive(1))[0];
    if (status == 0) {
      return List.of();
    }
    assertThat(status).isEqualTo((byte) 1);
    long count = ByteBuffer.wrap(await(on.receive(8))).order(ByteOrder.LITTLE_ENDIAN).getLong();
    ByteBuffer items = ByteBuffer.wrap(await(on.receive((int) count * 40))).order(ByteOrder.LITTLE_ENDIAN);
    Subscriber[] subscribers = new Subscriber[(int) count];
    for (int i = 0; i < count; i++) {
      byte[] id = new byte[16];
      items.get(id);
      subscribers[i] = new Subscriber(HexFormat.of().formatHex(id), items.getLong(), items.getLong(), items.getLong());
    }
    return List.of(subscribers);
  }

  /** A JSON command and the one reply it gets. */
  public static JsonObject call(JsonWebSocket on, JsonObject command) {
    await(on.send(command));
    return await(on.next());
  }

  /** A JSON round trip with no side effect (auth when no token is configured), so the server has set the connection up. */
  public static void ready(JsonWebSocket on) {
    assertThat(call(on, new JsonObject().put("op", "auth").put("token", ""))).isEqualTo(ChannelCalls.ackAuth(1));
  }

  public static JsonObject ackAuth(int status) {
    return new JsonObject().put("event", "ack").put("op", "auth").put("status", status);
  }

  /** The server's record of the one WebSocket connection not in {@code except} (IDs as hex). */
  public static ConnectionStats webSocketOtherThan(SluiceUnderTest sut, String... except) {
    List<ConnectionStats> found = sut.server().instance().connections().all().stream()
        .filter(c -> c.protocol() == ConnectionStats.Protocol.WEBSOCKET)
        .filter(c -> !List.of(except).contains(c.idHex()))
        .toList();
    assertThat(found).hasSize(1);
    return found.get(0);
  }
}
