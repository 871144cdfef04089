package io.sluice.verticles.engine.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

/** The chained hash table keeps every record findable by exact key bytes through many resizes. */
class RecordTableTest {

  private final RecordTable table = new RecordTable();

  private static byte[] key(String text) {
    return text.getBytes(StandardCharsets.US_ASCII);
  }

  private static Record record(String name) {
    return new Record(key(name), 0);
  }

  private void add(Record record) {
    table.add(record, table.hash(record.key()));
  }

  private Record get(String name) {
    byte[] key = key(name);
    return table.get(key, table.hash(key));
  }

  private int bucket(String name, int capacity) {
    return table.hash(key(name)) & (capacity - 1);
  }

  /** The first {@code count} keys {@code prefix + n} whose bucket in a table of that capacity is {@code bucket}. */
  private List<String> keysInBucket(String prefix, int bucket, int capacity, int count) {
    List<String> keys = new ArrayList<>();
    for (int n = 0; keys.size() < count; n++) {
      if (bucket(prefix + n, capacity) == bucket) {
        keys.add(prefix + n);
      }
    }
    return keys;
  }

  @Test
  void growsPastManyResizesAndStillFindsAndRemovesEverything() {
    int count = 200_000;
    List<Record> records = new ArrayList<>(count);
    int initialCapacity = table.capacity();
    for (int i = 0; i < count; i++) {
      Record r = record("key-" + i);
      records.add(r);
      add(r);
    }

    assertThat(table.size()).isEqualTo(count);
    assertThat(Integer.bitCount(table.capacity())).isEqualTo(1);
    assertThat(table.capacity()).isGreaterThanOrEqualTo(initialCapacity << 10);
    assertThat(table.capacity()).isGreaterThanOrEqualTo(count);
    for (int i = 0; i < count; i++) {
      assertThat(get("key-" + i)).isSameAs(records.get(i));
    }

    for (int i = 0; i < count; i += 2) {
      assertThat(table.remove(records.get(i))).isTrue();
    }
    assertThat(table.size()).isEqualTo(count / 2);
    for (int i = 0; i < count; i++) {
      Record found = get("key-" + i);
      if (i % 2 == 0) {
        assertThat(found).isNull();
      } else {
        assertThat(found).isSameAs(records.get(i));
      }
    }

    for (int i = 1; i < count; i += 2) {
      assertThat(table.remove(records.get(i))).isTrue();
    }
    assertThat(table.size()).isZero();
    Set<Record> left = new HashSet<>();
    table.forEach(left::add);
    assertThat(left).isEmpty();
  }

  @Test
  void forEachVisitsEveryRecordExactlyOnce() {
    List<Record> added = new ArrayList<>();
    for (int i = 0; i < 1_000; i++) {
      Record r = record("k" + i);
      added.add(r);
      add(r);
    }
    List<Record> seen = new ArrayList<>();
    table.forEach(seen::add);

    assertThat(seen).hasSize(1_000).containsExactlyInAnyOrderElementsOf(added);
  }

  @Test
  void recordsInTheSameBucketAreToldApartByTheirBytes() {
    int capacity = table.capacity();
    List<String> names = keysInBucket("same-bucket-", 5, capacity, 3);
    Record a = record(names.get(0));
    Record b = record(names.get(1));
    Record c = record(names.get(2));
    add(a);
    add(b);
    add(c);
    assertThat(table.capacity()).isEqualTo(capacity);

    assertThat(get(names.get(0))).isSameAs(a);
    assertThat(get(names.get(1))).isSameAs(b);
    assertThat(get(names.get(2))).isSameAs(c);
    String stranger = keysInBucket("stranger-", 5, capacity, 1).get(0);
    assertThat(get(stranger)).isNull();

    assertThat(table.remove(b)).isTrue();
    assertThat(get(names.get(1))).isNull();
    assertThat(get(names.get(0))).isSameAs(a);
    assertThat(get(names.get(2))).isSameAs(c);
  }

  @Test
  void keysAreComparedByContentNotByArrayIdentity() {
    Record r = record("same");
    add(r);

    assertThat(table.get(key("same"), table.hash(key("same")))).isSameAs(r);
    assertThat(get("sam")).isNull();
    assertThat(get("same ")).isNull();
  }

  @Test
  void emptyKeyIsAKeyLikeAnyOther() {
    Record r = record("");
    add(r);

    assertThat(get("")).isSameAs(r);
  }

  @Test
  void removingARecordThatIsNotHeldReportsFalse() {
    Record held = record("k");
    add(held);
    Record twin = record("k");

    assertThat(table.remove(twin)).isFalse();
    assertThat(table.size()).isEqualTo(1);
    assertThat(table.remove(held)).isTrue();
    assertThat(table.remove(held)).isFalse();
    assertThat(table.size()).isZero();
  }

  @Test
  void removeIfVisitsOnlyTheGivenBucketsAndReturnsWhereToContinue() {
    List<Record> records = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      Record r = record("k" + i);
      records.add(r);
      add(r);
    }
    int mask = table.capacity() - 1;
    List<Record> removed = new ArrayList<>();

    int next = table.removeIf(60, 10, r -> true, removed::add);

