package io.sluice.verticles.strategies;

import java.util.List;
import java.util.NoSuchElementException;

/**
 * The answer to one request: the results of every limit that was consulted, in a stable order
 * (the policy's quota order; primary before secondary). The request is allowed exactly when every
 * result is (upstream's "all allowed" rule, spec §1.2).
 *
 * <p>For response headers, {@link #binding()} picks the one result that governs: when denied, the
 * denying result with the longest retry-after; when allowed, the result with the fewest remaining.
 * {@link #limit()}, {@link #remaining()}, {@link #resetNs()} and {@link #retryAfterNs()} are its
 * values.
 */
public record Decision(List<Result> results) {

  public Decision {
    results = List.copyOf(results);
    if (results.isEmpty()) {
      throw new IllegalArgumentException("a decision needs at least one result");
    }
  }

  public static Decision of(Result... results) {
    return new Decision(List.of(results));
  }

  /**
   * The same limits, every one denying with nothing remaining and {@code retryAfterNs}: the
   * answer of a policy that fails closed when its state could not be stored.
   */
  public Decision deniedFor(long retryAfterNs) {
    return new Decision(results.stream()
        .map(r -> new Result(r.name(), false, r.limit(), 0, r.resetNs(), Math.max(1, retryAfterNs)))
        .toList());
  }

  public boolean allowed() {
    for (Result r : results) {
      if (!r.allowed()) {
        return false;
      }
    }
    return true;
  }

  /** The result with this name. */
  public Result result(String name) {
    for (Result r : results) {
      if (r.name().equals(name)) {
        return r;
      }
    }
    throw new NoSuchElementException("no result named " + name + " in " + results);
  }

  /** Whether a result with this name is present. */
  public boolean has(String name) {
    return results.stream().anyMatch(r -> r.name().equals(name));
  }

  /** The result that governs the answer (first one on ties). */
  public Result binding() {
    Result best = null;
    if (allowed()) {
      for (Result r : results) {
        if (best == null || r.remaining() < best.remaining()) {
          best = r;
        }
      }
    } else {
      for (Result r : results) {
        if (!r.allowed() && (best == null || r.retryAfterNs() > best.retryAfterNs())) {
          best = r;
        }
      }
    }
    return best;
  }

  public long limit() {
    return binding().limit();
  }

  public long remaining() {
    return binding().remaining();
  }

  public long resetNs() {
    return binding().resetNs();
  }

  /** 0 when allowed, else the longest retry-after among the denying results. */
  public long retryAfterNs() {
    return binding().retryAfterNs();
  }
}
