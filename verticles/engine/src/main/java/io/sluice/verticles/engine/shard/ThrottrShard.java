package io.sluice.verticles.engine.shard;

import io.netty.buffer.ByteBuf;
import io.sluice.verticles.engine.log.LogText;
import io.sluice.verticles.engine.storage.Bound;
import io.sluice.verticles.engine.storage.Record;
import io.sluice.verticles.engine.storage.Store;
import io.sluice.protocol.binary.codec.Listing;
import io.sluice.protocol.binary.codec.Request;
import io.sluice.protocol.binary.codec.Responses;
import io.sluice.protocol.binary.codec.TtlUnit;
import io.sluice.protocol.binary.codec.ValueSize;

import java.util.ArrayList;
import java.util.List;

/**
 * Runs Throttr requests against one shard's {@link Store} (spec §2): one {@code handleX} per
 * request type behind one switch. Pure: no Vert.x, no threads; the shard verticle calls it on its
 * own event loop.
 */
public final class ThrottrShard {

  private static final System.Logger LOG = System.getLogger(ThrottrShard.class.getName());

  private final Store store;
  private final ValueSize size;

  public ThrottrShard(Store store, ValueSize size) {
    this.store = store;
    this.size = size;
  }

  public Store store() {
    return store;
  }

  /**
   * Runs every entry of the batch in order. The clock is read per entry, as time passes between
   * pipelined requests: a QUERY right after an INSERT of 60 s reads 59, as clients expect.
   *
   * <p>Never throws: every path to a shard ends here, and one entry must not cost the replies of
   * the others, nor of the other connections' batches travelling in the same event-bus message. An
   * entry that throws anything (a bug, a stack overflow, memory running out) is logged once with its
   * key and type and fails alone: a Throttr request answers its type's failure status {@code 00}
   * (any reply bytes it had written are dropped), a listing contributes nothing and is answered
   * {@code 00}, a {@link ShardTask} is told through {@link ShardTask#failed}, and every failure is in
   * {@link ShardBatch#failure}. What the entry changed before it threw stays changed. The entries
   * after it run as usual.
   */
  public void execute(ShardBatch batch) {
    int next = 0;
    try {
      ByteBuf out = batch.startReplies();
      for (; next < batch.size(); next++) {
        int start = out.writerIndex();
        try {
          run(batch, next, out);
        } catch (Throwable error) {
          out.writerIndex(start);
          fail(batch, next, error, out);
        }
        batch.endReply(next);
      }
    } catch (Throwable error) {
      // Failing outside an entry's own run (the reply buffer, or the failure path itself): what
      // is left fails, with empty replies, so that every entry still reads as answered.
      for (; next < batch.size(); next++) {
        if (batch.failure(next) == null) {
          fail(batch, next, error, null);
        }
        if (batch.replies() != null) {
          batch.endReply(next);
        }
      }
    }
  }

  private void run(ShardBatch batch, int index, ByteBuf out) {
    long now = store.now();
    int window = store.window(now);
    Object entry = batch.entry(index);
    if (entry instanceof ShardTask task) {
      runTask(task, now, window);
      return;
    }
    if (entry instanceof KeyLookup lookup) {
      lookUp(lookup, now, window);
      return;
    }
    if (entry instanceof ShardScan scan) {
      store.forEachLive(scan::visit);
      return;
    }
    if (entry instanceof SlicedScan scan) {
      scan.runSlice(store);
      return;
    }
    if (entry instanceof StoreWork work) {
      work.run(store);
      return;
    }
    Request request = (Request) entry;
    switch (request.type()) {
      case INSERT: handleInsert((Request.Insert) request, out, now, window); break;
      case QUERY: handleQuery((Request.Query) request, out, now, window); break;
      case UPDATE: handleUpdate((Request.Update) request, out, now, window); break;
      case PURGE: handlePurge((Request.Purge) request, out, now); break;
      case SET: handleSet((Request.Set) request, out, now, window); break;
      case GET: handleGet((Request.Get) request, out, now, window); break;
      case STAT: handleStat((Request.Stat) request, out, now, window); break;
      case LIST: batch.collect(index, list(window)); break;
      case STATS: batch.collect(index, stats(window)); break;
      case INFO: batch.collect(index, summary()); break;
      default: throw new IllegalArgumentException(request.type() + " is not a shard request");
    }
  }

  /**
   * Answers every entry of a batch that could not be run at all (its owner in a cluster could not
   * be reached, or not known to have run it) as a failure, exactly as if each had thrown
   * {@code error}; logs nothing (the caller logs once for the whole batch).
   */
  public static void failUnrun(ShardBatch batch, Throwable error) {
    ByteBuf out = batch.startReplies();
    for (int i = 0; i < batch.size(); i++) {
      answerFailure(batch, i, error, out);
      batch.endReply(i);
    }
  }

