package io.sluice.verticles.engine.storage;

import io.sluice.verticles.engine.time.Clock;
import io.sluice.verticles.engine.time.MinuteWindow;

import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * The records of one shard. Expiry is exact: a record is absent the instant
 * {@code now >= expiresAt}, for every operation, whether or not the background sweep has reclaimed
 * it yet. Not thread-safe: a store belongs to one shard thread.
 *
 * <p>The records are held under {@link StoreLimits}: a write that would take the store over its
 * count or memory estimate first makes room, or is refused, in which case
 * the create methods answer null.
 */
public final class Store {

  static final byte[] EMPTY = new byte[0];

  private final Clock clock;
  private final long metricsOriginNanos;
  private final RecordTable table = new RecordTable();
  private final RecordBudget budget;
  private final EvictionSampler sampler = new EvictionSampler(new SplittableRandom());

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
    this(clock, metricsOriginNanos, StoreLimits.unlimited());
  }

  public Store(Clock clock, long metricsOriginNanos, StoreLimits limits) {
    this.clock = clock;
    this.metricsOriginNanos = metricsOriginNanos;
    this.budget = new RecordBudget(limits);
  }

  /**
   * Writes that need room beyond this many removals are refused: the cost of one write stays
   * bounded (a 64 KiB buffer replacing 16-byte counters needs about 630).
   */
  static final int MAX_REMOVALS_PER_WRITE = 1024;

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
      reclaim(record);
      return null;
    }
    return record;
  }

  /**
   * Stores a new counter for a key that {@link #find} just reported absent. A record that would
   * already be expired is not stored at all: it could never be seen.
   *
   * @return the record, or null when the store is full and the limits refuse it
   */
  public Record createCounter(byte[] key, int hash, long value, int ttlType, long expiresAtNanos, long nowNanos) {
    return store(counter(key, value, ttlType, expiresAtNanos, nowNanos), hash, nowNanos, true);
  }

  /** Stores a new buffer for a key that {@link #find} just reported absent; null when refused as full. */
  public Record createBuffer(byte[] key, int hash, byte[] value, int ttlType, long expiresAtNanos, long nowNanos) {
    return store(buffer(key, value, ttlType, expiresAtNanos, nowNanos), hash, nowNanos, true);
  }

  /**
   * Overwrites a live buffer's value, TTL unit and expiry. A longer value needs room like a new
   * record (never made by evicting this one).
   *
   * @return false, changing nothing, when the store is full and the limits refuse the growth
   */
  public boolean overwriteBuffer(Record record, byte[] value, int ttlType, long expiresAtNanos) {
    return overwrite(record, value, ttlType, expiresAtNanos, true);
  }

  private boolean overwrite(Record record, byte[] value, int ttlType, long expiresAtNanos, boolean bounded) {
    long growth = RecordBudget.array(value.length) - RecordBudget.array(record.buffer.length);
    if (bounded && !makeRoom(0, growth, record, now())) {
      return false;
    }
    budget.resized(record.buffer.length, value.length);
    bufferBytes += value.length - record.buffer.length;
    record.buffer = value;
    record.ttlType = (byte) ttlType;
    record.expiresAtNanos = expiresAtNanos;
    changes.changed(record);
    return true;
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

  /** Deletes a record before its expiry: every deletion but expiry's comes here, evictions included. */
  public void remove(Record record) {
    if (table.remove(record)) {
      forget(record);
      changes.removed(record);
    }
  }

  /**
   * Gives {@code key} exactly this counter state, replacing whatever it held: a {@link RecordImage}
   * being applied. Access metrics start afresh, as they are this node's own. Restores are never
   * refused and evict nothing, whatever the limits: they replay a store that kept its own bound,
   * whose evictions arrive as removals.
   */
  public void restoreCounter(byte[] key, int ttlType, long expiresAtNanos, long value) {
    long nowNanos = now();
    int hash = hash(key);
    Record record = replaceable(key, hash, Record.COUNTER, nowNanos);
    if (record == null) {
      store(counter(key, value, ttlType, expiresAtNanos, nowNanos), hash, nowNanos, false);
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
      store(buffer(key, value, ttlType, expiresAtNanos, nowNanos), hash, nowNanos, false);
    } else {
      overwrite(record, value, ttlType, expiresAtNanos, false);
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

  public StoreLimits limits() {
    return budget.limits();
  }

  /** The estimated heap bytes of the records held (see {@link RecordBudget}). */
  public long estimatedBytes() {
    return budget.bytes();
  }

  /** Live records removed so far to keep within {@code reason}'s limit. */
  public long evicted(Bound reason) {
    return budget.evicted(reason);
  }

  /** Writes refused so far because the store was full. */
  public long rejected() {
    return budget.rejected();
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

  private Record counter(byte[] key, long value, int ttlType, long expiresAtNanos, long nowNanos) {
    Record record = newRecord(key, Record.COUNTER, ttlType, expiresAtNanos, nowNanos);
    record.counter = value;
    return record;
  }

  private Record buffer(byte[] key, byte[] value, int ttlType, long expiresAtNanos, long nowNanos) {
    Record record = newRecord(key, Record.BUFFER, ttlType, expiresAtNanos, nowNanos);
    record.buffer = value;
    return record;
  }

  /** Adds a new record; {@code bounded}: within the limits, making room first, or refused (null). */
  private Record store(Record record, int hash, long nowNanos, boolean bounded) {
    if (record.isLiveAt(nowNanos)) {
      if (bounded && !makeRoom(1, RecordBudget.estimate(record), null, nowNanos)) {
        return null;
      }
      table.add(record, hash);
      budget.added(record);
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

  /**
   * Makes the store able to take {@code newRecords} more records and {@code extraBytes} more bytes
   * within its limits: expired records the sampler finds are reclaimed, and with
   * {@link Eviction#VOLATILE_TTL} the live records closest to expiry are evicted, one sample at a
   * time, never {@code keep}. Answers false (and counts a refusal) when the limits cannot be met:
   * with {@link Eviction#REJECT}, when nothing else is left to evict, or after
   * {@link #MAX_REMOVALS_PER_WRITE}.
   */
  private boolean makeRoom(int newRecords, long extraBytes, Record keep, long nowNanos) {
    if (extraBytes > budget.limits().maxBytes()) {
      // Evicting everything would not make room: refuse before forgetting anything.
      budget.countRefusal();
      return false;
    }
    for (int removals = 0; ; removals++) {
      Bound over = budget.exceeded((long) table.size() + newRecords, extraBytes);
      if (over == null) {
        return true;
      }
      Record victim = removals < MAX_REMOVALS_PER_WRITE ? sampler.victim(table, keep) : null;
      if (victim != null && !victim.isLiveAt(nowNanos)) {
        reclaim(victim);
        continue;
      }
      if (victim == null || budget.limits().eviction() == Eviction.REJECT) {
        budget.countRefusal();
        return false;
      }
      evict(victim, over);
    }
  }

  /** Removes a live record to keep the store within {@code reason}'s limit. */
  private void evict(Record record, Bound reason) {
    remove(record);
    budget.countEviction(reason);
  }

  /** Removes an expired record found by a lookup or a sample. */
  private void reclaim(Record record) {
    table.remove(record);
    reclaimExpired(record);
  }

  private void reclaimExpired(Record record) {
    forget(record);
    expiredReclaimed++;
  }

  private void forget(Record record) {
    budget.removed(record);
    if (record.kind == Record.COUNTER) {
      counters--;
    } else {
      buffers--;
      bufferBytes -= record.buffer.length;
    }
  }
}
