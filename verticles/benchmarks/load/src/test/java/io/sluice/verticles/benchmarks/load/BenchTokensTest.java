package io.sluice.verticles.benchmarks.load;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;

import static org.assertj.core.api.Assertions.assertThat;

/** The fan-out bench's tokens: JWT compact form, HS256 over the file's secret without its line end. */
class BenchTokensTest {

  @TempDir
  Path dir;

  @Test
  void makesAnHs256TokenGrantingTheChannel() throws Exception {
    String secret = "a-bench-secret-of-thirty-two-byt";
    BenchTokens tokens = BenchTokens.fromFile(Files.writeString(dir.resolve("secret"), secret + "\n"));
    String[] parts = tokens.token("bench-7", "bench.fanout").split("\\.");
    assertThat(parts).hasSize(3);
    Base64.Decoder url = Base64.getUrlDecoder();
    assertThat(new JsonObject(new String(url.decode(parts[0]), StandardCharsets.UTF_8)).getString("alg")).isEqualTo("HS256");
    JsonObject claims = new JsonObject(new String(url.decode(parts[1]), StandardCharsets.UTF_8));
    assertThat(claims.getString("sub")).isEqualTo("bench-7");
    assertThat(claims.getJsonObject("sluice").getJsonArray("subscribe")).containsExactly("bench.fanout");
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
    byte[] expected = mac.doFinal((parts[0] + "." + parts[1]).getBytes(StandardCharsets.US_ASCII));
    assertThat(url.decode(parts[2])).isEqualTo(expected);
    assertThat(parts[2]).doesNotContain("=");
  }
}
