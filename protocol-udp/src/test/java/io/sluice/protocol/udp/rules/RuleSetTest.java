package io.sluice.protocol.udp.rules;

import org.junit.jupiter.api.Test;

import java.util.List;

import static io.sluice.protocol.udp.rules.KeySemantics.BYTES;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RuleSetTest {

  @Test
  void allowAllIsTheOriginalsDefault() {
    RuleSet rules = RuleSet.allowAll();
    KeyResolution resolution = rules.resolve("ws ip=1.2.3.4", BYTES);
    assertThat(resolution.usedDefaultRule()).isTrue();
    assertThat(resolution.stateKey()).isEqualTo("default");
    Rule rule = resolution.rule();
    assertThat(rule.fixedReply()).isEqualTo(new FixedReply(false, 0));
    assertThat(rule.limit()).isEqualTo(1);
    assertThat(rule.periodSeconds()).isEqualTo(1);
    assertThat(rule.keepStats()).isTrue();
  }

  @Test
  void constructorsGuardTheirInvariants() {
    assertThatThrownBy(() -> Rule.limit("x", 1, 0, true)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Rule.limit("x", Double.NaN, 1, true)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new RuleSet(List.of(), List.of(), List.of(Rule.forAnyKey(1, 1, true)), Rule.allowAllDefault()))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> RuleSet.singleRule(Rule.limit("x", 1, 1, true))).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> KeyRewrite.firstOccurrence("a", "$")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> KeyRewrite.firstOccurrence("a", "\\")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> KeyRewrite.firstOccurrence("(?<n>a)", "${n}")).isInstanceOf(IllegalArgumentException.class);
    assertThat(KeyRewrite.firstOccurrence("a", "\\$1").apply("xa", BYTES)).isEqualTo("x$1");
  }

  @Test
  void negativeZeroLimitPrintsAsZero() {
    assertThat(Double.doubleToRawLongBits(Rule.forAnyKey(-0.0, 1, true).limit())).isZero();
  }
}
