package io.sluice.verticles.rls;

import io.envoyproxy.envoy.extensions.common.ratelimit.v3.RateLimitDescriptor;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * Where a descriptor's count for one window lives: the record
 * {@code rls:<domain>:<key>_<value>:<key>_<value>…:<window start, epoch seconds, or a strategy's name>}, UTF-8, e.g.
 * {@code rls:messaging:message_type_marketing:to_number_2061111111:1767225600}. Like
 * envoyproxy/ratelimit's cache key, it holds the request's values, so a key-only descriptor counts
 * each value apart; the values a {@code share_threshold} wildcard matches share the wildcard's
 * counter ({@code rls:files:files_files/*:…}). A Throttr key has at most 255 bytes: a longer one becomes
 * {@code rls:#<SHA-256 of the domain and entries, hex>:<window start>}, which still counts each
 * descriptor apart.
 */
final class CounterKey {

  static final String PREFIX = "rls:";
  static final int MAX_BYTES = 255;

  private CounterKey() {
  }

  /**
   * @param shared per entry, the wildcard whose values share one counter ({@code share_threshold}),
   *               or "" for the entry's own value; empty when no entry shares
   * @param suffix the window start (epoch seconds) of a fixed window, or the algorithm's name for a
   *               descriptor counted by a strategy, which no window start can be, so a config that
   *               changes the algorithm starts a new record
   */
  static byte[] of(String domain, List<RateLimitDescriptor.Entry> entries, List<String> shared, String suffix) {
    StringBuilder path = new StringBuilder(domain);
    for (int i = 0; i < entries.size(); i++) {
      RateLimitDescriptor.Entry entry = entries.get(i);
      String value = shared.isEmpty() || shared.get(i).isEmpty() ? entry.getValue() : shared.get(i);
      path.append(':').append(entry.getKey()).append('_').append(value);
    }
    byte[] key = (PREFIX + path + ':' + suffix).getBytes(StandardCharsets.UTF_8);
    if (key.length <= MAX_BYTES) {
      return key;
    }
    return (PREFIX + '#' + sha256(path.toString()) + ':' + suffix).getBytes(StandardCharsets.UTF_8);
  }

  private static String sha256(String text) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException everyJavaHasIt) {
      throw new IllegalStateException(everyJavaHasIt);
    }
  }
}
