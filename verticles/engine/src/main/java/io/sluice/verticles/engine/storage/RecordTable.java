package io.sluice.verticles.engine.storage;

import java.util.Arrays;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.ToIntFunction;

/**
 * A chained hash table of records keyed by exact key bytes. Records are their own entries, so a
 * stored key costs no node or boxed key object: this is what keeps a counter near 100 bytes.
 *
 * <p>Keys are chosen by clients, so the table defends itself against keys made to collide
 * (issue 12): buckets are placed by a keyed hash that differs per table ({@link TableHash}), and a
 * bucket whose chain would reach {@link #TREEIFY_AT} records becomes a {@link KeyBin}, a tree
 * ordered by key bytes. Each operation thus costs O(1) expected and O(log n) at worst.
 */
final class RecordTable {

  private static final int MIN_CAPACITY = 64;
  /**
   * A chain that would reach this length becomes a bin. With a keyed hash and at most one record
   * per bucket on average, a chain of 8 is a one-in-a-million bucket, so bins cost nothing unless
   * someone beats the hash.
   */
  static final int TREEIFY_AT = 8;
  /** A bin this small becomes a chain again; below {@link #TREEIFY_AT} so a bucket does not flip at every write. */
  static final int UNTREEIFY_AT = 6;

  private final ToIntFunction<byte[]> hash;
  /** Each bucket is empty, the head {@link Record} of a chain, or a {@link KeyBin}. */
  private Object[] buckets = new Object[MIN_CAPACITY];
  private int size;

  RecordTable() {
    this(TableHash.random()::of);
  }

  /** A table placing keys with {@code hash} (tests give it a hash that always collides). */
  RecordTable(ToIntFunction<byte[]> hash) {
    this.hash = hash;
  }

  /** The hash {@link #get} and {@link #add} take for a key. */
  int hash(byte[] key) {
    return hash.applyAsInt(key);
  }

  int size() {
    return size;
  }

  int capacity() {
    return buckets.length;
  }

  Record get(byte[] key, int hash) {
    Object head = buckets[hash & (buckets.length - 1)];
    if (head instanceof Record first) {
      for (Record r = first; r != null; r = r.next) {
        if (Arrays.equals(r.key, key)) {
          return r;
        }
      }
      return null;
    }
    return head == null ? null : ((KeyBin) head).get(key);
  }

  /** Adds a record whose key is known to be absent; {@code hash} is {@link #hash} of its key. */
  void add(Record record, int hash) {
    // Load factor 1: chains stay short with a good hash, and the bucket array costs 4 to 8 bytes a
    // record instead of 5 to 11 at 0.75.
    if (size >= buckets.length) {
      resize(buckets.length << 1);
    }
    place(buckets, hash & (buckets.length - 1), record);
    record.held = true;
    size++;
  }

