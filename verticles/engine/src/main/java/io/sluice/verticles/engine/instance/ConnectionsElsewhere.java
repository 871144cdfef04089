package io.sluice.verticles.engine.instance;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The connections of the other nodes of a cluster, for a CONNECTION whose ID is not one of this
 * node's (connection IDs are per node: only their node knows them).
 */
public interface ConnectionsElsewhere {

  /** A single node: there is nowhere else to look. */
  ConnectionsElsewhere NONE = new ConnectionsElsewhere() {
    @Override
    public boolean any() {
      return false;
    }

    @Override
    public CompletionStage<byte[]> find(byte[] id) {
      return CompletableFuture.completedFuture(null);
    }
  };

  /** Whether there are other nodes to ask. */
  boolean any();

  /**
   * Asks the other nodes for connection {@code id}. Completes on the caller's event loop with the
   * connection's 237-byte CONNECTION item as its node wrote it, or null when no node answered
   * with it (none has it, or none answered in time); never fails.
   */
  CompletionStage<byte[]> find(byte[] id);
}
