package io.sluice.verticles.strategies.policy;

import io.sluice.verticles.strategies.BucketPolicy;
import io.sluice.verticles.strategies.Quota;
import io.sluice.verticles.strategies.algorithm.Composite;
import io.sluice.verticles.strategies.algorithm.DecayingRate;
import io.sluice.verticles.strategies.algorithm.FixedWindow;
import io.sluice.verticles.strategies.algorithm.Gcra;
import io.sluice.verticles.strategies.algorithm.LeakyBucket;
import io.sluice.verticles.strategies.algorithm.SlidingWindow;
import io.sluice.verticles.strategies.algorithm.TokenBucket;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Policies from plain values (scalars as text, as the YAML file gives them), and every mistake named. */
class PolicyParserTest {

  private final List<String> problems = new ArrayList<>();

  /** A mapping from alternating keys and values, in order. */
  private static Map<String, Object> map(Object... keysAndValues) {
    Map<String, Object> map = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      map.put((String) keysAndValues[i], keysAndValues[i + 1]);
    }
    return map;
  }

  private Policy parse(String name, Object spec) {
    return PolicyParser.parse(name, spec, problems);
  }

  @Test
  void aFixedWindowWithOneQuota() {
    Policy policy = parse("per-key-5-per-10s",
        map("strategy", "fixed_window", "limit", "5", "window", "10s", "key", "param | header:X-Api-Key"));
    assertThat(problems).isEmpty();
    assertThat(policy.strategy()).isInstanceOf(FixedWindow.class);
    assertThat(((FixedWindow) policy.strategy()).policy().quotas())
        .containsExactly(new Quota("default", 5, Duration.ofSeconds(10)));
    assertThat(policy.key().spelling()).isEqualTo("param | header:X-Api-Key");
    assertThat(policy.limits()).containsExactly(new AdvertisedLimit("default", 5, 10));
    assertThat(policy.maxCost()).isEqualTo(5);
    assertThat(policy.legacyHeaders()).isFalse();
    assertThat(policy.shadow()).isFalse();
  }

  @Test
  void aShadowPolicyOnlyWatches() {
    Policy policy = parse("trial", map("strategy", "gcra", "burst", "5", "rate", "1", "shadow", "true"));
    assertThat(problems).isEmpty();
    assertThat(policy.shadow()).isTrue();
    assertThat(parse("bad", map("strategy", "gcra", "burst", "5", "rate", "1", "shadow", "yes"))).isNull();
    assertThat(problems).containsExactly("policy 'bad': 'shadow' must be true or false, was 'yes'");
  }

  @Test
  void aFixedWindowWithQuotasAndLegacyHeaders() {
    Policy policy = parse("plan", map("strategy", "fixed_window", "legacy-headers", "true", "quotas", List.of(
        map("name", "minute", "limit", "100", "window", "1m"),
        map("name", "day", "limit", "10000", "window", "1d"))));
    assertThat(problems).isEmpty();
    assertThat(((FixedWindow) policy.strategy()).policy().quotas()).containsExactly(
        new Quota("minute", 100, Duration.ofMinutes(1)), new Quota("day", 10000, Duration.ofDays(1)));
    assertThat(policy.limits()).containsExactly(new AdvertisedLimit("minute", 100, 60),
        new AdvertisedLimit("day", 10000, 86400));
    assertThat(policy.legacyHeaders()).isTrue();
    assertThat(policy.key()).isSameAs(KeyExtractor.PARAM);
  }

  @Test
  void theThreeBucketsTakeBurstAndRate() {
    assertThat(parse("a", map("strategy", "token_bucket", "burst", "20", "rate", "5")).strategy())
        .isInstanceOfSatisfying(TokenBucket.class, s -> assertThat(s.policy()).isEqualTo(new BucketPolicy(20, 5)));
    assertThat(parse("b", map("strategy", "leaky_bucket", "burst", "10", "rate", "0.5")).strategy())
        .isInstanceOfSatisfying(LeakyBucket.class, s -> assertThat(s.policy()).isEqualTo(new BucketPolicy(10, 0.5)));
    Policy gcra = parse("c", map("strategy", "gcra", "burst", "3", "rate", ".25"));
    assertThat(gcra.strategy()).isInstanceOf(Gcra.class);
    assertThat(gcra.limits()).as("3 per 3/0.25 = 12 s").containsExactly(new AdvertisedLimit("default", 3, 12));
    assertThat(problems).isEmpty();
  }

  @Test
  void aCompositeAndADecayingRate() {
    Policy login = parse("login", map("strategy", "composite",
        "primary", map("limit", "10", "window", "1h"),
        "secondary", map("strategy", "gcra", "burst", "3", "rate", "0.05"),
        "key", List.of("header:X-Real-IP | client-ip", "path:1")));
    assertThat(problems).isEmpty();
    assertThat(login.strategy()).isInstanceOfSatisfying(Composite.class,
        c -> assertThat(c.secondary()).isInstanceOf(Gcra.class));
    assertThat(login.limits()).containsExactly(new AdvertisedLimit("primary_default", 10, 3600),
        new AdvertisedLimit("secondary_default", 3, 60));
    assertThat(login.maxCost()).isEqualTo(3);
    assertThat(login.key().spelling()).isEqualTo("[header:X-Real-IP | client-ip, path:1]");

    Policy decay = parse("ws", map("strategy", "decaying_rate", "limit", "22", "period", "20s", "strict", "true"));
    assertThat(problems).isEmpty();
    assertThat(((DecayingRate) decay.strategy()).policy().strict()).isTrue();
    assertThat(decay.limits()).containsExactly(new AdvertisedLimit("default", 22, 20));
  }

  @Test
  void onFullIsAllowUnlessTheConfigSaysDeny() {
    assertThat(parse("open", map("strategy", "token_bucket", "burst", "3", "rate", "1")).onFull()).isEqualTo(OnFull.ALLOW);
    assertThat(parse("closed", map("strategy", "token_bucket", "burst", "3", "rate", "1", "on-full", "deny")).onFull())
        .isEqualTo(OnFull.DENY);
    assertThat(problems).isEmpty();
    assertThat(parse("x", map("strategy", "token_bucket", "burst", "3", "rate", "1", "on-full", "block"))).isNull();
    assertThat(problems).containsExactly("policy 'x': 'on-full' must be allow or deny, was 'block'");
  }

  @Test
  void everyProblemNamesThePolicyAndTheField() {
    assertThat(parse("x", map("strategy", "token_bucket", "burst", "0", "rate", "fast", "burts", "3"))).isNull();
    assertThat(problems).containsExactly(
        "policy 'x': 'burst' must be a whole number from 1 to 9223372036854775807, was '0'",
        "policy 'x': 'rate' must be a number above 0 (requests per second), such as 5 or 0.5, was 'fast'",
        "policy 'x': unknown field 'burts' for a token_bucket policy (fields: strategy, key, legacy-headers, shadow, on-full, burst, rate)");
  }

  @Test
  void strategyAndShapeMistakes() {
    parse("a", map("limit", "5"));
    parse("b", map("strategy", "sliding_log", "limit", "5"));
    parse("c", "fixed_window");
    parse("bad name!", map("strategy", "gcra", "burst", "1", "rate", "1"));
    parse("e", map("strategy", "fixed_window", "limit", "5"));
    parse("f", map("strategy", "fixed_window", "limit", "5", "window", "10"));
    parse("g", map("strategy", "fixed_window", "limit", "5", "window", "10s", "quotas", List.of()));
    parse("h", map("strategy", "fixed_window", "quotas", List.of(map("name", "m", "limit", "1", "window", "1m"),
        map("name", "h", "limit", "60", "window", "1h"))));
    parse("i", map("strategy", "composite", "primary", map("strategy", "gcra"), "secondary",
        map("strategy", "fixed_window", "limit", "1", "window", "1s")));
    parse("j", map("strategy", "gcra", "burst", "1", "rate", "2000000000"));
    parse("k", map("strategy", "gcra", "burst", "1", "rate", "1", "key", "cookie:sid"));
    parse("l", map("strategy", "decaying_rate", "limit", "2", "period", "1s", "strict", "yes"));
    assertThat(problems).containsExactly(
        "policy 'a': 'strategy' is required",
        "policy 'b': 'strategy' must be one of token_bucket, fixed_window, leaky_bucket, gcra, composite, decaying_rate,"
            + " sliding_window, was 'sliding_log'",
        "policy 'c': the definition must be a mapping of fields, found the string \"fixed_window\"",
        "policy 'bad name!': the name must be 1 to 64 characters of [A-Za-z0-9_.-] (it appears in URLs, headers and"
            + " record keys)",
        "policy 'e': 'window' is required",
        "policy 'f': 'window' must be a positive duration with a unit (500ms, 10s, 5m, 1h, 1d), was '10'",
        "policy 'g': 'quotas' and 'limit'/'window' exclude each other: one quota is limit + window, several are a"
            + " quotas list",
        "policy 'h': quotas m and h have the same rate of 0.016666666666666666 requests per second",
        "policy 'i': 'primary.strategy' must be fixed_window (the only primary a composite takes), was 'gcra'",
        "policy 'i': 'secondary.strategy' must be one of token_bucket, leaky_bucket, gcra, was 'fixed_window'",
        "policy 'j': GCRA rate must be at most 1e9 per second, was 2.0E9",
        "policy 'k': 'key': unknown key source 'cookie:sid'; use param, header:NAME, client-ip, path:N or literal:TEXT",
        "policy 'l': 'strict' must be true or false, was 'yes'");
  }

  @Test
  void aSlidingWindowTakesALimitAndAWindow() {
    Policy policy = parse("s", map("strategy", "sliding_window", "limit", "100", "window", "15m"));
    assertThat(policy.strategy()).isInstanceOf(SlidingWindow.class);
    assertThat(((SlidingWindow) policy.strategy()).policy()).isEqualTo(new Quota("default", 100, Duration.ofMinutes(15)));
    assertThat(PolicyParameters.of(policy.strategy())).containsExactly(
        Map.entry("strategy", "sliding_window"), Map.entry("limit", 100L), Map.entry("window", "15m"));
    assertThat(policy.limits()).containsExactly(new AdvertisedLimit("default", 100, 900));
    parse("t", map("strategy", "sliding_window", "limit", "5", "window", "1s", "quotas", List.of()));
    assertThat(problems).containsExactly(
        "policy 't': unknown field 'quotas' for a sliding_window policy (fields: strategy, key, legacy-headers, shadow,"
            + " on-full, limit, window)");
  }

  @Test
  void compositeSidesAreNamedWithTheirPath() {
    parse("c", map("strategy", "composite", "primary", map("quotas", List.of(map("name", "m", "limit", "x",
        "window", "1m"))), "secondary", map("strategy", "token_bucket", "burst", "2")));
    assertThat(problems).containsExactly(
        "policy 'c': 'primary.quotas[0].limit' must be a whole number from 1 to 9223372036854775807, was 'x'",
        "policy 'c': 'secondary.rate' is required");
  }
}