  boolean remove(Record record) {
    int index = hash(record.key) & (buckets.length - 1);
    Object head = buckets[index];
    if (head instanceof KeyBin bin) {
      if (!bin.remove(record)) {
        return false;
      }
      record.held = false;
      size--;
      shrink(index, bin);
      return true;
    }
    Record previous = null;
    for (Record r = (Record) head; r != null; previous = r, r = r.next) {
      if (r == record) {
        if (previous == null) {
          buckets[index] = r.next;
        } else {
          previous.next = r.next;
        }
        r.next = null;
        r.held = false;
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
  int removeIf(int from, int count, Predicate<Record> select, Consumer<Record> removed) {
    int mask = buckets.length - 1;
    int index = from & mask;
    for (int visited = 0; visited < count && visited <= mask; visited++) {
      Object head = buckets[index];
      if (head instanceof KeyBin bin) {
        bin.removeIf(select, r -> {
          r.held = false;
          size--;
          removed.accept(r);
        });
        shrink(index, bin);
      } else {
        removeFromChain(index, select, removed);
      }
      index = (index + 1) & mask;
    }
    return index;
  }

  private void removeFromChain(int index, Predicate<Record> select, Consumer<Record> removed) {
    Record previous = null;
    Record r = (Record) buckets[index];
    while (r != null) {
      Record next = r.next;
      if (select.test(r)) {
        if (previous == null) {
          buckets[index] = next;
        } else {
          previous.next = next;
        }
        r.next = null;
        r.held = false;
        size--;
        removed.accept(r);
      } else {
        previous = r;
      }
      r = next;
    }
  }

  void forEach(Consumer<Record> action) {
    for (Object head : buckets) {
      visit(head, action);
    }
  }

  /**
   * Visits buckets from {@code cursor} on until {@code work} buckets and records have been visited
   * (a bucket is never split), and returns the cursor to continue from: 0 once every bucket was.
   * Buckets go in reverse-binary order of their index (Redis's SCAN): when the table doubles
   * between two calls, the buckets already visited become exactly the pairs already visited, so a
   * record present all along is visited once, neither missed nor repeated. The table never
   * shrinks. {@code action} must not change the table.
   */
  int scan(int cursor, int work, Consumer<Record> action) {
    int mask = buckets.length - 1;
    int next = cursor;
    int done = 0;
    do {
      done += 1 + visit(buckets[next & mask], action);
      next = Integer.reverse(Integer.reverse(next | ~mask) + 1);
    } while (next != 0 && done < work);
    return next;
  }

  /**
   * Visits the records of the buckets from {@code start} on (wrapping), stopping once
   * {@code records} records or {@code maxBuckets} buckets were visited: a sample whose cost is
   * bounded whatever the table size. Buckets are placed by a keyed hash, so a run of neighbouring
   * buckets is a random sample. {@code action} must not change the table.
   */
  void sample(int start, int records, int maxBuckets, Consumer<Record> action) {
    int mask = buckets.length - 1;
    int seen = 0;
    for (int i = 0; i < maxBuckets && i <= mask && seen < records; i++) {
      seen += visit(buckets[(start + i) & mask], action);
    }
  }

  /** Whether this very record is still in a table (records belong to one table only). */
  static boolean holds(Record record) {
    return record.held;
  }

  /** The longest chain: at most {@link #TREEIFY_AT} - 1 whatever the keys, as longer ones are bins. */
  int longestChain() {
    int longest = 0;
    for (Object head : buckets) {
      if (head instanceof Record first) {
        longest = Math.max(longest, chainLength(first, Integer.MAX_VALUE));
      }
    }
    return longest;
  }

  /** Records held in bins rather than chains. */
  int binnedRecords() {
    int binned = 0;
    for (Object head : buckets) {
      if (head instanceof KeyBin bin) {
        binned += bin.size();
      }
    }
    return binned;
  }

  /** The key comparisons {@link #get} makes to find {@code key}: what a lookup costs in the worst bucket. */
  long comparisonsToFind(byte[] key) {
    Object head = buckets[hash(key) & (buckets.length - 1)];
    if (head instanceof KeyBin bin) {
      long before = bin.comparisons();
      bin.get(key);
      return bin.comparisons() - before;
    }
    long comparisons = 0;
    for (Record r = (Record) head; r != null; r = r.next) {
      comparisons++;
      if (Arrays.equals(r.key, key)) {
        break;
      }
    }
    return comparisons;
  }

  /** Visits a bucket's records; returns how many. */
  private static int visit(Object head, Consumer<Record> action) {
    if (head instanceof KeyBin bin) {
      bin.forEach(action);
      return bin.size();
    }
    int visited = 0;
    for (Record r = (Record) head; r != null; r = r.next) {
      action.accept(r);
      visited++;
    }
    return visited;
  }

  /** Puts a record in bucket {@code index}, turning the chain into a bin when it gets too long. */
  private static void place(Object[] buckets, int index, Record record) {
    Object head = buckets[index];
    if (head instanceof KeyBin existing) {
      existing.add(record);
      return;
    }
    record.next = (Record) head;
    buckets[index] = record;
    if (chainLength(record, TREEIFY_AT) >= TREEIFY_AT) {
      KeyBin bin = new KeyBin();
      for (Record r = record; r != null; ) {
        Record next = r.next;
        bin.add(r);
        r = next;
      }
      buckets[index] = bin;
    }
  }

  private static int chainLength(Record head, int upTo) {
    int length = 0;
    for (Record r = head; r != null && length < upTo; r = r.next) {
      length++;
    }
    return length;
  }

  private void shrink(int index, KeyBin bin) {
    if (bin.size() <= UNTREEIFY_AT) {
      buckets[index] = bin.toChain();
    }
  }

  private void resize(int capacity) {
    Object[] grown = new Object[capacity];
    int mask = capacity - 1;
    // Rehashing here, rather than caching each record's hash, saves 8 bytes a record.
    Consumer<Record> move = r -> place(grown, hash(r.key) & mask, r);
    for (Object head : buckets) {
      if (head instanceof KeyBin bin) {
        bin.forEach(move);
      } else {
        Record r = (Record) head;
        while (r != null) {
          Record next = r.next;
          move.accept(r);
          r = next;
        }
      }
    }
    buckets = grown;
  }
}
