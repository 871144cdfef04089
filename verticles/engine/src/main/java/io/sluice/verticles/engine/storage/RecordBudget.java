package io.sluice.verticles.engine.storage;

/**
 * One shard's accounting against its {@link StoreLimits}: a running estimate of its records'
 * memory, kept up to date on every add, removal and buffer change (so reading it costs nothing),
 * and how many records were evicted or refused to stay within the limits. The record count itself
 * is the table's exact size.
 *
 * <p>The estimate is what the heap holds for a record, with compressed references and 8-byte
 * alignment (HotSpot's default below 32 GB of heap): the {@link Record} object (a 12-byte header
 * and 46 bytes of fields, 64 with padding), its slot in the table's bucket array (4 bytes a bucket,
 * 1 to 2 buckets a record: 8 counted), and each byte array (key, buffer value) at a 16-byte header
 * plus its length rounded up to 8. A counter with a 16-byte key is thus 72 + 32 = 104 bytes; the
 * heap measured 110 bytes a key (docs/benchmarks.md). Not counted: the per-minute history a record
 * gets once it has been used in two different minutes (40 bytes), and the tree nodes of a bucket
 * that collisions turned into a {@link KeyBin}.
 */
public final class RecordBudget {

  /** The {@link Record} object and its bucket slot. */
  public static final int RECORD_BYTES = 72;
  private static final int ARRAY_HEADER_BYTES = 16;

  private final StoreLimits limits;
  private long bytes;
  private long evictedForKeys;
  private long evictedForMemory;
  private long rejected;

  RecordBudget(StoreLimits limits) {
    this.limits = limits;
  }

  /** The estimated heap bytes of a record with this key and (for a buffer) value; null for a counter. */
  public static long estimate(int keyLength, byte[] buffer) {
    return RECORD_BYTES + array(keyLength) + (buffer == null ? 0 : array(buffer.length));
  }

  static long array(int length) {
    return ARRAY_HEADER_BYTES + ((length + 7L) & ~7L);
  }

  static long estimate(Record record) {
    return estimate(record.key.length, record.kind == Record.BUFFER ? record.buffer : null);
  }

  StoreLimits limits() {
    return limits;
  }

  long bytes() {
    return bytes;
  }

  void added(Record record) {
    bytes += estimate(record);
  }

  void removed(Record record) {
    bytes -= estimate(record);
  }

  void resized(int oldLength, int newLength) {
    bytes += array(newLength) - array(oldLength);
  }

  /**
   * The limit that holding {@code records} records and {@code extraBytes} more bytes would break,
   * or null when both hold.
   */
  Bound exceeded(long records, long extraBytes) {
    if (records > limits.maxRecords()) {
      return Bound.KEYS;
    }
    return extraBytes > 0 && bytes + extraBytes > limits.maxBytes() ? Bound.MEMORY : null;
  }

  void countEviction(Bound reason) {
    if (reason == Bound.KEYS) {
      evictedForKeys++;
    } else {
      evictedForMemory++;
    }
  }

  void countRefusal() {
    rejected++;
  }

  long evicted(Bound reason) {
    return reason == Bound.KEYS ? evictedForKeys : evictedForMemory;
  }

  long rejected() {
    return rejected;
  }
}
