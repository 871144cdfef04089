/**
 * Rate-limit policies of the HTTP check API, pure Java (no Vert.x, no YAML library): a {@link
 * io.sluice.verticles.check.policy.Policy} is a name, a strategy from {@code io.sluice.strategy}
 * and a {@link io.sluice.verticles.check.policy.KeyExtractor} that builds the limited key from a
 * request; {@link io.sluice.verticles.check.policy.PolicyParser} reads one from the plain values a
 * config file holds. The HTTP adapters live in {@code io.sluice.verticles.check}.
 */
package io.sluice.verticles.check.policy;
