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
 * @param failing                 a write failed and no snapshot has made the files whole since
 * @param lastError               what failed last, or null
 */
public record PersistenceStats(long logBytes, long lastSnapshotEpochMillis, long lastSnapshotMillis,
                               long lastSnapshotBytes, long worstSliceNanos, long fsyncLagMillis, long errors,
                               boolean failing, String lastError) {
}
