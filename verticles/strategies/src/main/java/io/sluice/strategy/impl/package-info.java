/**
 * The algorithms, one class each: {@link io.sluice.strategy.impl.TokenBucket}, {@link
 * io.sluice.strategy.impl.FixedWindow}, {@link io.sluice.strategy.impl.LeakyBucket}, {@link
 * io.sluice.strategy.impl.Gcra}, {@link io.sluice.strategy.impl.Composite} (fixed window + bucket
 * or GCRA, no partial consumption) and {@link io.sluice.strategy.impl.DecayingRate} (MusicBrainz
 * decaying average, a Sluice extension). All but the decaying rate extend {@link
 * io.sluice.strategy.impl.PolicyStrategy} (name, policy, state header, the cost check); the three
 * buckets extend {@link io.sluice.strategy.impl.BucketStrategy} (burst-limited result, bucket TTL),
 * which is also what a composite's secondary must be.
 */
package io.sluice.strategy.impl;
