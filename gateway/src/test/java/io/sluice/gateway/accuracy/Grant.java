package io.sluice.gateway.accuracy;

/**
 * One request a limit admitted, as its client saw it: when the answer arrived (nanoseconds on the
 * test's monotonic clock), through which node, for which limit.
 */
public record Grant(long atNanos, int node, String key) {
}
