package io.sluice.verticles.server.check;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.sluice.verticles.server.metrics.LimitActivity;
import io.sluice.verticles.server.metrics.RequestMeters;
import io.sluice.verticles.strategies.Decision;
import io.sluice.verticles.strategies.Result;
import io.sluice.verticles.strategies.policy.Policy;

import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Counts the check API's answers, for {@code /metrics} and the dashboard's {@link LimitActivity}:
 *
 * <ul>
 * <li>{@code sluice_check_decisions_total{policy,decision}}: {@code allowed}, {@code denied}, or
 *     {@code shadow_denied} for a shadow policy's denial (which was allowed);
 * <li>{@code sluice_check_denials_total{policy,quota}}: each limit that denied (a fixed window's quota,
 *     a composite's side, {@code default} for a single limit);
 * <li>{@code sluice_check_near_limit_total{policy}}: allowed with 80 % or more of the limit used;
 * <li>{@code sluice_check_errors_total{api,reason}}: checks refused, by {@code Sluice-Error} reason;
 * <li>{@code sluice_check_duration_seconds{api}}: from the request to its answer, inside the server;
 * <li>{@code sluice_requests_total{protocol="http",command}} for every endpoint call.
 * </ul>
 *
 * Policies, quotas and reasons are configured or fixed sets, so are the series.
 */
final class CheckDecisions {

  /** The check API over HTTP; gRPC will be another. */
  static final String API = "http";

  private final MeterRegistry registry;
  private final LimitActivity activity;
  private final Timer duration;
  private final ConcurrentHashMap<String, PolicyMeters> policies = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, Counter> errors = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, Counter> requests = new ConcurrentHashMap<>();

  CheckDecisions(MeterRegistry registry, LimitActivity activity) {
    this.registry = registry;
    this.activity = activity;
    this.duration = durationTimer(registry, API);
  }

  /**
   * {@code sluice_check_duration_seconds{api}}: fixed buckets from 100 µs to 1 s, cheap to record
   * and to aggregate across instances.
   */
  static Timer durationTimer(MeterRegistry registry, String api) {
    return Timer.builder("sluice.check.duration")
        .description("Time from a check request to its answer, inside the server")
        .tag("api", api)
        .serviceLevelObjectives(Duration.ofNanos(100_000), Duration.ofNanos(250_000), Duration.ofNanos(500_000),
            Duration.ofMillis(1), Duration.ofNanos(2_500_000), Duration.ofMillis(5), Duration.ofMillis(10),
            Duration.ofMillis(25), Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250),
            Duration.ofSeconds(1))
        .register(registry);
  }

  /** Starts timing a check; Micrometer's own monotonic clock measures it (the Clock is wall time). */
  Timer.Sample start() {
    return Timer.start(registry);
  }

  void answered(Timer.Sample sample) {
    sample.stop(duration);
  }

  /**
   * One decision of {@code policy} for {@code key}, taken at {@code nowNs} by the shard's clock (the
   * instant the decision was taken: reading the clock again here would cost each check a read).
   */
  void record(Policy policy, String key, Decision decision, long nowNs) {
    PolicyMeters meters = policyMeters(policy.name());
    boolean near = meters.activity.decided(key, decision, nowNs);
    if (decision.allowed()) {
      meters.allowed.increment();
      if (near) {
        meters.nearLimit.increment();
      }
      return;
    }
    (policy.shadow() ? meters.shadowDenied : meters.denied).increment();
    for (Result result : decision.results()) {
      if (!result.allowed()) {
        meters.denial(result.name()).increment();
      }
    }
  }

  /** A check refused before or while it was decided, by its reason ({@code missing_key}, …). */
  void error(String reason) {
    resolved(errors, reason, r -> Counter.builder("sluice.check.errors")
        .description("Checks refused with an error, by API and reason (the Sluice-Error header)")
        .tag("api", API)
        .tag("reason", r)
        .register(registry)).increment();
  }

  /** One call of {@code command} (check, peek, reset), counted whatever its answer. */
  void request(String command) {
    resolved(requests, command, c -> RequestMeters.counter(registry, "http", c)).increment();
  }

  private PolicyMeters policyMeters(String name) {
    return resolved(policies, name, n -> new PolicyMeters(n, registry, activity.policy(n)));
  }

  /** The meter kept under {@code key}, made on first use: a plain read once it exists. */
  private static <T> T resolved(ConcurrentHashMap<String, T> meters, String key, Function<String, T> create) {
    T found = meters.get(key);
    return found != null ? found : meters.computeIfAbsent(key, create);
  }

  /**
   * One policy's series, resolved once: a decision then costs increments only, no name or tags
   * built and no registry lookup (Micrometer's runs the meter filters). Keyed by the policy's name,
   * so a reload that keeps the name keeps its series; whether a denial counts as
   * {@code shadow_denied} is read from the policy at each decision, since a reload may change it.
   * Each series appears on its first count, as a scrape has always shown them.
   */
  private static final class PolicyMeters {

    private final String policy;
    private final MeterRegistry registry;
    private final LimitActivity.PolicyActivity activity;
    private final OnFirstUse allowed;
    private final OnFirstUse denied;
    private final OnFirstUse shadowDenied;
    private final OnFirstUse nearLimit;
    private final ConcurrentHashMap<String, Counter> denials = new ConcurrentHashMap<>();

    PolicyMeters(String policy, MeterRegistry registry, LimitActivity.PolicyActivity activity) {
      this.policy = policy;
      this.registry = registry;
      this.activity = activity;
      this.allowed = decisions("allowed");
      this.denied = decisions("denied");
      this.shadowDenied = decisions("shadow_denied");
      this.nearLimit = new OnFirstUse(() -> Counter.builder("sluice.check.near.limit")
          .description("Checks allowed with 80 % or more of their binding limit used, by policy")
          .tag("policy", policy)
          .register(registry));
    }

    private OnFirstUse decisions(String outcome) {
      return new OnFirstUse(() -> Counter.builder("sluice.check.decisions")
          .description("HTTP check API decisions, by policy: allowed, denied, or shadow_denied (a shadow policy's, allowed)")
          .tag("policy", policy)
          .tag("decision", outcome)
          .register(registry));
    }

    Counter denial(String quota) {
      return resolved(denials, quota, q -> Counter.builder("sluice.check.denials")
          .description("Limits that denied a check, by policy and quota (a request denied by two counts twice)")
          .tag("policy", policy)
          .tag("quota", q)
          .register(registry));
    }
  }

  /**
   * A counter registered when first incremented. Two threads may both register it: the registry
   * hands both the same meter, so no count is lost.
   */
  private static final class OnFirstUse {

    private final Supplier<Counter> register;
    private volatile Counter counter;

    OnFirstUse(Supplier<Counter> register) {
      this.register = register;
    }

    void increment() {
      Counter found = counter;
      if (found == null) {
        found = register.get();
        counter = found;
      }
      found.increment();
    }
  }
}
