/**
 * The algorithms, one class each: {@link io.sluice.strategy.impl.TokenBucket}, {@link
 * io.sluice.strategy.impl.FixedWindow}, {@link io.sluice.strategy.impl.LeakyBucket}, {@link
 * io.sluice.strategy.impl.Gcra}, {@link io.sluice.strategy.impl.Composite} (fixed window + bucket
 * or GCRA, no partial consumption) and {@link io.sluice.strategy.impl.DecayingRate} (MusicBrainz
 * decaying average, a Sluice extension).
 */
package io.sluice.strategy.impl;
