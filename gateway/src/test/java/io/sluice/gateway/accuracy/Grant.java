package io.sluice.gateway.accuracy;

/**
 * One request a limit admitted, as its client saw it: when it was asked and when its answer
 * arrived (nanoseconds on the test's monotonic clock), through which node, for which limit.
 * The checker orders grants by their answer; the time asked says which grants a node could still
 * have given before a fault took it (an answer given before a kill can arrive after it).
 */
public record Grant(long askedNanos, long atNanos, int node, String key) {
}
