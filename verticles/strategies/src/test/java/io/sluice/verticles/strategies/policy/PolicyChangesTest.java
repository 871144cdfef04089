package io.sluice.verticles.strategies.policy;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** A reload's log line and the admin API name the policies it added, changed and removed. */
class PolicyChangesTest {

  private static Policy policy(String name, Map<String, Object> spec) {
    List<String> problems = new ArrayList<>();
    Policy policy = PolicyParser.parse(name, spec, problems);
    assertThat(problems).isEmpty();
    return policy;
  }

  private static Policy window(String name, String limit) {
    return policy(name, Map.of("strategy", "fixed_window", "limit", limit, "window", "1h"));
  }

  @Test
  void namesWhatWasAddedChangedAndRemovedInConfigOrder() {
    Policies before = Policies.of(window("kept", "5"), window("changed", "5"), window("removed", "5"));
    Policies after = Policies.of(window("added", "1"), window("changed", "6"), window("kept", "5"));

    PolicyChanges changes = PolicyChanges.between(before, after);

    assertThat(changes.added()).containsExactly("added");
    assertThat(changes.changed()).containsExactly("changed");
    assertThat(changes.removed()).containsExactly("removed");
    assertThat(changes.describe()).isEqualTo("policies added [added], changed [changed], removed [removed]");
  }

  @Test
  void aChangeBesidesTheStrategyCountsAndTheSameDefinitionReadAgainDoesNot() {
    Policy plain = window("p", "5");
    Policy shadow = policy("p", Map.of("strategy", "fixed_window", "limit", "5", "window", "1h", "shadow", "true"));

    assertThat(PolicyChanges.between(Policies.of(plain), Policies.of(shadow)).changed()).containsExactly("p");
    PolicyChanges same = PolicyChanges.between(Policies.of(plain), Policies.of(window("p", "5")));
    assertThat(same.none()).isTrue();
    assertThat(same.describe()).isEqualTo("policies unchanged");
  }
}
