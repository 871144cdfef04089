package io.sluice.gateway.process;

import io.vertx.core.Future;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Waiting in the gateway's tests: for a future, or for what a child process or cluster does on its
 * own time by asking again until it holds, within a bound; never a sleep that hopes.
 */
public final class Waits {

  /** Something to ask again; may throw, which fails the test. */
  @FunctionalInterface
  public interface Condition {
    boolean holds() throws Exception;
  }

  private Waits() {
  }

  /** The future's result, within 30 s. */
  public static <T> T await(Future<T> future) {
    try {
      return future.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new AssertionError("future did not complete: " + e, e);
    }
  }

  /** Asks every 20 ms until {@code condition} holds; fails after {@code within}. */
  public static void until(Duration within, String what, Condition condition) {
    long deadline = System.nanoTime() + within.toNanos();
    try {
      while (!condition.holds()) {
        if (System.nanoTime() - deadline > 0) {
          throw new AssertionError("not within " + within + ": " + what);
        }
        Thread.sleep(20);
      }
    } catch (AssertionError failed) {
      throw failed;
    } catch (Exception e) {
      throw new AssertionError("while waiting until " + what + ": " + e, e);
    }
  }
}
