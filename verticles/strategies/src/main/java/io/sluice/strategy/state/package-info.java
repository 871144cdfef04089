/**
 * The compact ASCII state format (spec §5): {@link io.sluice.strategy.state.StateFormat} for
 * headers, fields and Go-compatible integers, {@link io.sluice.strategy.state.GoFloat} for Go's
 * shortest 'g' float text and {@code ParseFloat} grammar.
 */
package io.sluice.strategy.state;
