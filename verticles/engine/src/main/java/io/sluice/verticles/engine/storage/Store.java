package io.sluice.verticles.engine.storage;

import io.sluice.verticles.engine.time.Clock;
import io.sluice.verticles.engine.time.MinuteWindow;

import java.util.function.Consumer;

/**
 * The records of one shard. Expiry is exact: a record is absent the instant
 * {@code now >= expiresAt}, for every operation, whether or not the background sweep has reclaimed
 * it yet. Not thread-safe: a store belongs to one shard thread.
 */
public final class Store {

  static final byte[] EMPTY = new byte[0];

  private final Clock clock;
  private final long metricsOriginNanos;
  private final RecordTable table = new RecordTable();

  private int counters;
  private int buffers;
  private long bufferBytes;
  private long expiredReclaimed;
  private int sweepCursor;
  private ChangeListener changes = ChangeListener.NONE;

  /**
   * @param metricsOriginNanos the start of the first one-minute metrics window (server start), so
   *     every shard ticks on the same minute boundaries
   */
  public Store(Clock clock, long metricsOriginNanos) {
    this.clock = clock;
    this.metricsOriginNanos = metricsOriginNanos;
  }

  /**
   * Tells {@code listener} of every change from now on (see {@link ChangeListener}); one at a
   * time, {@link ChangeListener#both} for more.
   */
  public void listen(ChangeListener listener) {
    this.changes = listener;
  }

  public long now() {
    return clock.epochNanos();
  }

  /** The index of the one-minute metrics window that {@code nowNanos} falls in. */
  public int window(long nowNanos) {
    return MinuteWindow.index(metricsOriginNanos, nowNanos);
  }

  /**
   * The hash this store places {@code key} with, for {@link #find} and the create methods: keyed
   * and private to this store, unlike the shard hash ({@link KeyHash}), so clients cannot aim keys
   * at one bucket.
   */
  public int hash(byte[] key) {
    return table.hash(key);
  }

  /** The live record for a key, or {@code null}. An expired record found here is reclaimed at once. */
  public Record find(byte[] key, int hash, long nowNanos) {
    Record record = table.get(key, hash);
    if (record != null && !record.isLiveAt(nowNanos)) {
      table.remove(record);
      forget(record);
      expiredReclaimed++;
      return null;
    }
    return record;
  }

  /**
   * Stores a new counter for a key that {@link #find} just reported absent. A record that would
   * already be expired is not stored at all: it could never be seen.
   */
  public Record createCounter(byte[] key, int hash, long value, int ttlType, long expiresAtNanos, long nowNanos) {
    Record record = newRecord(key, Record.COUNTER, ttlType, expiresAtNanos, nowNanos);
    record.counter = value;
    return store(record, hash, nowNanos);
  }

  /** Stores a new buffer for a key that {@link #find} just reported absent. */
  public Record createBuffer(byte[] key, int hash, byte[] value, int ttlType, long expiresAtNanos, long nowNanos) {
    Record record = newRecord(key, Record.BUFFER, ttlType, expiresAtNanos, nowNanos);
    record.buffer = value;
    return store(record, hash, nowNanos);
  }

  /** Overwrites a live buffer's value, TTL unit and expiry. */
  public void overwriteBuffer(Record record, byte[] value, int ttlType, long expiresAtNanos) {
    bufferBytes += value.length - record.buffer.length;
    record.buffer = value;
    record.ttlType = (byte) ttlType;
    record.expiresAtNanos = expiresAtNanos;
    changes.changed(record);
  }

  /** Sets a live counter's value. */
  public void setCounter(Record record, long value) {
    record.counter = value;
    changes.changed(record);
  }

  /** Moves a live record's expiry; into the past makes it absent from now on. */
  public void setExpiry(Record record, long expiresAtNanos) {
    record.expiresAtNanos = expiresAtNanos;
    changes.changed(record);
  }

  /** Deletes a record before its expiry: every deletion but expiry's comes here. */
  public void remove(Record record) {
    if (table.remove(record)) {
      forget(record);
      changes.removed(record);
    }
  }

