/**
 * Pure rate-limit strategies: no Vert.x, no I/O, no clock. See {@link io.sluice.strategy.Strategy}
 * for the calling contract, {@code verticles/strategies/README.md} for what each strategy reports
 * and the state format, and {@code shared/spec/strategies.md} for the specification.
 *
 * <p>This package holds the contract ({@link io.sluice.strategy.Strategy}, {@link
 * io.sluice.strategy.Outcome}, {@link io.sluice.strategy.Decision}, {@link
 * io.sluice.strategy.Result}, {@link io.sluice.strategy.MalformedStateException}) and the validated
 * policies ({@link io.sluice.strategy.BucketPolicy}, {@link io.sluice.strategy.Quota}, {@link
 * io.sluice.strategy.WindowPolicy}, {@link io.sluice.strategy.DecayPolicy}); the algorithms are in
 * {@code io.sluice.strategy.impl}, the state text in {@code io.sluice.strategy.state}.
 */
package io.sluice.strategy;
