package io.sluice.protocol.udp.wire;

import io.sluice.protocol.udp.wire.UdpReplyFormatter.KeyVerdict;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class UdpReplyFormatterTest {

  @Test
  void overLimitReply() {
    assertThat(UdpReplyFormatter.overLimit(false, 0, 22, 20)).isEqualTo("ok N 0.0 22.0 20");
    assertThat(UdpReplyFormatter.overLimit(true, 28.1, 22, 20)).isEqualTo("ok Y 28.1 22.0 20");
    assertThat(UdpReplyFormatter.overLimit(false, 2034.3, 2500, 10)).isEqualTo("ok N 2034.3 2500.0 10");
    assertThat(UdpReplyFormatter.overLimit(false, 0.35, 12.25, 19.99)).isEqualTo("ok N 0.3 12.2 19");
    assertThat(UdpReplyFormatter.overLimit(false, 0, 1, 1)).isEqualTo("ok N 0.0 1.0 1");
  }

  @Test
  void statsSizeAndPong() {
    assertThat(UdpReplyFormatter.stats(2, 1, 1, "some-key")).isEqualTo("n_req=2 n_over=1 last_max_rate=1 key=some-key");
    assertThat(UdpReplyFormatter.stats(0, 0, 0, "")).isEqualTo("n_req=0 n_over=0 last_max_rate=0 key=");
    assertThat(UdpReplyFormatter.size(3)).isEqualTo("size=3 keys=3").matches("^size=\\S+ keys=3$");
    assertThat(UdpReplyFormatter.size(0)).isEqualTo("size=0 keys=0");
    assertThat(UdpReplyFormatter.pong()).isEqualTo("pong");
  }

  @Test
  void requestIdPrefix() {
    assertThat(UdpReplyFormatter.withRequestId("000867465", "pong")).isEqualTo("000867465 pong");
    assertThat(UdpReplyFormatter.withRequestId(null, "pong")).isEqualTo("pong");
  }

  @Test
  void checkLimitReplyAsInTheSpecExample() {
    String reply = UdpReplyFormatter.checkLimit(
        List.of("ws ua=foo/1.0", "ws ip=1.2.3.4", "ws global"),
        List.of(new KeyVerdict("ws ua=foo/1.0", "ok N 0.0 1.0 1"),
            new KeyVerdict("ws ip=1.2.3.4", "ok N 0.0 22.0 20"),
            new KeyVerdict("ws global", "ok N 0.0 2500.0 10")));
    assertThat(reply).isEqualTo("ok N 0.0 2500.0 10, [\"ws ua=foo/1.0\",\"ws ip=1.2.3.4\",\"ws global\"], "
        + "[{\"key\":\"ws ua=foo/1.0\",\"over_limit\":\"ok N 0.0 1.0 1\"},"
        + "{\"key\":\"ws ip=1.2.3.4\",\"over_limit\":\"ok N 0.0 22.0 20\"},"
        + "{\"key\":\"ws global\",\"over_limit\":\"ok N 0.0 2500.0 10\"}]");
  }

  @Test
  void checkLimitReplyUsesTheLastEvaluatedKeyAndListsAllKeys() {
    String reply = UdpReplyFormatter.checkLimit(List.of("a", "b", "c"), List.of(new KeyVerdict("a", "ok Y 3.0 2.0 1")));
    assertThat(reply).isEqualTo("ok Y 3.0 2.0 1, [\"a\",\"b\",\"c\"], [{\"key\":\"a\",\"over_limit\":\"ok Y 3.0 2.0 1\"}]");
    assertThatThrownBy(() -> UdpReplyFormatter.checkLimit(List.of("a"), List.of()))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void jsonStringsAreEscapedAsPerlsEncoderDoesAndEncodedInUtf8() {
    String key = "q\"b\\s/\b\t\n\f\r\u0001\u001f\u007f é€";
    String reply = UdpReplyFormatter.checkLimit(List.of(key), List.of(new KeyVerdict(key, "ok N 0.0 1.0 1")));
    byte[] bytes = reply.getBytes(StandardCharsets.ISO_8859_1);
    String decoded = new String(bytes, StandardCharsets.UTF_8);
    assertThat(decoded).startsWith("ok N 0.0 1.0 1, [\"q\\\"b\\\\s/\\b\\t\\n\\f\\r\\u0001\\u001f\u007f é€\"]");
    assertThat(reply.chars()).allMatch(c -> c <= 0xFF);
  }
}
