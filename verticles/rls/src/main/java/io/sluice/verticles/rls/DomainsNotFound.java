package io.sluice.verticles.rls;

import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * envoyproxy/ratelimit's {@code <domain>.domain_not_found}: the descriptors asked of a domain the
 * config lacks, counted per descriptor as upstream does. The domain is the client's to choose, so
 * up to {@link #MAX_DOMAINS} domains are counted apart; any further one is counted under
 * {@link RlsStats#OTHER}, so that neither this map nor the metrics series read from it grow with
 * what clients send.
 */
public final class DomainsNotFound {

  /** The count of one domain. */
  public static final class Count {
    private final String domain;
    private final LongAdder descriptors = new LongAdder();

    Count(String domain) {
      this.domain = domain;
    }

    public String domain() {
      return domain;
    }

    public long descriptors() {
      return descriptors.sum();
    }
  }

  /** Unknown domains counted apart, before the rest go to {@link RlsStats#OTHER}. */
  public static final int MAX_DOMAINS = 100;

  private final ConcurrentHashMap<String, Count> byDomain = new ConcurrentHashMap<>();
  private final AtomicInteger domains = new AtomicInteger();
  private final Consumer<Count> onNew;

  /** @param onNew told once of each new domain's count (to register its metrics series) */
  DomainsNotFound(Consumer<Count> onNew) {
    this.onNew = onNew;
  }

  /** Counts the descriptors of a request whose domain the config lacks. */
  void count(String domain, int descriptors) {
    Count found = byDomain.get(domain);
    if (found == null) {
      found = created(domain);
    }
    found.descriptors.add(descriptors);
  }

  private Count created(String domain) {
    Count[] created = new Count[1];
    Count found = byDomain.computeIfAbsent(domain, d -> {
      if (!d.equals(RlsStats.OTHER) && domains.incrementAndGet() > MAX_DOMAINS) {
        domains.decrementAndGet();
        return null;
      }
      return created[0] = new Count(d);
    });
    if (created[0] != null) {
      onNew.accept(created[0]);
    }
    return found != null ? found : created(RlsStats.OTHER);
  }

  /** Every domain counted so far, by name. */
  public List<Count> all() {
    return byDomain.values().stream().sorted(Comparator.comparing(Count::domain)).toList();
  }
}
