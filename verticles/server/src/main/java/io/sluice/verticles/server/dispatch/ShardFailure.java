package io.sluice.verticles.server.dispatch;

/**
 * Work that failed on a shard: one of a batch's Throttr requests, lookups or scans threw there (the
 * shard has logged it). An API answers it as an internal error. It carries no stack trace of its
 * own: where it failed is the shard's log line, and the cause is kept.
 */
public final class ShardFailure extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public ShardFailure(int shard, Throwable failure) {
    super("internal error on shard " + shard + ": " + failure, failure, false, false);
  }
}
