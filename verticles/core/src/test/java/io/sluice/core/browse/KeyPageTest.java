package io.sluice.core.browse;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.core.storage.KeyHash;
import io.sluice.core.storage.Store;
import io.sluice.core.time.ManualClock;
import io.sluice.throttr.codec.TtlUnit;
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
    return shards.get(KeyHash.shardOf(KeyHash.of(key), shards.size()));
  }

  private KeyPage page(String search, int offset, int limit) {
    List<KeyPageScan> scans = new ArrayList<>();
    for (Store shard : shards) {
      KeyPageScan scan = new KeyPageScan(bytes(search), offset + limit);
      shard.forEachLive(scan::visit);
      scans.add(scan);
    }
    return KeyPage.merge(scans, offset, limit);
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
}