    assertThat(next).isEqualTo((60 + 10) & mask);
    assertThat(removed).allSatisfy(r -> {
      int bucket = table.hash(r.key()) & mask;
      assertThat(bucket >= 60 || bucket < 6).isTrue();
    });
    long expected = records.stream()
        .map(r -> table.hash(r.key()) & mask)
        .filter(bucket -> bucket >= 60 || bucket < 6)
        .count();
    assertThat((long) removed.size()).isEqualTo(expected);
    assertThat(table.size()).isEqualTo(40 - removed.size());
  }

  /** A record for each name, added to {@code into}. */
  private static List<Record> addAll(RecordTable into, List<String> names) {
    List<Record> records = new ArrayList<>();
    for (String name : names) {
      Record r = record(name);
      records.add(r);
      into.add(r, into.hash(r.key()));
    }
    return records;
  }

  /** removeIf over the whole table takes every other record of {@code records}, and only those. */
  private static Set<Record> removeEveryOther(RecordTable from, List<Record> records) {
    Set<Record> drop = new HashSet<>();
    for (int i = 0; i < records.size(); i += 2) {
      drop.add(records.get(i));
    }
    List<Record> removed = new ArrayList<>();
    from.removeIf(0, from.capacity(), drop::contains, removed::add);
    assertThat(removed).containsExactlyInAnyOrderElementsOf(drop);
    return drop;
  }

  @Test
  void removeIfKeepsWhatThePredicateDoesNotSelectInEveryChainPosition() {
    // One bucket with the longest chain there can be: remove every other record, head and tail included.
    List<String> names = keysInBucket("chain-", 7, table.capacity(), RecordTable.TREEIFY_AT - 1);
    List<Record> chain = addAll(table, names);

    removeEveryOther(table, chain);

    assertThat(table.binnedRecords()).isZero();
    assertThat(table.size()).isEqualTo(3);
    for (int i = 0; i < chain.size(); i++) {
      assertThat(get(names.get(i))).isEqualTo(i % 2 == 0 ? null : chain.get(i));
    }
  }

  @Test
  void removeIfWithACountLargerThanTheTableVisitsEachBucketOnce() {
    for (int i = 0; i < 10; i++) {
      add(record("k" + i));
    }
    List<Record> visited = new ArrayList<>();

    table.removeIf(0, 1_000_000, r -> {
      visited.add(r);
      return false;
    }, r -> { });

    assertThat(visited).hasSize(10).doesNotHaveDuplicates();
  }

  @Test
  void recordsStayFindableAcrossTheResizeAtFullLoad() {
    int capacity = table.capacity();
    List<Record> records = new ArrayList<>();
    for (int i = 0; i <= capacity; i++) {
      Record r = record("r" + i);
      records.add(r);
      add(r);
    }

    assertThat(table.capacity()).isEqualTo(capacity * 2);
    for (int i = 0; i <= capacity; i++) {
      assertThat(get("r" + i)).isSameAs(records.get(i));
    }
  }

  @Test
  void aScanInSlicesVisitsEveryRecordOnceWhileTheTableGrowsBetweenSlices() {
    List<Record> before = new ArrayList<>();
    for (int i = 0; i < 1_000; i++) {
      Record r = record("old-" + i);
      before.add(r);
      add(r);
    }
    java.util.Map<Record, Integer> visits = new java.util.IdentityHashMap<>();
    int cursor = 0;
    int added = 0;
    int capacityAtStart = table.capacity();
    do {
      int[] inSlice = {0};
      cursor = table.scan(cursor, 100, r -> {
        visits.merge(r, 1, Integer::sum);
        inSlice[0]++;
      });
      assertThat(inSlice[0]).isLessThanOrEqualTo(100 + RecordTable.TREEIFY_AT);
      for (int i = 0; i < 100; i++) {
        add(record("new-" + added++));
      }
    } while (cursor != 0);

    assertThat(table.capacity()).as("the table grew during the scan").isGreaterThan(capacityAtStart * 4);
    for (Record r : before) {
      assertThat(visits.get(r)).as(new String(r.key(), StandardCharsets.US_ASCII)).isEqualTo(1);
    }
    assertThat(visits.values()).containsOnly(1);
  }

  @Test
  void recordsInABinAreSweptAndVisitedLikeAnyOthers() {
    RecordTable binned = new RecordTable(key -> 3);
    List<String> names = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      names.add("bin-" + i);
    }
    List<Record> records = addAll(binned, names);
    assertThat(binned.binnedRecords()).isEqualTo(100);

    Set<Record> dropped = removeEveryOther(binned, records);

    assertThat(binned.size()).isEqualTo(50);
    for (int i = 0; i < 100; i++) {
      assertThat(binned.get(records.get(i).key(), 3)).isSameAs(i % 2 == 0 ? null : records.get(i));
    }
    List<Record> seen = new ArrayList<>();
    binned.forEach(seen::add);
    assertThat(seen).hasSize(50).doesNotHaveDuplicates().doesNotContainAnyElementsOf(dropped);
    List<Record> scanned = new ArrayList<>();
    assertThat(binned.scan(0, Integer.MAX_VALUE, scanned::add)).isZero();
    assertThat(scanned).containsExactlyInAnyOrderElementsOf(seen);
  }
}
