package io.sluice.protocol.udp.rules;

import java.util.List;

/**
 * What the rule table decides for one {@code over_limit} key.
 *
 * @param statsOnlyKeys keys that get a stats-only use first, in order (from the original key)
 * @param rewrittenKey  the key after all rewrite steps
 * @param rule          the first rule matching {@code rewrittenKey}, or the default rule
 * @param stateKey      the key rate state and statistics are kept under
 */
public record KeyResolution(List<String> statsOnlyKeys, String rewrittenKey, Rule rule, String stateKey) {

  public KeyResolution {
    statsOnlyKeys = List.copyOf(statsOnlyKeys);
  }

  public boolean usedDefaultRule() {
    return rule.isDefault();
  }
}
