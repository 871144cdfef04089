/**
 * The algorithms, one class each: {@link io.sluice.verticles.strategies.algorithm.TokenBucket}, {@link
 * io.sluice.verticles.strategies.algorithm.FixedWindow}, {@link io.sluice.verticles.strategies.algorithm.LeakyBucket}, {@link
 * io.sluice.verticles.strategies.algorithm.Gcra}, {@link io.sluice.verticles.strategies.algorithm.Composite} (fixed window + bucket
 * or GCRA, no partial consumption) and {@link io.sluice.verticles.strategies.algorithm.DecayingRate} (MusicBrainz
 * decaying average, a Sluice extension). All but the decaying rate extend {@link
 * io.sluice.verticles.strategies.algorithm.PolicyStrategy} (name, policy, state header, the cost check); the three
 * buckets extend {@link io.sluice.verticles.strategies.algorithm.BucketStrategy} (burst-limited result, bucket TTL),
 * which is also what a composite's secondary must be.
 */
package io.sluice.verticles.strategies.algorithm;
