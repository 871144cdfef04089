package io.sluice.verticles.check;

/**
 * What every endpoint of the check API works with: the policies, the way to the shards of one
 * front event loop, and the decision counters.
 */
record CheckServices(CheckPolicies policies, ShardLimits limits, CheckDecisions decisions) {
}
