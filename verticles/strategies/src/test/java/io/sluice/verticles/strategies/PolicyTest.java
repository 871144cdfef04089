package io.sluice.verticles.strategies;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.NoSuchElementException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Policy validation (spec §1.4, §3.1–§3.4, §9.1 validation rows) and the result records. */
class PolicyTest {

  private static final Duration MINUTE = Duration.ofMinutes(1);

  @Test
  void bucketPolicyNeedsPositiveBurstAndFinitePositiveRate() {
    assertThat(new BucketPolicy(1, 0.001)).isNotNull();
    for (long burst : new long[] {0, -1}) {
      assertThatThrownBy(() -> new BucketPolicy(burst, 1)).isInstanceOf(IllegalArgumentException.class);
    }
    for (double rate : new double[] {0, -1, Double.NaN, Double.POSITIVE_INFINITY}) {
      assertThatThrownBy(() -> new BucketPolicy(1, rate)).isInstanceOf(IllegalArgumentException.class);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"a", "abc-123_:@.", "default", "Z9+", "ABCDEFGHIJKLMNOPQRSTUVWXYZ_-:.@+", "abcdefghijklmnopqrstuvwxyz0123456789"})
  void validNames(String name) {
    assertThat(Quota.isValidName(name)).isTrue();
    assertThat(new Quota(name, 1, MINUTE).name()).isEqualTo(name);
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "space not allowed", "ünicode", "a|b", "a$b", "tab\t", "slash/"})
  void invalidNames(String name) {
    assertThat(Quota.isValidName(name)).isFalse();
    assertThatThrownBy(() -> new Quota(name, 1, MINUTE)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void namesUpToSixtyFourCharacters() {
    assertThat(Quota.isValidName("k".repeat(64))).isTrue();
    assertThat(Quota.isValidName("k".repeat(65))).isFalse();
    assertThat(Quota.isValidName("k".repeat(70))).isFalse();
  }

  @Test
  void quotaNeedsPositiveLimitAndWindow() {
    assertThatThrownBy(() -> new Quota("q", 0, MINUTE)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Quota("q", -1, MINUTE)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Quota("q", 1, Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Quota("q", 1, Duration.ofSeconds(-1))).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Quota("q", 1, Duration.ofDays(365L * 300))).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void windowPolicyRefusesEqualRates() {
    assertThatThrownBy(() -> WindowPolicy.of(new Quota("a", 1, MINUTE), new Quota("b", 60, Duration.ofHours(1))))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("same rate");
    assertThat(WindowPolicy.of(new Quota("a", 10, Duration.ofHours(1)), new Quota("b", 100, Duration.ofHours(1))))
        .isNotNull();
    assertThatThrownBy(() -> WindowPolicy.of(new Quota("a", 30, Duration.ofMinutes(30)),
        new Quota("b", 60, Duration.ofHours(1)), new Quota("c", 1440, Duration.ofHours(24))))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> WindowPolicy.of(new Quota("a", 5, MINUTE), new Quota("b", 5, MINUTE)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> WindowPolicy.of(new Quota("per_second", 10, Duration.ofSeconds(1)),
        new Quota("equivalent", 20, Duration.ofSeconds(2)))).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void windowPolicyHoldsOneToEightUniquelyNamedQuotas() {
    assertThatThrownBy(() -> new WindowPolicy(List.of())).isInstanceOf(IllegalArgumentException.class);
    Quota[] nine = new Quota[9];
    for (int i = 0; i < 9; i++) {
      nine[i] = new Quota("q" + i, i + 1, MINUTE);
    }
    assertThat(WindowPolicy.of(Arrays.copyOf(nine, 8)).quotas()).hasSize(8);
    assertThatThrownBy(() -> WindowPolicy.of(nine)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> WindowPolicy.of(new Quota("a", 5, MINUTE), new Quota("a", 50, MINUTE)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("duplicate");
  }

  @Test
  void decayPolicyNeedsPositiveLimitAndPeriod() {
    assertThat(new DecayPolicy(22, Duration.ofSeconds(20), true).periodSeconds()).isEqualTo(20.0);
    for (double limit : new double[] {0, -1, Double.NaN, Double.POSITIVE_INFINITY}) {
      assertThatThrownBy(() -> new DecayPolicy(limit, MINUTE, true)).isInstanceOf(IllegalArgumentException.class);
    }
    assertThatThrownBy(() -> new DecayPolicy(1, Duration.ZERO, true)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void resultInvariants() {
    assertThatThrownBy(() -> new Result("x", true, 1, 0, 0, 5)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Result("x", false, 1, -1, 0, 5)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Result("x", false, 1, 0, 0, -5)).isInstanceOf(IllegalArgumentException.class);
    assertThat(new Result("x", false, 1, 0, 0, 5).named("y").name()).isEqualTo("y");
  }

  @Test
  void outcomeInvariants() {
    Decision d = Decision.of(new Result("x", true, 1, 0, 0, 0));
    assertThat(Outcome.unchanged(d).changed()).isFalse();
    assertThat(Outcome.write(d, "42|1", Duration.ofSeconds(1)).changed()).isTrue();
    assertThatThrownBy(() -> new Outcome(d, "42|1", null)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Outcome(d, null, Duration.ofSeconds(1))).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Outcome.write(d, "42|1", Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void theBindingResultGovernsTheHeaders() {
    Result roomy = new Result("minute", true, 5, 4, 100, 0);
    Result tight = new Result("hour", true, 100, 2, 200, 0);
    Decision allowed = Decision.of(roomy, tight);
    assertThat(allowed.allowed()).isTrue();
    assertThat(allowed.binding()).isEqualTo(tight);
    assertThat(allowed.retryAfterNs()).isZero();

    Result shortWait = new Result("minute", false, 5, 0, 100, 10);
    Result longWait = new Result("hour", false, 100, 0, 200, 30);
    Decision denied = Decision.of(roomy, shortWait, longWait);
    assertThat(denied.allowed()).isFalse();
    assertThat(denied.binding()).isEqualTo(longWait);
    assertThat(List.of(denied.limit(), denied.remaining(), denied.resetNs(), denied.retryAfterNs()))
        .containsExactly(100L, 0L, 200L, 30L);
    assertThat(denied.has("hour")).isTrue();
    assertThat(denied.has("day")).isFalse();
    assertThatThrownBy(() -> denied.result("day")).isInstanceOf(NoSuchElementException.class);
    assertThatThrownBy(() -> new Decision(List.of())).isInstanceOf(IllegalArgumentException.class);
  }
}
