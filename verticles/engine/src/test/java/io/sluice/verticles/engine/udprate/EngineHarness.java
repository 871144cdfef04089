package io.sluice.verticles.engine.udprate;

import io.sluice.verticles.engine.time.ManualClock;
import io.sluice.verticles.engine.udprate.store.InMemoryStateStore;
import io.sluice.verticles.engine.udprate.stats.BucketRotation;
import io.sluice.protocol.udp.rules.RuleSet;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/** An engine over an in-memory store, driven with text requests on a {@link ManualClock}. */
public final class EngineHarness implements UdpEngineKit.Server {

  /** The start of the spec's golden traces (§13.2), seconds since the Unix epoch. */
  public static final long T0 = 1_700_000_000;

  public final ManualClock clock;
  public final InMemoryStateStore store;
  public final UdpEngine engine;
  public final List<String> defaultRuleKeys = new ArrayList<>();
  public final List<String> rejectedCheckLimits = new ArrayList<>();
  public final List<Throwable> failures = new ArrayList<>();

  public EngineHarness(RuleSet rules) {
    this(rules, T0, BucketRotation.ON_ACCESS);
  }

  public EngineHarness(RuleSet rules, long startSeconds, BucketRotation rotation) {
    this.clock = new ManualClock(Duration.ofSeconds(startSeconds).toNanos());
    this.store = new InMemoryStateStore(millisOf(clock));
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

  /** The in-memory store's time line: the milliseconds of {@code clock}. */
  public static LongSupplier millisOf(ManualClock clock) {
    return () -> Math.floorDiv(clock.epochNanos(), 1_000_000L);
  }

  @Override
  public String request(String request) {
    return engine.handle(request.getBytes(StandardCharsets.ISO_8859_1)).orElse(null);
  }

  @Override
  public ManualClock clock() {
    return clock;
  }

  @Override
  public void close() {
  }

  /** {@code over_limit <key>}'s reply. */
  public String overLimit(String key) {
    return request("over_limit " + key);
  }

  public String stats(String key) {
    return request("get_stats " + key);
  }

  /** Moves the clock on by {@code seconds}, rounded to the nanosecond. */
  public void advance(double seconds) {
    clock.advance(UdpEngineKit.seconds(seconds));
  }
}
