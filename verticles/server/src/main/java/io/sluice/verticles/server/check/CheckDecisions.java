package io.sluice.verticles.server.check;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.sluice.verticles.engine.time.Clock;
import io.sluice.verticles.server.metrics.LimitActivity;
import io.sluice.verticles.server.metrics.RequestMeters;
import io.sluice.verticles.strategies.Decision;
import io.sluice.verticles.strategies.Result;
import io.sluice.verticles.strategies.policy.Policy;

import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;

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
  private final Clock clock;
  private final Timer duration;
  private final ConcurrentHashMap<String, Counter> counters = new ConcurrentHashMap<>();

  CheckDecisions(MeterRegistry registry, LimitActivity activity, Clock clock) {
    this.registry = registry;
    this.activity = activity;
    this.clock = clock;
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

  /** One decision of {@code policy} for {@code key}. */
  void record(Policy policy, String key, Decision decision) {
    String name = policy.name();
    boolean near = activity.policy(name).decided(key, decision, clock.epochNanos());
    String outcome = decision.allowed() ? "allowed" : policy.shadow() ? "shadow_denied" : "denied";
    counter("decision\n" + name + '\n' + outcome, () -> Counter.builder("sluice.check.decisions")
        .description("HTTP check API decisions, by policy: allowed, denied, or shadow_denied (a shadow policy's, allowed)")
        .tag("policy", name)
        .tag("decision", outcome)
        .register(registry)).increment();
    if (!decision.allowed()) {
      for (Result result : decision.results()) {
        if (!result.allowed()) {
          counter("denial\n" + name + '\n' + result.name(), () -> Counter.builder("sluice.check.denials")
              .description("Limits that denied a check, by policy and quota (a request denied by two counts twice)")
              .tag("policy", name)
              .tag("quota", result.name())
              .register(registry)).increment();
        }
      }
    } else if (near) {
      counter("near\n" + name, () -> Counter.builder("sluice.check.near.limit")
          .description("Checks allowed with 80 % or more of their binding limit used, by policy")
          .tag("policy", name)
          .register(registry)).increment();
    }
  }

  /** A check refused before or while it was decided, by its reason ({@code missing_key}, …). */
  void error(String reason) {
    counter("error\n" + reason, () -> Counter.builder("sluice.check.errors")
        .description("Checks refused with an error, by API and reason (the Sluice-Error header)")
        .tag("api", API)
        .tag("reason", reason)
        .register(registry)).increment();
  }

  /** One call of {@code command} (check, peek, reset), counted whatever its answer. */
  void request(String command) {
    counter(command, () -> RequestMeters.counter(registry, "http", command)).increment();
  }

  private Counter counter(String id, java.util.function.Supplier<Counter> create) {
    Counter found = counters.get(id);
    return found != null ? found : counters.computeIfAbsent(id, k -> create.get());
  }
}
