package io.sluice.verticles.server.check;

import io.sluice.verticles.strategies.Quota;
import io.sluice.verticles.strategies.WindowPolicy;
import io.sluice.verticles.strategies.algorithm.FixedWindow;
import io.sluice.protocol.binary.codec.ValueSize;
import io.sluice.verticles.strategies.policy.Policies;
import io.sluice.verticles.strategies.policy.Policy;
import io.sluice.verticles.server.kit.Conversation;
import io.sluice.verticles.server.kit.HttpCalls;
import io.sluice.verticles.server.kit.SluiceUnderTest;
import io.sluice.verticles.server.kit.TcpConversation;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static io.sluice.verticles.server.kit.ChannelFrames.concat;
import static io.sluice.verticles.server.kit.KeyFrames.get;
import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * With {@code --value-size uint8}, an eight-quota fixed window keeps a state of about 300 bytes,
 * which a GET's one-byte length cannot announce: GET answers 00 and LIST shows its size as 255,
 * and the replies after them stay in step. (The gateway refuses such a policy at start; the
 * server holds its ground anyway.)
 */
class StateLongerThanValueSizeTest {

  private static final byte[] WHOAMI = {0x18};
  private static final byte[] LIST = {0x07};

  private final Vertx vertx = Vertx.vertx();
  private final SluiceUnderTest sut = new SluiceUnderTest(vertx, SluiceUnderTest.defaults().withValueSize(ValueSize.UINT8)
      .withPolicies(Policies.of(new Policy("eight", new FixedWindow(new WindowPolicy(eightQuotas()))))));
  private final Conversation tcp = await(TcpConversation.open(vertx, sut.tcpPort()));

  @AfterEach
  void stop() {
    tcp.close();
    sut.close();
    await(vertx.close());
  }

  private static List<Quota> eightQuotas() {
    List<Quota> quotas = new ArrayList<>();
    for (int i = 1; i <= 8; i++) {
      quotas.add(new Quota("quota-number-" + i, 1000 + i, Duration.ofHours(i)));
    }
    return quotas;
  }

  @Test
  void aGetOfAStateTheValueSizeCannotAnnounceAnswersFailureAndTheStreamStaysInStep() {
    try (HttpCalls http = new HttpCalls(vertx, sut.httpPort())) {
      assertThat(http.post("/v1/check", "{\"policy\":\"eight\",\"key\":\"k\"}").status()).isEqualTo(200);
    }

    await(tcp.send(concat(get("rl:eight:k"), WHOAMI)));
    assertThat(await(tcp.receive(1))).as("GET of a ~300-byte state").containsExactly(0);
    assertThat(await(tcp.receive(17))[0]).as("WHOAMI's status, right after").isEqualTo((byte) 1);

    await(tcp.send(concat(LIST, WHOAMI)));
    ByteBuffer head = ByteBuffer.wrap(await(tcp.receive(1 + 8 + 8 + 8))).order(ByteOrder.LITTLE_ENDIAN);
    assertThat(head.get(0)).isEqualTo((byte) 1);
    assertThat(head.getLong(1)).as("fragments").isEqualTo(1);
    assertThat(head.getLong(17)).as("items").isEqualTo(1);
    // K | key type | ttl type | expires_at:u64 | bytes used:u8
    byte[] item = await(tcp.receive(12));
    assertThat(item[1]).as("a buffer").isEqualTo((byte) 1);
    assertThat(item[11] & 0xff).as("bytes used, as large as uint8 goes").isEqualTo(255);
    assertThat(new String(await(tcp.receive(item[0] & 0xff)), StandardCharsets.US_ASCII)).isEqualTo("rl:eight:k");
    assertThat(await(tcp.receive(17))[0]).as("WHOAMI's status, right after").isEqualTo((byte) 1);

    // A fresh client is served.
    try (Conversation fresh = await(TcpConversation.open(vertx, sut.tcpPort()))) {
      await(fresh.send(WHOAMI));
      assertThat(await(fresh.receive(17))[0]).isEqualTo((byte) 1);
    }
  }
}
