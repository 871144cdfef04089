package io.sluice.core.browse;

import java.util.ArrayList;
import java.util.List;

/**
 * One page of the keys table across every shard, in unsigned byte order of the keys.
 *
 * @param total how many live keys match the search
 */
public record KeyPage(long total, int offset, int limit, List<KeySummary> items) {

  /** Joins the shards' scans (each kept at least {@code offset + limit} keys) into the page. */
  public static KeyPage merge(List<KeyPageScan> shards, int offset, int limit) {
    long total = 0;
    List<KeySummary> candidates = new ArrayList<>();
    for (KeyPageScan shard : shards) {
      total += shard.matching();
      candidates.addAll(shard.kept());
    }
    candidates.sort(KeyPageScan.KEY_ORDER);
    int from = Math.min(offset, candidates.size());
    int to = Math.min(offset + limit, candidates.size());
    return new KeyPage(total, offset, limit, List.copyOf(candidates.subList(from, to)));
  }
}
