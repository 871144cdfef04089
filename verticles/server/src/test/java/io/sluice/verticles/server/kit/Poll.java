package io.sluice.verticles.server.kit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Waits for what the server does on its own time (a file watch, a close it learns of later) by
 * asking again until it holds, within a bound: a condition, never a sleep that hopes.
 */
public final class Poll {

  /** Something to ask again; may throw, which fails the test. */
  @FunctionalInterface
  public interface Condition {
    boolean holds() throws Exception;
  }

  private Poll() {
  }

  /** Asks every 20 ms until {@code condition} holds; fails after 15 s. */
  public static void until(String what, Condition condition) {
    long deadline = System.nanoTime() + 15_000_000_000L;
    try {
      while (!condition.holds()) {
        assertThat(System.nanoTime()).as("still not true after 15 s: " + what).isLessThan(deadline);
        Thread.sleep(20);
      }
    } catch (Exception e) {
      throw new AssertionError("while waiting until " + what + ": " + e, e);
    }
  }
}
