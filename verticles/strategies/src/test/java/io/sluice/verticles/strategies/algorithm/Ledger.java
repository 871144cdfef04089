package io.sluice.verticles.strategies.algorithm;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.verticles.strategies.Decision;
import io.sluice.verticles.strategies.Outcome;
import io.sluice.verticles.strategies.Strategy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A caller of a strategy, as the storage layer will be: an in-memory key-value store with TTL
 * expiry (expired when now &gt; expiry, like upstream's memory backend) and compare-and-set on the
 * exact string read, plus a clock that moves only by hand.
 */
final class Ledger {

  /** 1 700 000 000 s after the epoch, the spec's T0 for derived vectors. */
  static final long T0 = 1_700_000_000L * 1_000_000_000L;

  private record Entry(String value, long expiresAtNs) {
  }

  private final Strategy strategy;
  private final Map<String, Entry> entries = new HashMap<>();
  private long nowNs = T0;
  private int lostRaces;

  Ledger(Strategy strategy) {
    this.strategy = strategy;
  }

  /** Nanoseconds for a number of seconds (exact for the decimal fractions the tests use). */
  static long sec(double seconds) {
    return Math.round(seconds * 1e9);
  }

  /** Moves the clock to T0 + {@code seconds}. */
  Ledger at(double seconds) {
    nowNs = T0 + sec(seconds);
    return this;
  }

  Ledger atNs(long epochNs) {
    nowNs = epochNs;
    return this;
  }

  /** What a read returns now: the stored value, or null if absent or expired. */
  String state(String key) {
    Entry e = entries.get(key);
    return e == null || nowNs > e.expiresAtNs() ? null : e.value();
  }

  /** Stores a value directly, as another writer would. */
  Ledger put(String key, String value) {
    entries.put(key, new Entry(value, Long.MAX_VALUE));
    return this;
  }

  Outcome allow(String key) {
    return allow(key, 1);
  }

  /** One request: read, decide, and write the new state if there is one. */
  Outcome allow(String key, long cost) {
    String read = state(key);
    Outcome outcome = strategy.allow(read, nowNs, cost);
    if (outcome.changed()) {
      assertThat(compareAndSet(key, read, outcome)).as("uncontended CAS").isTrue();
    }
    return outcome;
  }

  Decision peek(String key) {
    return strategy.peek(state(key), nowNs);
  }

  /** Upstream's Reset: delete the key. */
  void reset(String key) {
    entries.remove(key);
  }

  int lostRaces() {
    return lostRaces;
  }

  /**
   * {@code callers} concurrent requests at the same instant: all read the same value first, then
   * commit one after another; a caller whose compare-and-set fails re-reads and decides again, as
   * upstream's retry loop does.
   */
  List<Outcome> race(String key, int callers) {
    List<String> reads = new ArrayList<>();
    for (int i = 0; i < callers; i++) {
      reads.add(state(key));
    }
    List<Outcome> outcomes = new ArrayList<>();
    for (String read : reads) {
      while (true) {
        Outcome outcome = strategy.allow(read, nowNs, 1);
        if (!outcome.changed() || compareAndSet(key, read, outcome)) {
          outcomes.add(outcome);
          break;
        }
        lostRaces++;
        read = state(key);
      }
    }
    return outcomes;
  }

  private boolean compareAndSet(String key, String expected, Outcome outcome) {
    if (!Objects.equals(state(key), expected)) {
      return false;
    }
    entries.put(key, new Entry(outcome.newState(), nowNs + outcome.ttl().toNanos()));
    return true;
  }

  static long allowedCount(List<Outcome> outcomes) {
    return outcomes.stream().filter(Outcome::allowed).count();
  }
}
