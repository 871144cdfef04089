/**
 * Rate-limit policies of the HTTP check API, pure Java (no Vert.x): a {@link
 * io.sluice.verticles.strategies.policy.Policy} is a name, a strategy from {@code io.sluice.verticles.strategies}
 * and a {@link io.sluice.verticles.strategies.policy.KeyExtractor} that builds the limited key from a
 * request; {@link io.sluice.verticles.strategies.policy.PolicyParser} reads one from the plain values a
 * config file holds. They live beside the strategies, not with the HTTP adapters
 * ({@code io.sluice.verticles.server.check}), so that the gateway's config reader can build and check
 * policies without depending on the server module.
 */
package io.sluice.verticles.strategies.policy;
