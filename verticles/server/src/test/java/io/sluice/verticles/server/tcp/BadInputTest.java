package io.sluice.verticles.server.tcp;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.sluice.verticles.server.kit.Conversation;
import io.sluice.verticles.server.kit.Hex;
import io.sluice.verticles.server.kit.LogLines;
import io.sluice.verticles.server.kit.SluiceUnderTest;
import io.sluice.verticles.server.kit.TcpConversation;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The adversarial probe's attacks on the Throttr stream (issue 12), over real sockets. Each closes
 * the attacker's connection with ONE log line naming the peer and the reason, after answering
 * every request that came before the bad bytes; a fresh client is served afterwards.
 */
class BadInputTest {

  private static final String WHOAMI = "18";

  private final Vertx vertx = Vertx.vertx();
  private final SluiceUnderTest sut = new SluiceUnderTest(vertx);
  private final LogLines log = new LogLines();

  @AfterEach
  void stop() {
    log.close();
    sut.close();
    await(vertx.close());
  }

  /** {@code depth} uint16 EVENTs with empty channels around {@code inner}: 4 bytes a level. */
  static byte[] nestedEvents(int depth, byte[] inner) {
    ByteBuf frame = Unpooled.wrappedBuffer(inner);
    for (int level = 0; level < depth; level++) {
      int length = frame.readableBytes();
      frame = Unpooled.buffer(length + 4).writeByte(0x19).writeByte(0).writeShortLE(length).writeBytes(frame);
    }
    return ByteBufUtil.getBytes(frame);
  }

  private Conversation open() {
    return await(TcpConversation.open(vertx, sut.tcpPort()));
  }

  private static byte[] concat(byte[]... parts) {
    ByteBuf all = Unpooled.buffer();
    for (byte[] part : parts) {
      all.writeBytes(part);
    }
    return ByteBufUtil.getBytes(all);
  }

  /** Waits for the close, then checks that it cost exactly one log line, naming the peer and the reason. */
  private void assertClosedWithOneLogLine(Conversation attacker, String reason) {
    int port = TcpConversation.localPort(attacker);
    await(attacker.closed());
    assertThat(attacker.unread()).as("bytes after the answers to what came before the bad input").isZero();
    assertThat(log.lines()).containsExactly("WARNING io.sluice.verticles.server.front.FrontConnection: "
        + "closing Throttr connection from 127.0.0.1:" + port + ": " + reason);
  }

  private void assertAFreshClientIsServed() {
    Conversation fresh = open();
    await(fresh.send(Hex.bytes(WHOAMI)));
    assertThat(await(fresh.receive(17))[0]).isEqualTo((byte) 1);
    fresh.close();
  }

  @Test
  void theProbesTwoThousandNestedEventsCloseTheConnectionAfterTheRequestBeforeThem() {
    // 2,023 levels fit in the default 8,096-byte frame; parsing them recursively overflowed the stack,
    // logged a 1,024-line trace and left the connection neither answered nor closed.
    byte[] deepest = nestedEvents(2_023, Hex.bytes(WHOAMI));
    assertThat(deepest.length).isLessThanOrEqualTo(8096);
    Conversation attacker = open();

    await(attacker.send(concat(Hex.bytes(WHOAMI), deepest, Hex.bytes(WHOAMI))));

    assertThat(await(attacker.receive(17))[0]).isEqualTo((byte) 1);
    assertClosedWithOneLogLine(attacker, "EVENT nested more than 8 deep");
    assertAFreshClientIsServed();
  }

  @Test
  void eightNestedEventsAreServed() {
    Conversation client = open();

    await(client.send(nestedEvents(8, Hex.bytes("02 01 6b"))));

    assertThat(Hex.of(await(client.receive(9)))).isEqualTo("01 01 01 01 01 01 01 01 00");
    await(client.send(nestedEvents(8, Hex.bytes(WHOAMI))));
    assertThat(await(client.receive(8 + 17))[8]).isEqualTo((byte) 1);
    assertThat(log.lines()).isEmpty();
  }

  @Test
  void anInsertFollowedByABadByteIsAcknowledgedBeforeTheClose() {
    Conversation attacker = open();

    await(attacker.send(Hex.bytes("01 0a 00 04 3c 00 03 61 62 63 ff")));

    assertThat(Hex.of(await(attacker.receive(1)))).isEqualTo("01");
    assertClosedWithOneLogLine(attacker, "unknown request type 0xff");
    Conversation fresh = open();
    await(fresh.send(Hex.bytes("02 03 61 62 63")));
    assertThat(Hex.of(await(fresh.receive(6)))).isEqualTo("01 0a 00 04 3c 00");
  }
}