  /** Answers a failed entry as a failure; {@code out} is null when no reply can be written at all. */
  private static void fail(ShardBatch batch, int index, Throwable error, ByteBuf out) {
    LOG.log(System.Logger.Level.ERROR, "shard " + batch.shard() + ": " + describe(batch.entry(index))
        + " failed and is answered as a failure: " + LogText.failure(error));
    answerFailure(batch, index, error, out);
  }

  private static void answerFailure(ShardBatch batch, int index, Throwable error, ByteBuf out) {
    batch.fail(index, error);
    Object entry = batch.entry(index);
    if (entry instanceof ShardTask task) {
      try {
        task.failed(error);
      } catch (Throwable alsoFailed) {
        LOG.log(System.Logger.Level.ERROR, "shard " + batch.shard() + ": " + describe(entry)
            + " threw again when told it failed: " + LogText.failure(alsoFailed));
      }
    } else if (entry instanceof Request && out != null) {
      // A listing's byte is never read: the session answers it 00 from the failure.
      Responses.status(out, false);
    }
  }

  /** The entry's type and key, for the log. */
  private static String describe(Object entry) {
    if (entry instanceof Request.KeyRequest request) {
      return request.type() + " of key " + LogText.key(request.key());
    }
    if (entry instanceof Request request) {
      return request.type().toString();
    }
    if (entry instanceof ShardTask task) {
      return "task " + entry.getClass().getName() + " on key " + LogText.key(task.key());
    }
    if (entry instanceof KeyLookup lookup) {
      return "lookup of key " + LogText.key(lookup.keyBytes());
    }
    return "scan " + entry.getClass().getName();
  }

  /**
   * A task sees its key's buffer record; writing it counts as a write, like SET. The record shows
   * its TTL in seconds to a Throttr GET; its expiry itself is exact to the nanosecond.
   */
  private void runTask(ShardTask task, long now, int window) {
    byte[] key = task.key();
    int hash = store.hash(key);
    Record found = store.find(key, hash, now);
    if (found != null) {
      found.countRead(window);
    }
    task.run(new KeyState() {
      private Record record = found;

      public byte[] value() {
        return record == null || record.isCounter() ? null : record.buffer();
      }

      public boolean isCounter() {
        return record != null && record.isCounter();
      }

      public boolean put(byte[] value, long ttlNanos) {
        if (record != null && record.isCounter()) {
          throw new IllegalStateException("the key holds a counter");
        }
        long expiresAt = Ttl.saturatingAdd(now, Math.max(0, ttlNanos));
        if (record == null) {
          record = store.createBuffer(key, hash, value, TtlUnit.SECONDS.code(), expiresAt, now);
          if (record == null) {
            return false;
          }
        } else if (!store.overwriteBuffer(record, value, TtlUnit.SECONDS.code(), expiresAt)) {
          return false;
        }
        record.countWrite(window);
        return true;
      }

      public void remove() {
        if (record != null) {
          store.remove(record);
          record = null;
        }
      }
    }, now);
  }

  /** Copies the record out without counting a read: looking must not move the figures. */
  private void lookUp(KeyLookup lookup, long now, int window) {
    byte[] key = lookup.keyBytes();
    Record record = store.find(key, store.hash(key), now);
    if (record == null) {
      return;
    }
    lookup.found(new KeyDetail(key.clone(), record.isCounter(), record.ttlType(), remaining(record, now),
        record.expiresAtNanos(), record.counter(), record.buffer().clone(), record.readsPerMinute(window),
        record.writesPerMinute(window), record.readsSoFar(window), record.writesSoFar(window)));
  }

  public ShardSummary summary() {
    return new ShardSummary(store.size(), store.counters(), store.buffers(), store.bufferBytes(),
        store.expiredReclaimed(), store.estimatedBytes(), store.evicted(Bound.KEYS), store.evicted(Bound.MEMORY),
        store.rejected(), store.limits());
  }

  /** A key that is live already, or a full store, answers 00. */
  private void handleInsert(Request.Insert insert, ByteBuf out, long now, int window) {
    int hash = store.hash(insert.key());
    if (store.find(insert.key(), hash, now) != null) {
      Responses.status(out, false);
      return;
    }
    long expiresAt = Ttl.expiresAt(now, insert.ttlType(), insert.ttl());
    Record created = store.createCounter(insert.key(), hash, insert.quota(), insert.ttlType(), expiresAt, now);
    if (created == null) {
      Responses.status(out, false);
      return;
    }
    created.countWrite(window);
    Responses.status(out, true);
  }

  private void handleQuery(Request.Query query, ByteBuf out, long now, int window) {
    Record record = store.find(query.key(), store.hash(query.key()), now);
    if (record == null) {
      Responses.status(out, false);
      return;
    }
    record.countRead(window);
    Responses.query(out, size, record.counter(), record.ttlType(), remaining(record, now));
  }

