/**
 * The compact ASCII state format (spec §5): {@link io.sluice.verticles.strategies.state.StateFormat} for
 * headers, fields and Go-compatible integers, {@link io.sluice.verticles.strategies.state.GoFloat} for Go's
 * shortest 'g' float text and {@code ParseFloat} grammar.
 */
package io.sluice.verticles.strategies.state;