  /**
   * Gives {@code key} exactly this counter state, replacing whatever it held: a {@link RecordImage}
   * being applied. Access metrics start afresh, as they are this node's own.
   */
  public void restoreCounter(byte[] key, int ttlType, long expiresAtNanos, long value) {
    long nowNanos = now();
    int hash = hash(key);
    Record record = replaceable(key, hash, Record.COUNTER, nowNanos);
    if (record == null) {
      createCounter(key, hash, value, ttlType, expiresAtNanos, nowNanos);
    } else {
      record.ttlType = (byte) ttlType;
      record.expiresAtNanos = expiresAtNanos;
      setCounter(record, value);
    }
  }

  /** Gives {@code key} exactly this buffer state, replacing whatever it held (see {@link #restoreCounter}). */
  public void restoreBuffer(byte[] key, int ttlType, long expiresAtNanos, byte[] value) {
    long nowNanos = now();
    int hash = hash(key);
    Record record = replaceable(key, hash, Record.BUFFER, nowNanos);
    if (record == null) {
      createBuffer(key, hash, value, ttlType, expiresAtNanos, nowNanos);
    } else {
      overwriteBuffer(record, value, ttlType, expiresAtNanos);
    }
  }

  /** Removes {@code key} if it holds a live record. */
  public void restoreRemoval(byte[] key) {
    Record record = find(key, hash(key), now());
    if (record != null) {
      remove(record);
    }
  }

  /** The live record of {@code key} if it is of {@code kind}; a record of the other kind is removed first. */
  private Record replaceable(byte[] key, int hash, byte kind, long nowNanos) {
    Record record = find(key, hash, nowNanos);
    if (record != null && record.kind != kind) {
      remove(record);
      return null;
    }
    return record;
  }

  /**
   * Reclaims expired records, visiting at most {@code buckets} table buckets from where the last
   * sweep stopped, so one call's cost is bounded whatever the table size.
   *
   * @return how many records were reclaimed
   */
  public int sweep(int buckets) {
    long nowNanos = now();
    long before = expiredReclaimed;
    sweepCursor = table.removeIf(sweepCursor, buckets, r -> !r.isLiveAt(nowNanos), this::reclaimExpired);
    return (int) (expiredReclaimed - before);
  }

  /** Visits every live record (LIST, STATS). */
  public void forEachLive(Consumer<Record> action) {
    table.forEach(liveOnly(action));
  }

  /**
   * Visits the live records of about {@code work} buckets and records from {@code cursor} on (see
   * {@link RecordTable#scan}), so a walk of a large store can be cut into bounded slices that
   * other requests run between. Start with cursor 0; the walk is complete when 0 comes back.
   */
  public int scanLive(int cursor, int work, Consumer<Record> action) {
    return table.scan(cursor, work, liveOnly(action));
  }

  /** The action for the records live now: expired ones wait for the sweep, unseen. */
  private Consumer<Record> liveOnly(Consumer<Record> action) {
    long nowNanos = now();
    return r -> {
      if (r.isLiveAt(nowNanos)) {
        action.accept(r);
      }
    };
  }

  /** Records held, including expired ones the sweep has not reached yet. */
  public int size() {
    return table.size();
  }

  public int bucketCount() {
    return table.capacity();
  }

  RecordTable table() {
    return table;
  }

  public int counters() {
    return counters;
  }

  public int buffers() {
    return buffers;
  }

  public long bufferBytes() {
    return bufferBytes;
  }

  /** Expired records reclaimed so far, by lookups and by the sweep. */
  public long expiredReclaimed() {
    return expiredReclaimed;
  }

  private Record newRecord(byte[] key, byte kind, int ttlType, long expiresAtNanos, long nowNanos) {
    Record record = new Record(key, window(nowNanos));
    record.kind = kind;
    record.ttlType = (byte) ttlType;
    record.expiresAtNanos = expiresAtNanos;
    return record;
  }

  private Record store(Record record, int hash, long nowNanos) {
    if (record.isLiveAt(nowNanos)) {
      table.add(record, hash);
      if (record.kind == Record.COUNTER) {
        counters++;
      } else {
        buffers++;
        bufferBytes += record.buffer.length;
      }
      changes.changed(record);
    }
    return record;
  }

  private void reclaimExpired(Record record) {
    forget(record);
    expiredReclaimed++;
  }

  private void forget(Record record) {
    if (record.kind == Record.COUNTER) {
      counters--;
    } else {
      buffers--;
      bufferBytes -= record.buffer.length;
    }
  }
}
