package io.sluice.core.shard;

import io.netty.buffer.ByteBuf;
import io.sluice.core.storage.Record;
import io.sluice.core.storage.Store;
import io.sluice.throttr.codec.Listing;
import io.sluice.throttr.codec.Request;
import io.sluice.throttr.codec.Responses;
import io.sluice.throttr.codec.TtlUnit;
import io.sluice.throttr.codec.ValueSize;

import java.util.ArrayList;
import java.util.List;

/**
 * Runs Throttr requests against one shard's {@link Store} (spec §2): one {@code handleX} per
 * request type behind one switch. Pure: no Vert.x, no threads; the shard verticle calls it on its
 * own event loop.
 */
public final class ThrottrShard {

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
   * Runs every request of the batch in order. The clock is read per request, as time passes between
   * pipelined requests: a QUERY right after an INSERT of 60 s reads 59, as clients expect.
   */
  public void execute(ShardBatch batch) {
    ByteBuf out = batch.startReplies();
    for (int i = 0; i < batch.size(); i++) {
      long now = store.now();
      int window = store.window(now);
      Object entry = batch.entry(i);
      if (entry instanceof ShardTask) {
        runTask((ShardTask) entry, now, window);
        batch.endReply(i);
        continue;
      }
      if (entry instanceof KeyLookup) {
        lookUp((KeyLookup) entry, now, window);
        batch.endReply(i);
        continue;
      }
      if (entry instanceof ShardScan) {
        store.forEachLive(((ShardScan) entry)::visit);
        batch.endReply(i);
        continue;
      }
      if (entry instanceof SlicedScan) {
        ((SlicedScan) entry).runSlice(store);
        batch.endReply(i);
        continue;
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
        case LIST: batch.collect(i, list(window)); break;
        case STATS: batch.collect(i, stats(window)); break;
        case INFO: batch.collect(i, summary()); break;
        default: throw new IllegalArgumentException(request.type() + " is not a shard request");
      }
      batch.endReply(i);
    }
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

      public void put(byte[] value, long ttlNanos) {
        if (record != null && record.isCounter()) {
          throw new IllegalStateException("the key holds a counter");
        }
        long expiresAt = Ttl.saturatingAdd(now, Math.max(0, ttlNanos));
        if (record == null) {
          record = store.createBuffer(key, hash, value, TtlUnit.SECONDS.code(), expiresAt, now);
        } else {
          store.overwriteBuffer(record, value, TtlUnit.SECONDS.code(), expiresAt);
        }
        record.countWrite(window);
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
        record.writesPerMinute(window), record.totalReads(window), record.totalWrites(window)));
  }

  public ShardSummary summary() {
    return new ShardSummary(store.size(), store.counters(), store.buffers(), store.bufferBytes(),
        store.expiredReclaimed());
  }

  private void handleInsert(Request.Insert insert, ByteBuf out, long now, int window) {
    int hash = store.hash(insert.key());
    if (store.find(insert.key(), hash, now) != null) {
      Responses.status(out, false);
      return;
    }
    long expiresAt = Ttl.expiresAt(now, insert.ttlType(), insert.ttl());
    store.createCounter(insert.key(), hash, insert.quota(), insert.ttlType(), expiresAt, now).countWrite(window);
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
        record.setCounter(update.value());
        return true;
      case Request.Update.CHANGE_INCREASE:
        record.setCounter(size.wrap(record.counter() + update.value()));
        return true;
      case Request.Update.CHANGE_DECREASE:
        if (Long.compareUnsigned(record.counter(), update.value()) < 0) {
          return false;
        }
        record.setCounter(record.counter() - update.value());
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
        record.setExpiresAtNanos(Ttl.saturatingAdd(now, delta));
        break;
      case Request.Update.CHANGE_INCREASE:
        record.setExpiresAtNanos(Ttl.saturatingAdd(record.expiresAtNanos(), delta));
        break;
      case Request.Update.CHANGE_DECREASE:
        record.setExpiresAtNanos(record.expiresAtNanos() - delta);
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

  /** SET creates or overwrites a buffer; it never replaces a counter. */
  private void handleSet(Request.Set set, ByteBuf out, long now, int window) {
    int hash = store.hash(set.key());
    Record record = store.find(set.key(), hash, now);
    long expiresAt = Ttl.expiresAt(now, set.ttlType(), set.ttl());
    if (record == null) {
      record = store.createBuffer(set.key(), hash, set.value(), set.ttlType(), expiresAt, now);
    } else if (record.isCounter()) {
      Responses.status(out, false);
      return;
    } else {
      store.overwriteBuffer(record, set.value(), set.ttlType(), expiresAt);
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
