package io.sluice.core.browse;

import io.sluice.core.shard.ShardScan;
import io.sluice.core.storage.Record;

import java.util.Arrays;
import java.util.Comparator;
import java.util.PriorityQueue;

/**
 * One shard's share of a page of the keys table: it counts the live keys containing the search
 * bytes and keeps only the first {@code offset + limit} of them in key order, so a page of 100,000
 * keys costs a walk of the shard and a bounded heap, never a copy of every key. One instance per
 * shard (each runs on its shard's thread); {@link KeyPage#merge} joins them.
 */
public final class KeyPageScan implements ShardScan {

  static final Comparator<KeySummary> KEY_ORDER = (a, b) -> Arrays.compareUnsigned(a.key(), b.key());

  private final byte[] search;
  private final int keep;
  /** The largest kept key on top, so a smaller newcomer can replace it. */
  private final PriorityQueue<KeySummary> kept;
  private long matching;

  /**
   * @param search bytes a key must contain; empty for every key
   * @param keep   how many of the smallest matching keys to keep ({@code offset + limit})
   */
  public KeyPageScan(byte[] search, int keep) {
    this.search = search.clone();
    this.keep = keep;
    this.kept = new PriorityQueue<>(Math.max(1, Math.min(keep, 1024)), KEY_ORDER.reversed());
  }

  @Override
  public void visit(Record record) {
    byte[] key = record.key();
    if (!contains(key, search)) {
      return;
    }
    matching++;
    if (keep == 0) {
      return;
    }
    if (kept.size() == keep) {
      if (Arrays.compareUnsigned(key, kept.peek().key()) >= 0) {
        return;
      }
      kept.poll();
    }
    kept.add(new KeySummary(key.clone(), record.isCounter(), record.ttlType(), record.expiresAtNanos(),
        record.isCounter() ? 0 : record.buffer().length));
  }

  long matching() {
    return matching;
  }

  PriorityQueue<KeySummary> kept() {
    return kept;
  }

  static boolean contains(byte[] text, byte[] part) {
    if (part.length == 0) {
      return true;
    }
    int last = text.length - part.length;
    for (int start = 0; start <= last; start++) {
      if (Arrays.equals(text, start, start + part.length, part, 0, part.length)) {
        return true;
      }
    }
    return false;
  }
}
