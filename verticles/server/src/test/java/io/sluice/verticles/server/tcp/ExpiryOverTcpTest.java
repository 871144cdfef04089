package io.sluice.verticles.server.tcp;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.sluice.protocol.binary.codec.Request;
import io.sluice.protocol.binary.codec.RequestEncoder;
import io.sluice.protocol.binary.codec.TtlUnit;
import io.sluice.protocol.binary.codec.ValueSize;
import io.sluice.verticles.server.kit.Conversation;
import io.sluice.verticles.server.kit.Hex;
import io.sluice.verticles.server.kit.SluiceUnderTest;
import io.sluice.verticles.server.kit.TcpConversation;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.function.Function;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/** 1,000 keys of TTL 1 s inserted at once are all gone exactly 1 s later, and their memory is reclaimed. */
class ExpiryOverTcpTest {

  private static final int KEYS = 1_000;

  private final Vertx vertx = Vertx.vertx();
  private final SluiceUnderTest sut = new SluiceUnderTest(vertx);
  private final Conversation conversation = await(TcpConversation.open(vertx, sut.tcpPort()));

  @AfterEach
  void stop() {
    sut.close();
    await(vertx.close());
  }

  @Test
  void everyKeyIsGoneTheInstantItsTtlEnds() {
    assertThat(forEveryKey(key -> new Request.Insert(5, TtlUnit.SECONDS.code(), 1, key))).containsOnly(1);
    assertThat(totalKeys()).isEqualTo(KEYS);

    sut.advance(Duration.ofMillis(999));
    assertThat(queryAll()).as("still live 1 ns before expiry... and 1 ms").allMatch(reply -> reply.equals("01 05 00 04 00 00"));

    sut.advance(Duration.ofMillis(1));
    assertThat(queryAll()).containsOnly("00");
    assertThat(forEveryKey(key -> new Request.Insert(7, TtlUnit.SECONDS.code(), 1, key))).containsOnly(1);
    assertThat(queryAll()).containsOnly("01 07 00 04 01 00");
  }

  @Test
  void theSweepReclaimsExpiredRecordsWhileTheServerKeepsAnswering() {
    assertThat(forEveryKey(key -> new Request.Insert(5, TtlUnit.SECONDS.code(), 1, key))).containsOnly(1);
    sut.advance(Duration.ofSeconds(1));
    // Nobody touches the keys: only the background sweep can reclaim them. Each INFO is a round trip,
    // so this also shows the server answering while it sweeps.
    long keys = totalKeys();
    for (int round = 0; keys > 0 && round < 10_000; round++) {
      keys = totalKeys();
    }
    assertThat(keys).isZero();
  }

  private int[] forEveryKey(Function<byte[], Request> request) {
    ByteBuf frames = Unpooled.buffer();
    for (int i = 0; i < KEYS; i++) {
      RequestEncoder.encode(frames, ValueSize.UINT16, request.apply(key(i)));
    }
    await(conversation.send(ByteBufUtil.getBytes(frames)));
    byte[] replies = await(conversation.receive(KEYS));
    int[] statuses = new int[KEYS];
    for (int i = 0; i < KEYS; i++) {
      statuses[i] = replies[i];
    }
    return statuses;
  }

  /** One QUERY per key in one write; replies are 1 or 6 bytes, read one by one. */
  private java.util.List<String> queryAll() {
    ByteBuf frames = Unpooled.buffer();
    for (int i = 0; i < KEYS; i++) {
      RequestEncoder.encode(frames, ValueSize.UINT16, new Request.Query(key(i)));
    }
    await(conversation.send(ByteBufUtil.getBytes(frames)));
    java.util.List<String> replies = new java.util.ArrayList<>();
    for (int i = 0; i < KEYS; i++) {
      byte[] status = await(conversation.receive(1));
      replies.add(status[0] == 0 ? "00" : "01 " + Hex.of(await(conversation.receive(5))));
    }
    return replies;
  }

  private long totalKeys() {
    await(conversation.send(Hex.bytes("08")));
    byte[] info = await(conversation.receive(433));
    return ByteBuffer.wrap(info).order(ByteOrder.LITTLE_ENDIAN).getLong(345);
  }

  private static byte[] key(int i) {
    return ("ttl-" + i).getBytes(StandardCharsets.US_ASCII);
  }
}
