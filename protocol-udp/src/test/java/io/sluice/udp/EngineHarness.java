package io.sluice.udp;

import io.sluice.udp.rules.RuleSet;
import io.sluice.udp.state.InMemoryStateStore;
import io.sluice.udp.stats.BucketRotation;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** An engine over an in-memory store, driven with text requests on a {@link FakeClock}. */
public final class EngineHarness {

  /** The start of the spec's golden traces (§13.2). */
  public static final double T0 = 1_700_000_000;

  public final FakeClock clock;
  public final InMemoryStateStore store;
  public final UdpEngine engine;
  public final List<String> defaultRuleKeys = new ArrayList<>();
  public final List<String> rejectedCheckLimits = new ArrayList<>();
  public final List<Throwable> failures = new ArrayList<>();

  public EngineHarness(RuleSet rules) {
    this(rules, T0, BucketRotation.ON_ACCESS);
  }

  public EngineHarness(RuleSet rules, double startSeconds, BucketRotation rotation) {
    this.clock = new FakeClock(startSeconds);
    this.store = new InMemoryStateStore(clock::nowMillis);
    this.engine = UdpEngine.builder(rules, store)
        .clock(clock)
        .bucketRotation(rotation)
        .listener(new UdpEngineListener() {
          @Override
          public void defaultRuleUsed(String originalKey) {
            defaultRuleKeys.add(originalKey);
          }

          @Override
          public void checkLimitRejected(String argument, String reason) {
            rejectedCheckLimits.add(reason);
          }

          @Override
          public void requestFailed(Throwable failure) {
            failures.add(failure);
          }
        })
        .build();
  }

  /** The reply to a request given as text (one byte per char), or {@code null} for no reply. */
  public String send(String request) {
    return engine.handle(request.getBytes(StandardCharsets.ISO_8859_1)).orElse(null);
  }

  /** {@code over_limit <key>}'s reply. */
  public String overLimit(String key) {
    return send("over_limit " + key);
  }

  public String stats(String key) {
    return send("get_stats " + key);
  }
}
