package io.sluice.verticles.engine.storage;

/**
 * One copy of a record's state, apart from any store: what {@link RecordMerge} joins.
 *
 * @param counter whether it is a counter (else a buffer)
 * @param ttlType the TTL unit the record reports its TTL in
 * @param expiresAtNanos absolute expiry, Unix epoch nanoseconds
 * @param value the counter's value (a Throttr counter's remaining quota); 0 for a buffer
 * @param buffer the buffer's bytes; empty for a counter
 */
public record RecordCopy(boolean counter, int ttlType, long expiresAtNanos, long value, byte[] buffer) {

  public static RecordCopy counter(int ttlType, long expiresAtNanos, long value) {
    return new RecordCopy(true, ttlType, expiresAtNanos, value, Store.EMPTY);
  }

  public static RecordCopy buffer(int ttlType, long expiresAtNanos, byte[] buffer) {
    return new RecordCopy(false, ttlType, expiresAtNanos, 0, buffer);
  }

  public static RecordCopy of(Record record) {
    return new RecordCopy(record.isCounter(), record.ttlType(), record.expiresAtNanos(), record.counter(), record.buffer());
  }
}
