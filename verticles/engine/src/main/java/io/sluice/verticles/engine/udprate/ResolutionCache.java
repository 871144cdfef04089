package io.sluice.verticles.engine.udprate;

import io.sluice.protocol.udp.rules.KeyResolution;
import io.sluice.protocol.udp.rules.KeySemantics;
import io.sluice.protocol.udp.rules.RuleSet;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Remembers what a {@link RuleSet} decided for recently seen keys. Resolving runs every hook,
 * rewrite and rule pattern (regular expressions) over the key, a fifth of the UDP endpoint's CPU,
 * while a rate-limited client sends the same key again and again; the decision depends on the key
 * alone, so it can be reused as is.
 *
 * <p>Bounded by two generations of at most {@code capacity} keys each: when the young one is
 * full it becomes the old one and the previous old one is dropped; a key found in the old one is
 * moved back to the young one. Keys in use stay; a flood of new keys costs only misses. Keys longer
 * than {@value #MAX_CACHED_KEY_LENGTH} characters are resolved every time, so the memory held stays
 * below {@code 2 × capacity} short keys and their decisions. Thread-safe.
 */
public final class ResolutionCache {

  private record CacheKey(String key, KeySemantics semantics) {
  }

  /** Rate-limit keys are short (an IP address, a user agent); longer ones are not worth the memory. */
  public static final int MAX_CACHED_KEY_LENGTH = 256;

  private final RuleSet rules;
  private final int capacity;
  private volatile Map<CacheKey, KeyResolution> young = new ConcurrentHashMap<>();
  private volatile Map<CacheKey, KeyResolution> old = new ConcurrentHashMap<>();

  public ResolutionCache(RuleSet rules, int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be at least 1, got " + capacity);
    }
    this.rules = rules;
    this.capacity = capacity;
  }

  /** The rule table this cache answers for. */
  public RuleSet rules() {
    return rules;
  }

  /** The same as {@link RuleSet#resolve}, from memory when the key was seen recently. */
  public KeyResolution resolve(String key, KeySemantics semantics) {
    if (key.length() > MAX_CACHED_KEY_LENGTH) {
      return rules.resolve(key, semantics);
    }
    CacheKey cacheKey = new CacheKey(key, semantics);
    KeyResolution resolution = young.get(cacheKey);
    if (resolution != null) {
      return resolution;
    }
    resolution = old.get(cacheKey);
    if (resolution == null) {
      resolution = rules.resolve(key, semantics);
    }
    remember(cacheKey, resolution);
    return resolution;
  }

  private void remember(CacheKey cacheKey, KeyResolution resolution) {
    Map<CacheKey, KeyResolution> current = young;
    if (current.size() >= capacity) {
      synchronized (this) {
        if (young == current) {
          old = current;
          young = new ConcurrentHashMap<>();
        }
      }
    }
    young.put(cacheKey, resolution);
  }

  /** Keys held now (both generations; a key may be counted twice while it moves). */
  int size() {
    return young.size() + old.size();
  }
}
