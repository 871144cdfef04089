/**
 * Pure rate-limit strategies: no Vert.x, no I/O, no clock. See {@link io.sluice.verticles.strategies.Strategy}
 * for the calling contract, {@code verticles/strategies/README.md} for what each strategy reports
 * and the state format, and {@code docs/strategy-state.md} for the stored state's format.
 *
 * <p>This package holds the contract ({@link io.sluice.verticles.strategies.Strategy}, {@link
 * io.sluice.verticles.strategies.Outcome}, {@link io.sluice.verticles.strategies.Decision}, {@link
 * io.sluice.verticles.strategies.Result}, {@link io.sluice.verticles.strategies.MalformedStateException}) and the validated
 * policies ({@link io.sluice.verticles.strategies.BucketPolicy}, {@link io.sluice.verticles.strategies.Quota}, {@link
 * io.sluice.verticles.strategies.WindowPolicy}, {@link io.sluice.verticles.strategies.DecayPolicy}); the algorithms are in
 * {@code io.sluice.verticles.strategies.algorithm}, the state text in {@code io.sluice.verticles.strategies.encoding}.
 */
package io.sluice.verticles.strategies;
