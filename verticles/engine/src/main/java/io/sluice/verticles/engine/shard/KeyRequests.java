package io.sluice.verticles.engine.shard;

import io.netty.buffer.ByteBuf;
import io.sluice.protocol.binary.codec.Listing;
import io.sluice.protocol.binary.codec.Request;
import io.sluice.protocol.binary.codec.Responses;
import io.sluice.protocol.binary.codec.ValueSize;
import io.sluice.verticles.engine.storage.Record;
import io.sluice.verticles.engine.storage.Store;

import java.util.ArrayList;
import java.util.List;

/**
 * What each Throttr request does to a shard's {@link Store} (spec §2): one {@code handleX} per
 * request type behind one switch, for {@link ThrottrRequests}. A key request writes its reply; a
 * listing (LIST, STATS, INFO) gives this shard's {@link ShardListing} part.
 */
final class KeyRequests {

  private KeyRequests() {
  }

  static void run(ShardContext shard, Request request) {
    Store store = shard.store();
    ValueSize size = shard.valueSize();
    ByteBuf out = shard.replies();
    long now = shard.nowNanos();
    int window = shard.window();
    switch (request.type()) {
      case INSERT: handleInsert(store, (Request.Insert) request, out, now, window); break;
      case QUERY: handleQuery(store, size, (Request.Query) request, out, now, window); break;
      case UPDATE: handleUpdate(store, size, (Request.Update) request, out, now, window); break;
      case PURGE: handlePurge(store, (Request.Purge) request, out, now); break;
      case SET: handleSet(store, (Request.Set) request, out, now, window); break;
      case GET: handleGet(store, size, (Request.Get) request, out, now, window); break;
      case STAT: handleStat(store, (Request.Stat) request, out, now, window); break;
      case LIST: shard.collect(new ShardListing.Keys(list(store, size, window))); break;
      case STATS: shard.collect(new ShardListing.KeyStats(stats(store, window))); break;
      case INFO: shard.collect(ThrottrShard.summary(store)); break;
      default: throw new IllegalArgumentException(request.type() + " is not a shard request");
    }
  }

  /** A key that is live already, or a full store, answers 00. */
  private static void handleInsert(Store store, Request.Insert insert, ByteBuf out, long now, int window) {
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

  private static void handleQuery(Store store, ValueSize size, Request.Query query, ByteBuf out, long now, int window) {
    Record record = store.find(query.key(), store.hash(query.key()), now);
    if (record == null) {
      Responses.status(out, false);
      return;
    }
    record.countRead(window);
    Responses.query(out, size, record.counter(), record.ttlType(), remaining(size, record, now));
  }

  private static void handleGet(Store store, ValueSize size, Request.Get get, ByteBuf out, long now, int window) {
    Record record = store.find(get.key(), store.hash(get.key()), now);
    if (record == null) {
      Responses.status(out, false);
      return;
    }
    record.countRead(window);
    Responses.get(out, size, record.ttlType(), remaining(size, record, now), record.buffer());
  }

  private static void handleUpdate(Store store, ValueSize size, Request.Update update, ByteBuf out, long now, int window) {
    Record record = store.find(update.key(), store.hash(update.key()), now);
    if (record == null) {
      Responses.status(out, false);
      return;
    }
    record.countRead(window);
    boolean changed;
    switch (update.attribute()) {
      case Request.Update.ATTRIBUTE_QUOTA: changed = updateQuota(store, size, record, update); break;
      case Request.Update.ATTRIBUTE_TTL: changed = updateTtl(store, record, update, now); break;
      default: changed = false;
    }
    if (changed) {
      record.countWrite(window);
    }
    Responses.status(out, changed);
  }

  /** Quota changes wrap modulo 2^(8N); a decrease below zero is refused; an unknown change is a no-op success. */
  private static boolean updateQuota(Store store, ValueSize size, Record record, Request.Update update) {
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
  private static boolean updateTtl(Store store, Record record, Request.Update update, long now) {
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

  private static void handlePurge(Store store, Request.Purge purge, ByteBuf out, long now) {
    Record record = store.find(purge.key(), store.hash(purge.key()), now);
    if (record != null) {
      store.remove(record);
    }
    Responses.status(out, record != null);
  }

  /** SET creates or overwrites a buffer; it never replaces a counter. A full store refuses it. */
  private static void handleSet(Store store, Request.Set set, ByteBuf out, long now, int window) {
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

  private static void handleStat(Store store, Request.Stat stat, ByteBuf out, long now, int window) {
    Record record = store.find(stat.key(), store.hash(stat.key()), now);
    if (record == null) {
      Responses.status(out, false);
      return;
    }
    record.countRead(window);
    Responses.stat(out, record.readsPerMinute(window), record.writesPerMinute(window),
        record.totalReads(window), record.totalWrites(window));
  }

  private static List<Listing.KeyItem> list(Store store, ValueSize size, int window) {
    List<Listing.KeyItem> items = new ArrayList<>();
    store.forEachLive(record -> {
      record.countRead(window);
      long bytesUsed = record.isCounter() ? size.bytes() : record.buffer().length;
      items.add(new Listing.KeyItem(record.key(), record.kind(), record.ttlType(), record.expiresAtNanos(), bytesUsed));
    });
    return items;
  }

  private static List<Listing.KeyStatsItem> stats(Store store, int window) {
    List<Listing.KeyStatsItem> items = new ArrayList<>();
    store.forEachLive(record -> {
      record.countRead(window);
      items.add(new Listing.KeyStatsItem(record.key(), record.readsPerMinute(window),
          record.writesPerMinute(window), record.totalReads(window), record.totalWrites(window)));
    });
    return items;
  }

  private static long remaining(ValueSize size, Record record, long now) {
    return Ttl.remaining(record.expiresAtNanos(), now, record.ttlType(), size);
  }
}
