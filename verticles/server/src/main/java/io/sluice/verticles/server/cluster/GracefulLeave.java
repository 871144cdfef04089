package io.sluice.verticles.server.cluster;

import io.sluice.verticles.engine.routing.PartitionTable;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;

import java.util.HashSet;
import java.util.Set;
import java.util.function.Supplier;

/**
 * This node's graceful leave: it tells every member, which then stop counting it and ask it for its
 * partitions ({@link PartitionHandoff}); the leave completes once every partition it owned was
 * handed over, or after {@link ClusterNode#HANDOFF_TIMEOUT_MILLIS}. Hazelcast membership ends when
 * the Vert.x closes.
 */
final class GracefulLeave {

  private static final System.Logger LOG = System.getLogger(ClusterNode.class.getName());

  private final Context context;
  private final String self;
  private final Supplier<PartitionTable> table;
  private Set<Integer> handingOff = new HashSet<>();
  private Promise<Void> left;
  /**
   * Set once this node leaves: it then keeps every copy it holds instead of dropping those it
   * hands over, so that its data directory still holds them should a handover not land (every
   * node stopping at once); a copy kept so only adds keys an owner lacks when it comes back.
   */
  private volatile boolean leaving;

  GracefulLeave(Context context, String self, Supplier<PartitionTable> table) {
    this.context = context;
    this.self = self;
    this.table = table;
  }

  /** Whether this node keeps every copy it holds, handed over or not: it is leaving. */
  boolean keepsEveryCopy() {
    return leaving;
  }

  /** Leaves; completes once the partitions this node owned are taken over (or the timeout passed). */
  Future<Void> leave() {
    return Future.<Void>future(promise -> context.runOnContext(v -> {
      leaving = true;
      PartitionTable now = table.get();
      if (now.members().size() <= 1 || !now.members().contains(self)) {
        promise.complete();
        return;
      }
      handingOff = new HashSet<>();
      for (int p = 0; p < PartitionTable.PARTITIONS; p++) {
        if (self.equals(now.owner(p))) {
          handingOff.add(p);
        }
      }
      left = promise;
      long timer = context.owner().setTimer(ClusterNode.HANDOFF_TIMEOUT_MILLIS, id -> {
        if (!handingOff.isEmpty()) {
          LOG.log(System.Logger.Level.WARNING, "leaving with " + handingOff.size() + " partitions not taken over");
        }
        promise.tryComplete();
      });
      promise.future().onComplete(done -> context.owner().cancelTimer(timer));
      LOG.log(System.Logger.Level.INFO, "leaving the cluster: handing " + handingOff.size() + " partitions over");
      context.owner().eventBus().publish(ClusterAddress.LEAVING, self);
    }));
  }

  /** The partition went to its next owner: the leave completes with the last one. */
  void handedOff(int partition) {
    if (left != null && handingOff.remove(partition) && handingOff.isEmpty()) {
      left.tryComplete();
    }
  }
}
