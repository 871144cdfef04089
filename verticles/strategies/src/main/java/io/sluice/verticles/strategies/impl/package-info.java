/**
 * The algorithms, one class each: {@link io.sluice.verticles.strategies.impl.TokenBucket}, {@link
 * io.sluice.verticles.strategies.impl.FixedWindow}, {@link io.sluice.verticles.strategies.impl.LeakyBucket}, {@link
 * io.sluice.verticles.strategies.impl.Gcra}, {@link io.sluice.verticles.strategies.impl.Composite} (fixed window + bucket
 * or GCRA, no partial consumption) and {@link io.sluice.verticles.strategies.impl.DecayingRate} (MusicBrainz
 * decaying average, a Sluice extension). All but the decaying rate extend {@link
 * io.sluice.verticles.strategies.impl.PolicyStrategy} (name, policy, state header, the cost check); the three
 * buckets extend {@link io.sluice.verticles.strategies.impl.BucketStrategy} (burst-limited result, bucket TTL),
 * which is also what a composite's secondary must be.
 */
package io.sluice.verticles.strategies.impl;
