package io.sluice.verticles.engine.browse;

import java.util.ArrayList;
import java.util.List;

/**
 * One page of the keys table across every shard, in unsigned byte order of the keys.
 *
 * @param total  how many live keys match the search
 * @param offset how many of them come before the page's first key
 * @param next   the last key of the page when more keys follow it (the cursor of the next page), else null
 */
public record KeyPage(long total, long offset, int limit, List<KeySummary> items, byte[] next) {

  /**
   * Joins the shards' scans (each kept at least {@code offset + limit} keys after the cursor) into
   * the page that skips {@code offset} keys after the cursor.
   */
  public static KeyPage merge(List<KeyPageScan> shards, int offset, int limit) {
    long total = 0;
    long before = 0;
    List<KeySummary> candidates = new ArrayList<>();
    for (KeyPageScan shard : shards) {
      total += shard.matching();
      before += shard.atOrBeforeCursor();
      candidates.addAll(shard.kept());
    }
    candidates.sort(KeyPageScan.KEY_ORDER);
    int from = Math.min(offset, candidates.size());
    int to = Math.min(offset + limit, candidates.size());
    List<KeySummary> items = List.copyOf(candidates.subList(from, to));
    long position = before + offset;
    boolean more = position + items.size() < total;
    byte[] next = more && !items.isEmpty() ? items.get(items.size() - 1).key() : null;
    return new KeyPage(total, position, limit, items, next);
  }
}
