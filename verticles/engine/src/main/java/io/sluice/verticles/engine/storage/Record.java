package io.sluice.verticles.engine.storage;

/**
 * One stored record: a counter or a buffer, with its TTL unit, absolute expiry and access metrics.
 * It is also its own hash-table entry ({@link #next}) so that a record costs one object plus its key.
 * Records belong to one shard and are only touched on that shard's thread.
 */
public final class Record {

  public static final byte COUNTER = 0x00;
  public static final byte BUFFER = 0x01;

  // No cached hash: 8 bytes per record (with alignment) matter more than re-hashing on a resize.
  final byte[] key;
  Record next;

  byte kind;
  byte ttlType;
  /**
   * Whether a table holds the record, kept by {@link RecordTable}: how the eviction sampler knows a
   * candidate it pooled earlier is still there without a lookup. Free: it fits in the padding.
   */
  boolean held;
  long expiresAtNanos;
  long counter;
  byte[] buffer;

  // Access metrics in one-minute tumbling windows, rolled lazily when the record is touched so no
  // timer ever walks every record. Only the current window lives here; the figures of closed
  // windows live in a History made the first time a window closes with activity, because most
  // rate-limit counters live and die within one minute and never need it.
  private int window;
  private int reads;
  private int writes;
  private History history;

  /** Figures as of the last closed window: per-minute counts of that window, and totals before now. */
  private static final class History {
    int readsPerMinute;
    int writesPerMinute;
    long totalReads;
    long totalWrites;
  }

  Record(byte[] key, int window) {
    this.key = key;
    this.window = window;
  }

  public byte[] key() {
    return key;
  }

  public boolean isCounter() {
    return kind == COUNTER;
  }

  public byte kind() {
    return kind;
  }

  public int ttlType() {
    return ttlType & 0xff;
  }

  public long expiresAtNanos() {
    return expiresAtNanos;
  }

  /** The counter value; 0 for a buffer, as the reference answers a QUERY on a buffer. */
  public long counter() {
    return kind == COUNTER ? counter : 0;
  }

  /** The buffer value; empty for a counter, as the reference answers a GET on a counter. */
  public byte[] buffer() {
    return kind == BUFFER ? buffer : Store.EMPTY;
  }

  public boolean isLiveAt(long nowNanos) {
    return nowNanos < expiresAtNanos;
  }

  public void countRead(int currentWindow) {
    roll(currentWindow);
    reads++;
  }

  public void countWrite(int currentWindow) {
    roll(currentWindow);
    writes++;
  }

  /** Per-minute and total figures as of the last completed window (the current one is not included). */
  public long readsPerMinute(int currentWindow) {
    roll(currentWindow);
    return history == null ? 0 : history.readsPerMinute;
  }

  public long writesPerMinute(int currentWindow) {
    roll(currentWindow);
    return history == null ? 0 : history.writesPerMinute;
  }

  public long totalReads(int currentWindow) {
    roll(currentWindow);
    return history == null ? 0 : history.totalReads;
  }

  public long totalWrites(int currentWindow) {
    roll(currentWindow);
    return history == null ? 0 : history.totalWrites;
  }

  /**
   * Every read so far, the open window's included: what an operator looking at the key expects
   * (STAT reports closed windows only, as the protocol says).
   */
  public long readsSoFar(int currentWindow) {
    return totalReads(currentWindow) + reads;
  }

  /** Every write so far, the open window's included: three checks of a limit are three writes at once. */
  public long writesSoFar(int currentWindow) {
    return totalWrites(currentWindow) + writes;
  }

  private void roll(int currentWindow) {
    if (window == currentWindow) {
      return;
    }
    boolean previousWindow = window == currentWindow - 1;
    if (history == null && (reads != 0 || writes != 0)) {
      history = new History();
    }
    if (history != null) {
      history.totalReads += reads;
      history.totalWrites += writes;
      history.readsPerMinute = previousWindow ? reads : 0;
      history.writesPerMinute = previousWindow ? writes : 0;
    }
    reads = 0;
    writes = 0;
    window = currentWindow;
  }
}
