package io.sluice.protocol.udp.rules;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The server-side table that decides, from a key alone, which limit applies (spec §5): stats-only
 * hooks on the key as sent, then rewrite ("munging") steps, then the first matching rule, else the
 * default rule. Immutable and thread-safe.
 */
public final class RuleSet {

  private final List<StatsOnlyHook> statsOnlyHooks;
  private final List<KeyRewrite> rewrites;
  private final List<Rule> rules;
  private final Rule defaultRule;

  /**
   * @param statsOnlyHooks run in order on the original key; each that matches adds a stats-only key
   * @param rewrites       applied in order, each to the result of the previous one
   * @param rules          first match wins; none may be a default rule (null pattern)
   * @param defaultRule    for keys no rule matches; its pattern must be null
   */
  public RuleSet(List<StatsOnlyHook> statsOnlyHooks, List<KeyRewrite> rewrites, List<Rule> rules, Rule defaultRule) {
    this.statsOnlyHooks = List.copyOf(statsOnlyHooks);
    this.rewrites = List.copyOf(rewrites);
    this.rules = List.copyOf(rules);
    this.defaultRule = Objects.requireNonNull(defaultRule, "defaultRule");
    for (int i = 0; i < this.rules.size(); i++) {
      if (this.rules.get(i).isDefault()) {
        throw new IllegalArgumentException("rules[" + i + "] has no pattern; only the default rule may lack one");
      }
    }
    if (!defaultRule.isDefault()) {
      throw new IllegalArgumentException("the default rule must not have a pattern");
    }
  }

  /**
   * No hooks, no rewrites, no rules: every key gets the original's default, {@code ok N 0.0 1.0 1},
   * counted under {@code default}. For a gateway without a rules file.
   */
  public static RuleSet allowAll() {
    return new RuleSet(List.of(), List.of(), List.of(), Rule.allowAllDefault());
  }

  /** Only a default rule (for tests and simple setups: one limit for every key). */
  public static RuleSet singleRule(Rule defaultRule) {
    return new RuleSet(List.of(), List.of(), List.of(), defaultRule);
  }

  public List<StatsOnlyHook> statsOnlyHooks() {
    return statsOnlyHooks;
  }

  public List<KeyRewrite> rewrites() {
    return rewrites;
  }

  public List<Rule> rules() {
    return rules;
  }

  public Rule defaultRule() {
    return defaultRule;
  }

  /** Everything the table decides for {@code key}, as received by {@code over_limit}. */
  public KeyResolution resolve(String key, KeySemantics semantics) {
    List<String> statsOnlyKeys = statsOnlyKeys(key, semantics);
    String rewritten = rewrite(key, semantics);
    Rule rule = ruleFor(rewritten, semantics);
    return new KeyResolution(statsOnlyKeys, rewritten, rule, rule.stateKeyFor(rewritten));
  }

  /** The stats-only keys the hooks derive from the original key, in hook order. */
  public List<String> statsOnlyKeys(String originalKey, KeySemantics semantics) {
    List<String> keys = new ArrayList<>(0);
    for (StatsOnlyHook hook : statsOnlyHooks) {
      hook.statsKeyFor(originalKey, semantics).ifPresent(keys::add);
    }
    return keys;
  }

  /** The key after every rewrite step. */
  public String rewrite(String key, KeySemantics semantics) {
    String rewritten = key;
    for (KeyRewrite rewrite : rewrites) {
      rewritten = rewrite.apply(rewritten, semantics);
    }
    return rewritten;
  }

  /** The first rule whose pattern is found in the (rewritten) key, else the default rule. */
  public Rule ruleFor(String rewrittenKey, KeySemantics semantics) {
    for (Rule rule : rules) {
      if (rule.pattern().isFoundIn(rewrittenKey, semantics)) {
        return rule;
      }
    }
    return defaultRule;
  }
}
