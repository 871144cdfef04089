package io.sluice.verticles.engine.session;

import static io.sluice.verticles.engine.session.SessionHarness.CONNECTIONS;
import static io.sluice.verticles.engine.session.SessionHarness.WHOAMI;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.sluice.verticles.engine.instance.ConnectionStats;
import io.sluice.verticles.engine.testsupport.Wire;
import io.sluice.protocol.binary.codec.RequestType;
import io.sluice.protocol.binary.codec.Responses;

import java.time.Duration;
import java.util.Arrays;

import org.junit.jupiter.api.Test;

/** WHOAMI, CONNECTION and CONNECTIONS are answered by the session itself, without any shard (spec §6). */
class LocalAnswersTest {

  private final SessionHarness h = new SessionHarness(2);

  private static int counterOffset(RequestType type) {
    return 1 + 93 + 8 * Responses.CONNECTION_COUNTER_ORDER.indexOf(type);
  }

  @Test
  void whoamiAnswersTheConnectionId() {
    h.read(WHOAMI);

    assertThat(h.transport.dispatched).isEmpty();
    byte[] reply = Wire.bytes(h.transport.writes.get(0));
    assertThat(reply).hasSize(17);
    assertThat(reply[0]).isEqualTo((byte) 0x01);
    assertThat(Arrays.copyOfRange(reply, 1, 17)).isEqualTo(h.connection.id());
  }

  @Test
  void connectionForOwnIdDescribesThisConnectionIncludingThisRequest() {
    h.read(WHOAMI, WHOAMI);
    h.read("15 " + h.idHex());

    assertThat(h.transport.dispatched).isEmpty();
    byte[] reply = Wire.bytes(h.transport.writes.get(1));
    assertThat(reply).hasSize(1 + Responses.CONNECTION_ITEM_LENGTH);
    assertThat(reply[0]).isEqualTo((byte) 0x01);
    assertThat(Arrays.copyOfRange(reply, 1, 17)).isEqualTo(h.connection.id());
    assertThat(reply[17]).as("TYPE client").isEqualTo((byte) 0x00);
    assertThat(reply[19]).as("IP version").isEqualTo((byte) 0x04);
    assertThat(new String(reply, 20, 9, java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("127.0.0.1");
    assertThat(Unpooled.wrappedBuffer(reply).getUnsignedShortLE(36)).isEqualTo(40_001);
    assertThat(Wire.u64(reply, 38)).isEqualTo(h.instance.startedAtNanos());
    assertThat(Wire.u64(reply, counterOffset(RequestType.WHOAMI))).isEqualTo(2);
    assertThat(Wire.u64(reply, counterOffset(RequestType.CONNECTION))).isEqualTo(1);

    ByteBuf expected = Unpooled.buffer();
    Responses.connection(expected, h.connection.toItem());
    assertThat(h.transport.writes.get(1)).isEqualTo(Wire.hex(expected));
  }

  @Test
  void connectionForAnotherRegisteredConnectionDescribesIt() {
    ConnectionStats other = new ConnectionStats(ConnectionStats.randomId(), ConnectionStats.Protocol.TCP, "10.1.2.3",
        5555, h.clock.epochNanos() + 1);
    h.instance.connections().add(other);

    h.read("15 " + Wire.hex(other.id()));

    ByteBuf expected = Unpooled.buffer();
    Responses.connection(expected, other.toItem());
    assertThat(h.transport.writes).containsExactly(Wire.hex(expected));
  }

  @Test
  void connectionForAnUnknownIdFails() {
    h.read("15" + " 00".repeat(16));

    assertThat(h.transport.writes).containsExactly("00");
  }

  @Test
  void connectionsListsEveryRegisteredConnectionInConnectOrder() {
    h.clock.advance(Duration.ofSeconds(1));
    ConnectionStats other = new ConnectionStats(ConnectionStats.randomId(), ConnectionStats.Protocol.TCP, "10.1.2.3",
        5555, h.clock.epochNanos());
    h.instance.connections().add(other);

    h.read(CONNECTIONS);

    assertThat(h.transport.dispatched).isEmpty();
    byte[] reply = Wire.bytes(h.transport.writes.get(0));
    assertThat(reply).hasSize(9 + 16 + 2 * Responses.CONNECTION_ITEM_LENGTH);
    assertThat(Wire.u64(reply, 1)).as("fragments").isEqualTo(1);
    assertThat(Wire.u64(reply, 9)).as("fragment index").isEqualTo(1);
    assertThat(Wire.u64(reply, 17)).as("items").isEqualTo(2);
    assertThat(Arrays.copyOfRange(reply, 25, 41)).isEqualTo(h.connection.id());
    assertThat(Arrays.copyOfRange(reply, 25 + 237, 41 + 237)).isEqualTo(other.id());
    assertThat(Wire.u64(reply, 25 + counterOffset(RequestType.CONNECTIONS) - 1)).isEqualTo(1);
  }

  @Test
  void localRequestsAreCountedForTheConnectionAndTheInstance() {
    h.read(WHOAMI, CONNECTIONS, WHOAMI);

    assertThat(h.connection.requestCount(RequestType.WHOAMI.code())).isEqualTo(2);
    assertThat(h.connection.requestCount(RequestType.CONNECTIONS.code())).isEqualTo(1);
    assertThat(h.instance.counters().totals()[RequestType.WHOAMI.code()]).isEqualTo(2);
  }
}
