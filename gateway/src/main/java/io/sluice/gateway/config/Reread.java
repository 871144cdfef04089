package io.sluice.gateway.config;

import io.sluice.verticles.strategies.policy.Policies;

import java.util.List;

/**
 * The configuration of a running server read again for a reload: the settings, and the policies or
 * the problems that refuse them. Kept apart so that a typo in one policy refuses the policies
 * alone, while the other parts a reload applies still change.
 *
 * @param config         the settings; its policies are only those that were valid
 * @param policyProblems what is wrong with the {@code policies:} section, empty when nothing is
 */
public record Reread(SluiceConfig config, List<String> policyProblems) {

  public Reread {
    policyProblems = List.copyOf(policyProblems);
  }

  /** A configuration that reads again unchanged (tests, embedding). */
  public static Reread of(SluiceConfig config) {
    return new Reread(config, List.of());
  }

  /** @throws ConfigException naming the file, line and problem of each bad policy */
  public Policies policies() throws ConfigException {
    if (!policyProblems.isEmpty()) {
      throw new ConfigException(policyProblems);
    }
    return config.policies();
  }
}
