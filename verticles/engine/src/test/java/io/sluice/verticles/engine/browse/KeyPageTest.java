package io.sluice.verticles.engine.browse;

import io.sluice.verticles.engine.routing.ShardRouter;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.verticles.engine.storage.Store;
import io.sluice.verticles.engine.time.ManualClock;
import io.sluice.protocol.binary.codec.TtlUnit;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

class KeyPageTest {

  private final ManualClock clock = new ManualClock();
  private final List<Store> shards = List.of(new Store(clock, 0), new Store(clock, 0), new Store(clock, 0));

  private void counter(String key, long ttlSeconds) {
    byte[] bytes = bytes(key);
    Store shard = shardOf(bytes);
    long now = clock.epochNanos();
    shard.createCounter(bytes, shard.hash(bytes), 1, TtlUnit.SECONDS.code(), now + Duration.ofSeconds(ttlSeconds).toNanos(), now);
  }

  private void buffer(String key, String value) {
    byte[] bytes = bytes(key);
    Store shard = shardOf(bytes);
    long now = clock.epochNanos();
    shard.createBuffer(bytes, shard.hash(bytes), bytes(value), TtlUnit.MILLISECONDS.code(), now + 5_000_000_000L, now);
  }

  private Store shardOf(byte[] key) {
    return shards.get(ShardRouter.routeOf(key, shards.size()));
  }

  private KeyPage page(String search, int offset, int limit) {
    return page(search, null, offset, limit);
  }

  private KeyPage page(String search, String after, int offset, int limit) {
    List<KeyPageScan> scans = new ArrayList<>();
    for (Store shard : shards) {
      KeyPageScan scan = new KeyPageScan(bytes(search), after == null ? null : bytes(after), offset + limit);
      shard.forEachLive(scan::visit);
      scans.add(scan);
    }
    return KeyPage.merge(scans, offset, limit);
  }

  /** The first page, each shard walked in slices of a few buckets with {@code betweenSlices} run after each. */
  private KeyPage firstPageInSlices(int limit, Runnable betweenSlices) {
    List<KeyPageScan> scans = new ArrayList<>();
    for (Store shard : shards) {
      KeyPageScan scan = new KeyPageScan(new byte[0], null, limit);
      int cursor = 0;
      do {
        cursor = shard.scanLive(cursor, 7, scan::visit);
        betweenSlices.run();
      } while (cursor != 0);
      scans.add(scan);
    }
    return KeyPage.merge(scans, 0, limit);
  }

  private static String text(byte[] key) {
    return key == null ? null : new String(key, StandardCharsets.UTF_8);
  }

  private static List<String> keys(KeyPage page) {
    return page.items().stream().map(item -> new String(item.key(), StandardCharsets.UTF_8)).toList();
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void pagesAcrossShardsInKeyOrder() {
    for (int i = 0; i < 100; i++) {
      counter(String.format("user:%03d", i), 60);
    }
    KeyPage first = page("", 0, 10);
    assertThat(first.total()).isEqualTo(100);
    assertThat(keys(first)).containsExactly("user:000", "user:001", "user:002", "user:003", "user:004",
        "user:005", "user:006", "user:007", "user:008", "user:009");
    assertThat(keys(page("", 95, 10))).containsExactly("user:095", "user:096", "user:097", "user:098", "user:099");
    assertThat(page("", 100, 10).items()).isEmpty();
  }

  @Test
  void searchCountsAndKeepsOnlyMatchingKeys() {
    for (int i = 0; i < 30; i++) {
      counter("user:" + i, 60);
      counter("ip:" + i, 60);
    }
    KeyPage page = page("ip:2", 0, 5);
    assertThat(page.total()).isEqualTo(11); // ip:2 and ip:20..29
    assertThat(keys(page)).containsExactly("ip:2", "ip:20", "ip:21", "ip:22", "ip:23");
    assertThat(page("nothing", 0, 5).total()).isZero();
  }

  @Test
  void keysOrderAsUnsignedBytes() {
    counter("a", 60);
    counter("\u00e9", 60); // 0xC3 0xA9: after every ASCII key when compared unsigned
    counter("z", 60);
    assertThat(keys(page("", 0, 10))).containsExactly("a", "z", "\u00e9");
  }

  @Test
  void describesTypeExpiryAndSize() {
    counter("c", 60);
    buffer("b", "hello");
    List<KeySummary> items = page("", 0, 10).items();
    assertThat(items.get(0).counter()).isFalse();
    assertThat(items.get(0).valueBytes()).isEqualTo(5);
    assertThat(items.get(0).ttlType()).isEqualTo(TtlUnit.MILLISECONDS.code());
    assertThat(items.get(1).counter()).isTrue();
    assertThat(items.get(1).expiresAtNanos()).isEqualTo(clock.epochNanos() + Duration.ofSeconds(60).toNanos());
  }

  @Test
  void expiredKeysAreNotListed() {
    counter("short", 1);
    counter("long", 10);
    clock.advance(Duration.ofSeconds(1));
    assertThat(keys(page("", 0, 10))).containsExactly("long");
  }

  @Test
  void aCursorPagesOnAfterItsKey() {
    for (int i = 0; i < 100; i++) {
      counter(String.format("user:%03d", i), 60);
    }
    KeyPage first = page("", 0, 10);
    assertThat(text(first.next())).isEqualTo("user:009");

    KeyPage second = page("", "user:009", 0, 10);
    assertThat(keys(second)).containsExactly("user:010", "user:011", "user:012", "user:013", "user:014",
        "user:015", "user:016", "user:017", "user:018", "user:019");
    assertThat(second.offset()).isEqualTo(10);
    assertThat(second.total()).isEqualTo(100);
    assertThat(text(second.next())).isEqualTo("user:019");

    KeyPage skipping = page("", "user:009", 5, 5);
    assertThat(keys(skipping)).containsExactly("user:015", "user:016", "user:017", "user:018", "user:019");
    assertThat(skipping.offset()).isEqualTo(15);

    KeyPage last = page("", "user:089", 0, 10);
    assertThat(keys(last)).hasSize(10).endsWith("user:099");
    assertThat(last.next()).isNull();
  }

  @Test
  void aCursorNeedNotBeAKeyThatStillExists() {
    for (int i = 0; i < 20; i++) {
      counter(String.format("user:%03d", i), 60);
    }
    counter("a", 60);

    KeyPage page = page("user", "user:0055", 0, 3);
    assertThat(keys(page)).containsExactly("user:006", "user:007", "user:008");
    assertThat(page.offset()).as("user:000 to user:005 come before").isEqualTo(6);
    assertThat(page.total()).isEqualTo(20);
  }

  @Test
  void aPageWalkedInSlicesWhileKeysArriveHasEveryKeyThatWasThere() {
    for (int i = 0; i < 200; i++) {
      counter(String.format("user:%03d", i), 60);
    }
    int[] arrived = {0};

    KeyPage page = firstPageInSlices(150, () -> counter("zzz:" + arrived[0]++, 60));

    assertThat(arrived[0]).as("slices").isGreaterThan(shards.size() * 10);
    assertThat(keys(page)).hasSize(150).startsWith("user:000", "user:001").doesNotHaveDuplicates();
    assertThat(page.total()).isBetween(200L, 200L + arrived[0]);
  }
}
