package io.sluice.verticles.server.udp;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.sluice.verticles.engine.udprate.rate.RateState;
import io.sluice.verticles.engine.udprate.rate.StoredRate;
import io.sluice.protocol.binary.codec.Request;
import io.sluice.protocol.binary.codec.RequestEncoder;
import io.sluice.protocol.binary.codec.TtlUnit;
import io.sluice.protocol.binary.codec.ValueSize;
import io.sluice.verticles.server.kit.Conversation;
import io.sluice.verticles.server.kit.SluiceUnderTest;
import io.sluice.verticles.server.kit.TcpConversation;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The UDP rate state is an ordinary shard record {@code udp:<state key>} (a buffer a Throttr GET
 * reads as {@code u2} and two big-endian doubles, rate and t_last), kept for its TTL — max(300 s, period · max(10, ln(rate / 0.05)))
 * — and then gone, from GET and from get_size alike.
 */
class UdpStateInShardsTest {

  private final Vertx vertx = Vertx.vertx();
  private final SluiceUnderTest sut = new SluiceUnderTest(vertx, SluiceUnderTest.musicBrainzRules());
  private final UdpTestClient client = new UdpTestClient(sut.udpPort());
  private final Conversation tcp = await(TcpConversation.open(vertx, sut.tcpPort()));

  @AfterEach
  void stop() {
    tcp.close();
    client.close();
    sut.close();
    await(vertx.close());
  }

  /** A GET's record, or null when the key has none. */
  private record Buffer(int ttlType, int ttl, String value) {
    RateState state() {
      return StoredRate.decode(value.getBytes(StandardCharsets.ISO_8859_1));
    }
  }

  private Buffer get(String key) {
    send(new Request.Get(key.getBytes(StandardCharsets.ISO_8859_1)));
    byte status = await(tcp.receive(1))[0];
    if (status == 0) {
      return null;
    }
    assertThat(status).isEqualTo((byte) 1);
    ByteBuffer head = ByteBuffer.wrap(await(tcp.receive(5))).order(ByteOrder.LITTLE_ENDIAN);
    int ttlType = head.get() & 0xFF;
    int ttl = head.getShort() & 0xFFFF;
    int length = head.getShort() & 0xFFFF;
    return new Buffer(ttlType, ttl, new String(await(tcp.receive(length)), StandardCharsets.ISO_8859_1));
  }

  private void send(Request request) {
    ByteBuf frame = Unpooled.buffer();
    RequestEncoder.encode(frame, ValueSize.UINT16, request);
    await(tcp.send(ByteBufUtil.getBytes(frame)));
  }

  private double nowSeconds() {
    return sut.clock().epochNanos() / 1e9;
  }

  @Test
  void aThrottrGetSeesTheRateStateUnderTheUdpNamespace() {
    assertThat(get("udp:ws ip=1.2.3.4")).isNull();
    double start = nowSeconds();
    for (int i = 0; i < 3; i++) {
      client.request("over_limit ws ip=1.2.3.4");
    }
    Buffer state = get("udp:ws ip=1.2.3.4");
    assertThat(state.ttlType()).isEqualTo(TtlUnit.SECONDS.code());
    assertThat(state.ttl()).isEqualTo(300);
    assertThat(state.value()).hasSize(18).startsWith("u2");
    assertThat(state.state().tLastSeconds()).isEqualTo(start);
    assertThat(state.state().rate()).as("two same-instant increments of 1.000000083").isBetween(2.0, 2.000001);

    sut.advance(Duration.ofSeconds(10));
    assertThat(get("udp:ws ip=1.2.3.4").ttl()).isEqualTo(290);
    assertThat(client.request("over_limit ws ip=1.2.3.4")).isEqualTo("ok N 2.0 22.0 20");
    Buffer updated = get("udp:ws ip=1.2.3.4");
    assertThat(updated.ttl()).as("each write renews the TTL").isEqualTo(300);
    assertThat(updated.state().tLastSeconds()).isEqualTo(nowSeconds());
  }

  @Test
  void stateIsKeptUnderTheRewrittenKey() {
    assertThat(client.request("over_limit ws ip=132.185.7.7")).isEqualTo("ok N 0.0 300.0 20");
    assertThat(get("udp:ws ip=132.185.7.7")).isNull();
    assertThat(get("udp:ws cust=bbc").state()).isEqualTo(new RateState(nowSeconds(), 0.0));
    client.request("over_limit anything else");
    assertThat(get("udp:anything else")).as("the default rule keeps no state").isNull();
    client.request("over_limit Jaikoz/1.0");
    assertThat(get("udp:jaikoz").state().rate()).as("the stats-only key").isZero();
  }

