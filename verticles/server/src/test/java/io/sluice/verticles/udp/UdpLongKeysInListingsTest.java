package io.sluice.verticles.udp;

import io.sluice.verticles.kit.Conversation;
import io.sluice.verticles.kit.SluiceUnderTest;
import io.sluice.verticles.kit.TcpConversation;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

import static io.sluice.verticles.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A UDP key may have up to 1,000 bytes, but a LIST item names its key after a one-byte length.
 * Such a state is left out of LIST (and STATS) instead of being announced with a cut length that
 * would put the client's reading out of step.
 */
class UdpLongKeysInListingsTest {

  private static final byte[] LIST_THEN_WHOAMI = {0x07, 0x18};

  private final Vertx vertx = Vertx.vertx();
  private final SluiceUnderTest sut = new SluiceUnderTest(vertx, MusicBrainzRulesFile.load());
  private final UdpTestClient udp = new UdpTestClient(sut.udpPort());
  private final Conversation tcp = await(TcpConversation.open(vertx, sut.tcpPort()));

  @AfterEach
  void stop() {
    tcp.close();
    udp.close();
    sut.close();
    await(vertx.close());
  }

  @Test
  void aStateWhoseKeyIsLongerThan255BytesIsLeftOutOfList() {
    assertThat(udp.request("over_limit " + "x".repeat(300) + " ip=132.185.1.1")).isEqualTo("ok N 0.0 300.0 20");
    assertThat(udp.request("over_limit ws ip=1.2.3.4")).isEqualTo("ok N 0.0 22.0 20");
    assertThat(udp.size()).isEqualTo(2);

    await(tcp.send(LIST_THEN_WHOAMI));
    ByteBuffer head = ByteBuffer.wrap(await(tcp.receive(1 + 8 + 8 + 8))).order(ByteOrder.LITTLE_ENDIAN);
    assertThat(head.get(0)).isEqualTo((byte) 1);
    assertThat(head.getLong(17)).as("items").isEqualTo(1);
    byte[] item = await(tcp.receive(13)); // K | key type | ttl type | expires_at:u64 | bytes used:u16
    assertThat(new String(await(tcp.receive(item[0] & 0xff)), StandardCharsets.ISO_8859_1)).isEqualTo("udp:ws ip=1.2.3.4");
    assertThat(await(tcp.receive(17))[0]).as("WHOAMI's status, right after").isEqualTo((byte) 1);
  }
}
