package io.sluice.verticles.engine.browse;

import io.sluice.verticles.engine.shard.ShardScan;
import io.sluice.verticles.engine.storage.Record;

import java.util.Arrays;
import java.util.Comparator;
import java.util.PriorityQueue;

/**
 * One shard's share of a page of the keys table: it counts the live keys containing the search
 * bytes and keeps only the first {@code keep} of those after the cursor, in key order, so a page
 * costs a walk of the shard and a bounded heap, never a copy of every key, however deep it is.
 * One instance per shard (each runs on its shard's thread); {@link KeyPage#merge} joins them.
 */
public final class KeyPageScan implements ShardScan {

  static final Comparator<KeySummary> KEY_ORDER = (a, b) -> Arrays.compareUnsigned(a.key(), b.key());

  private final byte[] search;
  private final byte[] after;
  private final int keep;
  /** The largest kept key on top, so a smaller newcomer can replace it. */
  private final PriorityQueue<KeySummary> kept;
  private long matching;
  private long atOrBeforeCursor;

  /**
   * @param search bytes a key must contain; empty for every key
   * @param after  the cursor: only keys after it (in unsigned byte order) are kept; null for all
   * @param keep   how many of the smallest matching keys after the cursor to keep ({@code offset + limit})
   */
  public KeyPageScan(byte[] search, byte[] after, int keep) {
    this.search = search.clone();
    this.after = after == null ? null : after.clone();
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
    if (after != null && Arrays.compareUnsigned(key, after) <= 0) {
      atOrBeforeCursor++;
      return;
    }
    if (makesRoomFor(key)) {
      kept.add(new KeySummary(key.clone(), record.isCounter(), record.ttlType(), record.expiresAtNanos(),
          record.isCounter() ? 0 : record.buffer().length));
    }
  }

  /** True when {@code key} is among the first {@code keep}; the largest kept key then gave way if need be. */
  private boolean makesRoomFor(byte[] key) {
    if (keep == 0) {
      return false;
    }
    if (kept.size() == keep) {
      if (Arrays.compareUnsigned(key, kept.peek().key()) >= 0) {
        return false;
      }
      kept.poll();
    }
    return true;
  }

  /**
   * Adds what a scan with the same arguments found elsewhere (a slice of a partition walked on its
   * owner, another node): its counts, and its kept keys that are among the first {@code keep}.
   */
  void absorb(long matchingThere, long atOrBeforeCursorThere, Iterable<KeySummary> keptThere) {
    matching += matchingThere;
    atOrBeforeCursor += atOrBeforeCursorThere;
    for (KeySummary summary : keptThere) {
      if (makesRoomFor(summary.key())) {
        kept.add(summary);
      }
    }
  }

  byte[] search() {
    return search;
  }

  byte[] after() {
    return after;
  }

  int keep() {
    return keep;
  }

  long matching() {
    return matching;
  }

  long atOrBeforeCursor() {
    return atOrBeforeCursor;
  }

  PriorityQueue<KeySummary> kept() {
    return kept;
  }

  static boolean contains(byte[] text, byte[] part) {
    if (part.length == 0) {
      return true;
    }
    byte first = part[0];
    int last = text.length - part.length;
    for (int start = 0; start <= last; start++) {
      // Most positions fail on their first byte: test it before calling out to compare the rest.
      if (text[start] == first && Arrays.equals(text, start, start + part.length, part, 0, part.length)) {
        return true;
      }
    }
    return false;
  }
}
