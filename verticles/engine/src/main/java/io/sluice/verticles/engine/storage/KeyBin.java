package io.sluice.verticles.engine.storage;

import java.util.Arrays;
import java.util.Iterator;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The records of one overfull bucket of a {@link RecordTable}, in a balanced tree ordered by key
 * bytes, so that finding, adding and removing cost O(log n) key comparisons however many keys
 * share the bucket: the guard that holds even when the table hash is beaten (the same idea as
 * {@code java.util.HashMap}'s tree bins). Ordering by the bytes, not by the hash, means keys with
 * one and the same hash are still told apart in O(log n). A bin costs a tree node per record, but
 * with a keyed hash bins are rare: they exist only where more than
 * {@link RecordTable#TREEIFY_AT} - 1 keys share a bucket.
 */
final class KeyBin {

  private final TreeMap<byte[], Record> records = new TreeMap<>(this::compare);
  private long comparisons;

  int size() {
    return records.size();
  }

  Record get(byte[] key) {
    return records.get(key);
  }

  void add(Record record) {
    record.next = null;
    records.put(record.key, record);
  }

  boolean remove(Record record) {
    return records.remove(record.key, record);
  }

  /** Removes the records {@code select} picks, passing each to {@code removed}. */
  void removeIf(Predicate<Record> select, Consumer<Record> removed) {
    for (Iterator<Record> it = records.values().iterator(); it.hasNext(); ) {
      Record r = it.next();
      if (select.test(r)) {
        it.remove();
        removed.accept(r);
      }
    }
  }

  void forEach(Consumer<Record> action) {
    records.values().forEach(action);
  }

  /** The records as a chain again, in key order; the bin is not used afterwards. */
  Record toChain() {
    Record head = null;
    for (Record r : records.descendingMap().values()) {
      r.next = head;
      head = r;
    }
    return head;
  }

  /** Key comparisons made so far: how tests see that a lookup stays logarithmic. */
  long comparisons() {
    return comparisons;
  }

  private int compare(byte[] a, byte[] b) {
    comparisons++;
    return Arrays.compareUnsigned(a, b);
  }
}
