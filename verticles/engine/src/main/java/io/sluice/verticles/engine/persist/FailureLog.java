package io.sluice.verticles.engine.persist;

/**
 * A shard's disk trouble in the log. A failing disk fails again at every repair attempt (every
 * few seconds), so only the first failure is logged at ERROR; the others are counted (and logged
 * at DEBUG) until a snapshot makes the files whole again, which is logged at INFO. Called from the
 * shard's thread (a queue overflow) and the writer's (a failed write).
 */
final class FailureLog {

  private static final System.Logger LOG = System.getLogger(ShardPersistence.class.getName());

  private final int shard;
  /** The failure logged at ERROR, null while the files are whole. */
  private String first;
  private long more;

  FailureLog(int shard) {
    this.shard = shard;
  }

  /** Logs {@code failure}, and what it means, unless an earlier one is not repaired yet. */
  synchronized void failed(String failure, String meaning) {
    if (first != null) {
      more++;
      LOG.log(System.Logger.Level.DEBUG, () -> failure + " (failing since: " + first + ")");
      return;
    }
    first = failure;
    LOG.log(System.Logger.Level.ERROR, failure + meaning);
  }

  /** A snapshot made the files whole: says so, once, if something had failed. */
  synchronized void repaired() {
    if (first == null) {
      return;
    }
    LOG.log(System.Logger.Level.INFO, "persistence of shard " + shard + " recovered: a snapshot made the files whole"
        + " again (failing since: " + first + (more == 0 ? "" : "; " + more + " more failures after it") + ")");
    first = null;
    more = 0;
  }
}
