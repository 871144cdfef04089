package io.sluice.verticles.engine.persist;

/**
 * What one shard's persistence shows on {@code /metrics}, the dashboard and {@code /ready}: written
 * by its writer thread, read from anywhere.
 *
 * @param logBytes                bytes of the logs written since the last snapshot
 * @param lastSnapshotEpochMillis when the last snapshot completed; 0 before the first
 * @param lastSnapshotMillis      how long it took, from the log's rotation to its rename
 * @param lastSnapshotBytes       its size
 * @param worstSliceNanos         the longest the shard was held by one slice of a snapshot
 * @param fsyncLagMillis          how old the oldest write not yet forced to disk is; 0 when none
 * @param errors                  failed writes so far
 * @param failing                 a write failed, or the queue overflowed, and no snapshot has made the files
 *                                whole since
 * @param lastError               what failed last, or null
 * @param queuedBytes             changes waiting in memory for the writer
 * @param queuePeakBytes          the most that ever waited
 * @param overflows               how often the queue passed its bound (each counted in {@code errors} too)
 */
public record PersistenceStats(long logBytes, long lastSnapshotEpochMillis, long lastSnapshotMillis,
                               long lastSnapshotBytes, long worstSliceNanos, long fsyncLagMillis, long errors,
                               boolean failing, String lastError, long queuedBytes, long queuePeakBytes,
                               long overflows) {

  /** The writer's own figures, before the queue's are known. */
  public PersistenceStats(long logBytes, long lastSnapshotEpochMillis, long lastSnapshotMillis, long lastSnapshotBytes,
                          long worstSliceNanos, long fsyncLagMillis, long errors, boolean failing, String lastError) {
    this(logBytes, lastSnapshotEpochMillis, lastSnapshotMillis, lastSnapshotBytes, worstSliceNanos, fsyncLagMillis,
        errors, failing, lastError, 0, 0, 0);
  }

  public PersistenceStats withLogBytes(long bytes) {
    return new PersistenceStats(bytes, lastSnapshotEpochMillis, lastSnapshotMillis, lastSnapshotBytes, worstSliceNanos,
        fsyncLagMillis, errors, failing, lastError);
  }

  /** These figures with the fsync lag now, and a failure when {@code error} is not null. */
  public PersistenceStats withLag(long lagMillis, String error) {
    return new PersistenceStats(logBytes, lastSnapshotEpochMillis, lastSnapshotMillis, lastSnapshotBytes,
        worstSliceNanos, lagMillis, errors + (error == null ? 0 : 1), failing || error != null,
        error == null ? lastError : error);
  }

  /** These figures after a snapshot was put in place: failing still only if the new log broke meanwhile. */
  public PersistenceStats afterSnapshot(long newLogBytes, long epochMillis, long tookMillis, long bytes,
                                        long sliceNanos, boolean logBroken) {
    return new PersistenceStats(newLogBytes, epochMillis, tookMillis, bytes, Math.max(worstSliceNanos, sliceNanos),
        fsyncLagMillis, errors, logBroken, logBroken ? lastError : null);
  }

  /** These figures with the queue's; an overflow not yet repaired ({@code overflowError}) makes them failing. */
  public PersistenceStats withQueue(long queued, long peak, long overflowCount, String overflowError) {
    return new PersistenceStats(logBytes, lastSnapshotEpochMillis, lastSnapshotMillis, lastSnapshotBytes,
        worstSliceNanos, fsyncLagMillis, errors + overflowCount, failing || overflowError != null,
        overflowError != null ? overflowError : lastError, queued, peak, overflowCount);
  }
}
