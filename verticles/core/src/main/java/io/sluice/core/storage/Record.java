package io.sluice.core.storage;

/**
 * One stored record: a counter or a buffer, with its TTL unit, absolute expiry and access metrics.
 * It is also its own hash-table entry ({@link #next}) so that a record costs one object plus its key.
 * Records belong to one shard and are only touched on that shard's thread.
 */
public final class Record {

  public static final byte COUNTER = 0x00;
  public static final byte BUFFER = 0x01;

  final byte[] key;
  final int hash;
  Record next;

  byte kind;
  byte ttlType;
  long expiresAtNanos;
  long counter;
  byte[] buffer;

  // Access metrics in one-minute tumbling windows, rolled lazily when the record is touched
  // so that no timer ever walks every record.
  private int window;
  private int reads;
  private int writes;
  private int readsPerMinute;
  private int writesPerMinute;
  private long totalReads;
  private long totalWrites;

  Record(byte[] key, int hash, int window) {
    this.key = key;
    this.hash = hash;
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

  public void setCounter(long value) {
    counter = value;
  }

  public void setExpiresAtNanos(long expiresAtNanos) {
    this.expiresAtNanos = expiresAtNanos;
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
    return readsPerMinute;
  }

  public long writesPerMinute(int currentWindow) {
    roll(currentWindow);
    return writesPerMinute;
  }

  public long totalReads(int currentWindow) {
    roll(currentWindow);
    return totalReads;
  }

  public long totalWrites(int currentWindow) {
    roll(currentWindow);
    return totalWrites;
  }

  private void roll(int currentWindow) {
    if (window == currentWindow) {
      return;
    }
    boolean previousWindow = window == currentWindow - 1;
    totalReads += reads;
    totalWrites += writes;
    readsPerMinute = previousWindow ? reads : 0;
    writesPerMinute = previousWindow ? writes : 0;
    reads = 0;
    writes = 0;
    window = currentWindow;
  }
}
