package io.sluice.verticles.server.dashboard;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.sluice.protocol.binary.codec.Request;
import io.sluice.protocol.binary.codec.RequestEncoder;
import io.sluice.protocol.binary.codec.TtlUnit;
import io.sluice.protocol.binary.codec.ValueSize;
import io.sluice.verticles.server.kit.Conversation;
import io.sluice.verticles.server.kit.Hex;
import io.sluice.verticles.server.kit.HttpCalls;
import io.sluice.verticles.server.kit.HttpCalls.Answer;
import io.sluice.verticles.server.kit.KeyFrames;
import io.sluice.verticles.server.kit.SluiceUnderTest;
import io.sluice.verticles.server.kit.TcpConversation;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 12 over real sockets: ten deep pages of the keys table asked for at once, over 200,000
 * keys, must neither stall the shards nor hold a copy of the keys. A page by offset past
 * {@link KeyRoutes#MAX_OFFSET} is refused at once; a page by cursor costs the same at any depth
 * and walks the shards in slices, so a fresh Throttr client is answered meanwhile (the deadline
 * bounds liveness, it is not a speed figure).
 */
class KeyScansUnderLoadTest {

  private static final int KEYS = 200_000;
  private static final int PAGES = 10;
  private static final long FRESH_CLIENT_DEADLINE_SECONDS = 10;

  private final Vertx vertx = Vertx.vertx();
  private final SluiceUnderTest sut = new SluiceUnderTest(vertx);
  private final HttpCalls http = new HttpCalls(vertx, sut.httpPort());

  @AfterEach
  void stop() {
    http.close();
    sut.close();
    await(vertx.close());
  }

  private static String key(int n) {
    return new String(keyBytes(n), StandardCharsets.US_ASCII);
  }

  /** key:0000000 and on, without String.format's cost over 200,000 keys. */
  private static byte[] keyBytes(int n) {
    byte[] key = "key:0000000".getBytes(StandardCharsets.US_ASCII);
    for (int i = key.length - 1, rest = n; rest > 0; i--, rest /= 10) {
      key[i] = (byte) ('0' + rest % 10);
    }
    return key;
  }

  private static String cursorAfter(String key) {
    return Base64.getUrlEncoder().withoutPadding().encodeToString(key.getBytes(StandardCharsets.US_ASCII));
  }

  private List<Future<Answer>> concurrently(String uri) {
    List<Future<Answer>> answers = new ArrayList<>();
    for (int i = 0; i < PAGES; i++) {
      answers.add(http.sendAsync(HttpMethod.GET, uri, null));
    }
    return answers;
  }

  private void assertAFreshClientIsServed(String name) throws Exception {
    try (Conversation fresh = await(TcpConversation.open(vertx, sut.tcpPort()))) {
      ByteArrayOutputStream frames = new ByteArrayOutputStream();
      frames.writeBytes(KeyFrames.insert(name, 3, 60));
      frames.writeBytes(KeyFrames.query(name));
      await(fresh.send(frames.toByteArray()));
      byte[] replies = fresh.receive(1 + 6).toCompletionStage().toCompletableFuture()
          .get(FRESH_CLIENT_DEADLINE_SECONDS, TimeUnit.SECONDS);
      assertThat(Hex.of(replies)).isEqualTo("01 01 03 00 04 3c 00");
    }
  }

  private static List<String> keysOf(JsonObject page) {
    return page.getJsonArray("items").stream().map(item -> ((JsonObject) item).getString("key")).toList();
  }

  @Test
  void deepPagesNeitherStallTheShardsNorCopyTheKeys() throws Exception {
    try (Conversation loader = await(TcpConversation.open(vertx, sut.tcpPort()))) {
      ByteBuf frames = Unpooled.buffer(KEYS * 18);
      for (int i = 0; i < KEYS; i++) {
        RequestEncoder.encode(frames, ValueSize.UINT16, new Request.Insert(5, TtlUnit.SECONDS.code(), 600, keyBytes(i)));
      }
      await(loader.send(ByteBufUtil.getBytes(frames)));
      assertThat(await(loader.receive(KEYS))).containsOnly(1);
    }

    List<Future<Answer>> tooDeep = concurrently("/api/keys?q=key&offset=1000000");
    assertAFreshClientIsServed("fresh-during-deep-offsets");
    for (Future<Answer> answer : tooDeep) {
      Answer refused = await(answer);
      assertThat(refused.status()).isEqualTo(400);
      assertThat(refused.json().getString("error")).contains("'offset'", "'cursor'");
    }

    List<Future<Answer>> pages = concurrently("/api/keys?q=key&limit=500&cursor=" + cursorAfter(key(KEYS - 1_000)));
    assertAFreshClientIsServed("fresh-during-scans");
    int served = 0;
    for (Future<Answer> answer : pages) {
      Answer page = await(answer);
      if (page.status() == 503) {
        assertThat(page.header("Retry-After")).isEqualTo("1");
        assertThat(page.json().getString("error")).contains("busy");
        continue;
      }
      assertThat(page.status()).as(page.body()).isEqualTo(200);
      JsonObject json = page.json();
      assertThat(json.getLong("total")).isEqualTo(KEYS);
      assertThat(json.getLong("offset")).isEqualTo(KEYS - 1_000 + 1);
      assertThat(keysOf(json)).hasSize(500).startsWith(key(KEYS - 999)).endsWith(key(KEYS - 500));
      assertThat(json.getString("next")).isEqualTo(cursorAfter(key(KEYS - 500)));
      served++;
    }
    assertThat(served).as("pages served while at most " + KeyScans.AT_ONCE + " ran at once").isPositive();

    JsonObject last = http.get("/api/keys?q=key&limit=500&cursor=" + cursorAfter(key(KEYS - 500))).json();
    assertThat(keysOf(last)).hasSize(499).endsWith(key(KEYS - 1));
    assertThat(last.getValue("next")).isNull();
    assertAFreshClientIsServed("fresh-after-scans");
  }
}
