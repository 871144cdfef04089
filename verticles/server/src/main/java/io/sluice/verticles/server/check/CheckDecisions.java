package io.sluice.verticles.server.check;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.verticles.server.metrics.RequestMeters;

import java.util.concurrent.ConcurrentHashMap;

/**
 * Counts the check API's answers for {@code /metrics}: {@code sluice_check_decisions_total} by
 * policy and decision (allowed, denied), and the endpoint calls in {@code sluice_requests_total}
 * under protocol {@code http}. Policies are a configured, bounded set, so are the series.
 */
final class CheckDecisions {

  private final MeterRegistry registry;
  private final ConcurrentHashMap<String, Counter> counters = new ConcurrentHashMap<>();

  CheckDecisions(MeterRegistry registry) {
    this.registry = registry;
  }

  void record(String policy, boolean allowed) {
    String decision = allowed ? "allowed" : "denied";
    counters.computeIfAbsent(policy + '\n' + decision, k -> Counter.builder("sluice.check.decisions")
        .description("HTTP check API decisions, by policy")
        .tag("policy", policy)
        .tag("decision", decision)
        .register(registry)).increment();
  }

  /** One call of {@code command} (check, peek, reset), counted whatever its answer. */
  void request(String command) {
    counters.computeIfAbsent(command, k -> RequestMeters.counter(registry, "http", command)).increment();
  }
}