  @Test
  void stateExpiresAfterItsTtlAndGetSizeDrops() {
    client.request("over_limit ws ip=1.1.1.1");
    client.request("over_limit ws ip=2.2.2.2");
    client.request("over_limit ws global");
    assertThat(client.size()).isEqualTo(3);
    sut.advance(Duration.ofSeconds(100));
    assertThat(client.request("over_limit ws ip=2.2.2.2")).startsWith("ok N ");

    sut.advance(Duration.ofMillis(199_999));
    assertThat(client.size()).as("299.999 s: all still live").isEqualTo(3);
    sut.advance(Duration.ofMillis(1));
    assertThat(client.size()).as("300 s: the two untouched keys are gone").isEqualTo(1);
    assertThat(get("udp:ws ip=1.1.1.1")).isNull();
    assertThat(get("udp:ws global")).isNull();
    assertThat(get("udp:ws ip=2.2.2.2").ttl()).isEqualTo(100);

    sut.advance(Duration.ofSeconds(100));
    assertThat(client.size()).isZero();
    assertThat(client.request("over_limit ws ip=1.1.1.1")).as("an expired key starts afresh").isEqualTo("ok N 0.0 22.0 20");
    assertThat(client.size()).isEqualTo(1);
  }

  @Test
  void getSizeCountsOnlyUdpRecords() {
    send(new Request.Insert(10, TtlUnit.SECONDS.code(), 60, "plain counter".getBytes(StandardCharsets.US_ASCII)));
    send(new Request.Set(TtlUnit.SECONDS.code(), 60, "udpx".getBytes(StandardCharsets.US_ASCII), new byte[] {1}));
    assertThat(await(tcp.receive(2))).containsExactly(1, 1);
    assertThat(client.size()).isZero();
    client.request("over_limit ws ip=1.2.3.4");
    assertThat(client.size()).isEqualTo(1);
  }

  @Test
  void unusableStateGivesNoReplyAndTheEndpointKeepsAnswering() {
    // A Throttr client put a counter, and another a foreign buffer, where UDP keeps its state.
    send(new Request.Insert(10, TtlUnit.SECONDS.code(), 60, "udp:ws ip=7.7.7.7".getBytes(StandardCharsets.ISO_8859_1)));
    send(new Request.Set(TtlUnit.SECONDS.code(), 60, "udp:ws ip=8.8.8.8".getBytes(StandardCharsets.ISO_8859_1),
        "not a rate".getBytes(StandardCharsets.US_ASCII)));
    assertThat(await(tcp.receive(2))).containsExactly(1, 1);
    client.assertNoReply("over_limit ws ip=7.7.7.7");
    client.assertNoReply("over_limit ws ip=8.8.8.8");
    assertThat(client.request("over_limit ws ip=9.9.9.9")).isEqualTo("ok N 0.0 22.0 20");
  }

  /**
   * A UDP key may have up to 1,000 bytes, but a LIST item names its key after a one-byte length:
   * such a state is left out of LIST (and STATS) rather than announced with a cut length that
   * would put the client's reading out of step.
   */
  @Test
  void aStateWhoseKeyIsLongerThan255BytesIsLeftOutOfList() {
    assertThat(client.request("over_limit " + "x".repeat(300) + " ip=132.185.1.1")).isEqualTo("ok N 0.0 300.0 20");
    assertThat(client.request("over_limit ws ip=1.2.3.4")).isEqualTo("ok N 0.0 22.0 20");
    assertThat(client.size()).isEqualTo(2);

    await(tcp.send(new byte[] {0x07, 0x18})); // LIST, then WHOAMI
    ByteBuffer head = ByteBuffer.wrap(await(tcp.receive(1 + 8 + 8 + 8))).order(ByteOrder.LITTLE_ENDIAN);
    assertThat(head.get(0)).isEqualTo((byte) 1);
    assertThat(head.getLong(17)).as("items").isEqualTo(1);
    byte[] item = await(tcp.receive(13)); // K | key type | ttl type | expires_at:u64 | bytes used:u16
    assertThat(new String(await(tcp.receive(item[0] & 0xff)), StandardCharsets.ISO_8859_1)).isEqualTo("udp:ws ip=1.2.3.4");
    assertThat(await(tcp.receive(17))[0]).as("WHOAMI's status, right after").isEqualTo((byte) 1);
  }
}
