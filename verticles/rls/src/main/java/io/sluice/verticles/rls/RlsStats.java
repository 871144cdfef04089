package io.sluice.verticles.rls;

import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * envoyproxy/ratelimit's statistics per domain and descriptor path ({@code database_users},
 * {@code message_type_marketing.to_number}): total_hits, over_limit, near_limit, within_limit and
 * shadow_mode, each counting hits (a hits_addend of 5 counts 5). Paths come from the config, so
 * their number is bounded by it, except where a descriptor asks for {@code detailed_metric}: there
 * the path is made of the request's values, which a client chooses. Those paths are kept up to
 * {@link #MAX_DETAILED_PATHS} (all domains together); the hits of any further value are counted
 * under its domain's path {@value #OTHER}, so that neither this map nor the metrics series read
 * from it grow with what clients send. Counted from every front event loop at once.
 */
public final class RlsStats {

  /** The counts of one descriptor path. */
  public static final class Counts {
    private final String domain;
    private final String descriptor;
    final LongAdder totalHits = new LongAdder();
    final LongAdder overLimit = new LongAdder();
    final LongAdder nearLimit = new LongAdder();
    final LongAdder withinLimit = new LongAdder();
    final LongAdder shadowMode = new LongAdder();
    final LongAdder overLimitWithLocalCache = new LongAdder();

    Counts(String domain, String descriptor) {
      this.domain = domain;
      this.descriptor = descriptor;
    }

    public String domain() {
      return domain;
    }

    public String descriptor() {
      return descriptor;
    }

    public long totalHits() {
      return totalHits.sum();
    }

    public long overLimit() {
      return overLimit.sum();
    }

    public long nearLimit() {
      return nearLimit.sum();
    }

    public long withinLimit() {
      return withinLimit.sum();
    }

    public long shadowMode() {
      return shadowMode.sum();
    }

    /** Hits over the limit answered from the local over-limit cache (also counted in {@link #overLimit}). */
    public long overLimitWithLocalCache() {
      return overLimitWithLocalCache.sum();
    }
  }

  /** Paths made of request values ({@code detailed_metric}) kept with counts of their own. */
  public static final int MAX_DETAILED_PATHS = 1_000;
  /** The path a domain's further request values are counted under, past {@link #MAX_DETAILED_PATHS}. */
  public static final String OTHER = "other";

  /** Where the hits of a limit counted in no statistics go: counted, never read, never listed. */
  private static final Counts NOWHERE = new Counts("", "");

  /**
   * By domain, then by descriptor path: looked up per counted descriptor, so with the request's own
   * strings and no key object made per lookup.
   */
  private final ConcurrentHashMap<String, ConcurrentHashMap<String, Counts>> counts = new ConcurrentHashMap<>();
  private final AtomicInteger detailedPaths = new AtomicInteger();
  private final Consumer<Counts> onNew;
  private final LongAdder calls = new LongAdder();
  private final LongAdder overLimitCalls = new LongAdder();
  private final LongAdder globalShadowMode = new LongAdder();
  private final DomainsNotFound domainsNotFound;

  /**
   * @param onNew         told once of each new path's counts (to register its metrics series)
   * @param onNewNotFound told once of each new unknown domain's count, likewise
   */
  public RlsStats(Consumer<Counts> onNew, Consumer<DomainsNotFound.Count> onNewNotFound) {
    this.onNew = onNew;
    this.domainsNotFound = new DomainsNotFound(onNewNotFound);
  }

  /** @param onNew told once of each new path's counts (to register its metrics series) */
  public RlsStats(Consumer<Counts> onNew) {
    this(onNew, count -> { });
  }

  public RlsStats() {
    this(counts -> { });
  }

  /** The descriptors asked of domains the config lacks. */
  public DomainsNotFound domainsNotFound() {
    return domainsNotFound;
  }

  /**
   * The counts of a limit's path; those of a null path (an override the config does not know) are
   * kept nowhere, those of a request-made path past the cap are the domain's {@value #OTHER}.
   */
  Counts of(String domain, RateLimit limit) {
    String descriptor = limit.statKey();
    if (descriptor == null) {
      return NOWHERE;
    }
    Counts found = find(domain, descriptor);
    if (found != null) {
      return found;
    }
    if (limit.detailedMetric()) {
      found = created(domain, descriptor, true);
      return found != null ? found : of(domain, OTHER);
    }
    return of(domain, descriptor);
  }

  private Counts of(String domain, String descriptor) {
    Counts found = find(domain, descriptor);
    return found != null ? found : created(domain, descriptor, false);
  }

  private Counts find(String domain, String descriptor) {
    ConcurrentHashMap<String, Counts> ofDomain = counts.get(domain);
    return ofDomain == null ? null : ofDomain.get(descriptor);
  }

  /** The path's counts, made now if new; null if it is request-made and the cap is reached. */
  private Counts created(String domain, String descriptor, boolean detailed) {
    Counts[] created = new Counts[1];
    Counts found = counts.computeIfAbsent(domain, d -> new ConcurrentHashMap<>()).computeIfAbsent(descriptor, p -> {
      if (detailed && detailedPaths.incrementAndGet() > MAX_DETAILED_PATHS) {
        detailedPaths.decrementAndGet();
        return null;
      }
      return created[0] = new Counts(domain, descriptor);
    });
    if (created[0] != null) {
      onNew.accept(created[0]);
    }
    return found;
  }

  /**
   * Counts one answered call: its overall code OVER_LIMIT or not. Calls, unlike hits, are what a
   * proxy waited for, so the dashboard shows them beside the HTTP checks and UDP verdicts.
   */
  void answered(boolean overLimit) {
    (overLimit ? overLimitCalls : calls).increment();
  }

  /** Counts one call the global shadow mode answered OK instead of OVER_LIMIT. */
  void globalShadowMode() {
    globalShadowMode.increment();
  }

  /** Calls the global shadow mode (SHADOW_MODE) answered OK instead of OVER_LIMIT. */
  public long globalShadowModeCalls() {
    return globalShadowMode.sum();
  }

  /** Calls answered OK (shadow-mode limits included: they answer OK). */
  public long okCalls() {
    return calls.sum();
  }

  /** Calls answered OVER_LIMIT. */
  public long overLimitCalls() {
    return overLimitCalls.sum();
  }

  /** Every path counted so far, by domain and descriptor. */
  public List<Counts> all() {
    return counts.values().stream().flatMap(ofDomain -> ofDomain.values().stream())
        .sorted(Comparator.comparing(Counts::domain).thenComparing(Counts::descriptor)).toList();
  }
}
