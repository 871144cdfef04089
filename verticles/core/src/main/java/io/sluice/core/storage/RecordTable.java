package io.sluice.core.storage;

import java.util.Arrays;
import java.util.function.Predicate;

/**
 * A chained hash table of records keyed by exact key bytes. Records are their own entries, so a
 * stored key costs no node or boxed key object: this is what keeps a counter near 100 bytes.
 */
final class RecordTable {

  private static final int MIN_CAPACITY = 64;

  private Record[] buckets = new Record[MIN_CAPACITY];
  private int size;

  int size() {
    return size;
  }

  int capacity() {
    return buckets.length;
  }

  Record get(byte[] key, int hash) {
    for (Record r = buckets[hash & (buckets.length - 1)]; r != null; r = r.next) {
      if (Arrays.equals(r.key, key)) {
        return r;
      }
    }
    return null;
  }

  /** Adds a record whose key is known to be absent; {@code hash} is {@link KeyHash#of} its key. */
  void add(Record record, int hash) {
    // Load factor 1: chains stay short with a good hash, and the bucket array costs 4 to 8 bytes a
    // record instead of 5 to 11 at 0.75.
    if (size >= buckets.length) {
      resize(buckets.length << 1);
    }
    int index = hash & (buckets.length - 1);
    record.next = buckets[index];
    buckets[index] = record;
    size++;
  }

  boolean remove(Record record) {
    int index = KeyHash.of(record.key) & (buckets.length - 1);
    Record previous = null;
    for (Record r = buckets[index]; r != null; previous = r, r = r.next) {
      if (r == record) {
        if (previous == null) {
          buckets[index] = r.next;
        } else {
          previous.next = r.next;
        }
        r.next = null;
        size--;
        return true;
      }
    }
    return false;
  }

  /**
   * Visits the buckets {@code [from, from + count)} (wrapping at the end), removing the records the
   * predicate selects and passing each to {@code removed}. Returns the bucket to continue from.
   */
  int removeIf(int from, int count, Predicate<Record> select, java.util.function.Consumer<Record> removed) {
    int mask = buckets.length - 1;
    int index = from & mask;
    for (int visited = 0; visited < count && visited <= mask; visited++) {
      Record previous = null;
      Record r = buckets[index];
      while (r != null) {
        Record next = r.next;
        if (select.test(r)) {
          if (previous == null) {
            buckets[index] = next;
          } else {
            previous.next = next;
          }
          r.next = null;
          size--;
          removed.accept(r);
        } else {
          previous = r;
        }
        r = next;
      }
      index = (index + 1) & mask;
    }
    return index;
  }

  void forEach(java.util.function.Consumer<Record> action) {
    for (Record head : buckets) {
      for (Record r = head; r != null; r = r.next) {
        action.accept(r);
      }
    }
  }

  private void resize(int capacity) {
    Record[] old = buckets;
    Record[] grown = new Record[capacity];
    int mask = capacity - 1;
    for (Record head : old) {
      Record r = head;
      while (r != null) {
        Record next = r.next;
        int index = KeyHash.of(r.key) & mask;
        r.next = grown[index];
        grown[index] = r;
        r = next;
      }
    }
    buckets = grown;
  }
}