  private void handleGet(Request.Get get, ByteBuf out, long now, int window) {
    Record record = store.find(get.key(), store.hash(get.key()), now);
    if (record == null) {
      Responses.status(out, false);
      return;
    }
    record.countRead(window);
    Responses.get(out, size, record.ttlType(), remaining(record, now), record.buffer());
  }

  private void handleUpdate(Request.Update update, ByteBuf out, long now, int window) {
    Record record = store.find(update.key(), store.hash(update.key()), now);
    if (record == null) {
      Responses.status(out, false);
      return;
    }
    record.countRead(window);
    boolean changed;
    switch (update.attribute()) {
      case Request.Update.ATTRIBUTE_QUOTA: changed = updateQuota(record, update); break;
      case Request.Update.ATTRIBUTE_TTL: changed = updateTtl(record, update, now); break;
      default: changed = false;
    }
    if (changed) {
      record.countWrite(window);
    }
    Responses.status(out, changed);
  }

  /** Quota changes wrap modulo 2^(8N); a decrease below zero is refused; an unknown change is a no-op success. */
  private boolean updateQuota(Record record, Request.Update update) {
    if (!record.isCounter()) {
      return false;
    }
    switch (update.change()) {
      case Request.Update.CHANGE_PATCH:
        store.setCounter(record, update.value());
        return true;
      case Request.Update.CHANGE_INCREASE:
        store.setCounter(record, size.wrap(record.counter() + update.value()));
        return true;
      case Request.Update.CHANGE_DECREASE:
        if (Long.compareUnsigned(record.counter(), update.value()) < 0) {
          return false;
        }
        store.setCounter(record, record.counter() - update.value());
        return true;
      default:
        return true;
    }
  }

  /** TTL values are read in the record's stored unit; a decrease may move expiry into the past. */
  private boolean updateTtl(Record record, Request.Update update, long now) {
    long delta = Ttl.toNanos(update.value(), Ttl.updateUnitNanos(record.ttlType()));
    switch (update.change()) {
      case Request.Update.CHANGE_PATCH:
        store.setExpiry(record, Ttl.saturatingAdd(now, delta));
        break;
      case Request.Update.CHANGE_INCREASE:
        store.setExpiry(record, Ttl.saturatingAdd(record.expiresAtNanos(), delta));
        break;
      case Request.Update.CHANGE_DECREASE:
        store.setExpiry(record, record.expiresAtNanos() - delta);
        break;
      default:
    }
    return true;
  }

  private void handlePurge(Request.Purge purge, ByteBuf out, long now) {
    Record record = store.find(purge.key(), store.hash(purge.key()), now);
    if (record != null) {
      store.remove(record);
    }
    Responses.status(out, record != null);
  }

  /** SET creates or overwrites a buffer; it never replaces a counter. A full store refuses it. */
  private void handleSet(Request.Set set, ByteBuf out, long now, int window) {
    int hash = store.hash(set.key());
    Record record = store.find(set.key(), hash, now);
    long expiresAt = Ttl.expiresAt(now, set.ttlType(), set.ttl());
    if (record == null) {
      record = store.createBuffer(set.key(), hash, set.value(), set.ttlType(), expiresAt, now);
    } else if (record.isCounter() || !store.overwriteBuffer(record, set.value(), set.ttlType(), expiresAt)) {
      record = null;
    }
    if (record == null) {
      Responses.status(out, false);
      return;
    }
    record.countWrite(window);
    Responses.status(out, true);
  }

  private void handleStat(Request.Stat stat, ByteBuf out, long now, int window) {
    Record record = store.find(stat.key(), store.hash(stat.key()), now);
    if (record == null) {
      Responses.status(out, false);
      return;
    }
    record.countRead(window);
    Responses.stat(out, record.readsPerMinute(window), record.writesPerMinute(window),
        record.totalReads(window), record.totalWrites(window));
  }

  private List<Listing.KeyItem> list(int window) {
    List<Listing.KeyItem> items = new ArrayList<>();
    store.forEachLive(record -> {
      record.countRead(window);
      long bytesUsed = record.isCounter() ? size.bytes() : record.buffer().length;
      items.add(new Listing.KeyItem(record.key(), record.kind(), record.ttlType(), record.expiresAtNanos(), bytesUsed));
    });
    return items;
  }

  private List<Listing.KeyStatsItem> stats(int window) {
    List<Listing.KeyStatsItem> items = new ArrayList<>();
    store.forEachLive(record -> {
      record.countRead(window);
      items.add(new Listing.KeyStatsItem(record.key(), record.readsPerMinute(window),
          record.writesPerMinute(window), record.totalReads(window), record.totalWrites(window)));
    });
    return items;
  }

  private long remaining(Record record, long now) {
    return Ttl.remaining(record.expiresAtNanos(), now, record.ttlType(), size);
  }
}
