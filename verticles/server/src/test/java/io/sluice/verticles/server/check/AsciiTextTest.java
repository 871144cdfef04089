package io.sluice.verticles.server.check;

import io.sluice.verticles.strategies.Decision;
import io.sluice.verticles.strategies.Quota;
import io.sluice.verticles.strategies.Result;
import io.sluice.verticles.strategies.WindowPolicy;
import io.sluice.verticles.strategies.algorithm.FixedWindow;
import io.sluice.verticles.strategies.policy.KeyExtractor;
import io.sluice.verticles.strategies.policy.OnFull;
import io.sluice.verticles.strategies.policy.Policy;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The answer's fields and body written from prepared bytes: every number as {@link Long#toString}
 * writes it, and the RateLimit field as the strings built it before (the check tests over HTTP
 * read the whole answers).
 */
class AsciiTextTest {

  @Test
  void writesEveryNumberAsLongToStringDoes() {
    long[] numbers = {0, 1, 9, 10, 99, 100, 4_294_967_295L, 999_999_999_999_999_999L, 1_000_000_000_000_000_000L,
        Long.MAX_VALUE, -1, -10, Long.MIN_VALUE + 1, Long.MIN_VALUE};
    AsciiText text = new AsciiText(1);
    for (long number : numbers) {
      assertThat(text.clear().append(number).toString()).isEqualTo(Long.toString(number));
    }
  }

  @Test
  void growsPastItsCapacityAndKeepsWhatItHolds() {
    AsciiText text = new AsciiText(2);
    text.append(AsciiText.ascii("{\"limit\":")).append(Long.MAX_VALUE).append(AsciiText.ascii("}"));
    String expected = "{\"limit\":" + Long.MAX_VALUE + "}";
    assertThat(text.toString()).isEqualTo(expected);
    assertThat(text.toBuffer().toString(StandardCharsets.US_ASCII)).isEqualTo(expected);
    assertThat(text.toAsciiString().toString()).isEqualTo(expected);
  }

  @Test
  void aBufferOrFieldTakenIsNotChangedByTheNextWrite() {
    AsciiText text = new AsciiText(16);
    var field = text.append(12).toAsciiString();
    var body = text.toBuffer();
    text.clear().append(34);
    assertThat(field.toString()).isEqualTo("12");
    assertThat(body.toString()).isEqualTo("12");
  }

  @Test
  void rateLimitFieldsOfSeveralQuotas() {
    Policy policy = new Policy("api", new FixedWindow(WindowPolicy.of(new Quota("minute", 100, Duration.ofMinutes(1)),
        new Quota("hour", 1000, Duration.ofHours(1)))), KeyExtractor.PARAM, false, false, OnFull.ALLOW);
    RateLimitFields fields = new RateLimitFields(policy);
    long now = 5_000_000_000L;
    Decision decision = Decision.of(new Result("minute", true, 100, 99, now + 59_000_000_001L, 0),
        new Result("hour", true, 1000, 999, now - 1, 0));

    assertThat(fields.policyField().toString()).isEqualTo("\"api:minute\";q=100;w=60, \"api:hour\";q=1000;w=3600");
    assertThat(fields.limitField(decision, now, new AsciiText(4)).toString())
        .isEqualTo("\"api:minute\";r=99;t=60, \"api:hour\";r=999;t=0");
  }
}
