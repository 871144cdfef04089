/**
 * The compact ASCII state format (spec §5): {@link io.sluice.verticles.strategies.encoding.StateFormat} for
 * headers, fields and Go-compatible integers, {@link io.sluice.verticles.strategies.encoding.GoFloat} for Go's
 * shortest 'g' float text and {@code ParseFloat} grammar.
 */
package io.sluice.verticles.strategies.encoding;
