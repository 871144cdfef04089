package io.sluice.verticles.server.cluster;

import io.netty.buffer.ByteBuf;
import io.sluice.protocol.binary.codec.ValueSize;
import io.sluice.verticles.engine.routing.PartitionTable;
import io.sluice.verticles.engine.persist.ShardPersistence;
import io.sluice.verticles.engine.shard.ThrottrShard;
import io.sluice.verticles.engine.storage.ChangeListener;
import io.sluice.verticles.engine.storage.Store;
import io.sluice.verticles.engine.storage.StoreLimits;
import io.sluice.verticles.engine.time.Clock;
import io.sluice.verticles.server.persistence.PersistentShards;
import io.sluice.verticles.server.dispatch.BatchExecutor;
import io.sluice.verticles.server.dispatch.HostedRoute;
import io.sluice.verticles.server.dispatch.ShardDirectory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The partitions' stores on one node: every partition has a store here, each on the shard verticle
 * {@code partition % shards}, whether this node owns it, backs it up, or neither (then it is
 * empty). Only a partition the node serves answers requests (its {@link PartitionGate}) and feeds
 * its backups (its {@link ReplicaFeed}), so a backup copy never shows in a listing.
 */
public final class ClusterPartitions {

  /** Where, under the data directory, a node keeps its partitions' snapshots and logs. */
  public static final String DIRECTORY = "partitions";

  private final ShardDirectory directory;
  private final Clock clock;
  private final PartitionStates states = new PartitionStates();
  private final List<Store> stores = new ArrayList<>();
  private final List<List<HostedRoute>> byVerticle = new ArrayList<>();
  /** Per shard verticle, the shards of the partitions placed on it, by partition (null elsewhere). */
  private final List<ThrottrShard[]> gathered = new ArrayList<>();
  private final Map<Integer, ReplicaFeed> feeds = new HashMap<>();
  private volatile ReplicaFeed.Shipper shipper;
  /** Each partition's log, when persisting; empty otherwise. */
  private List<ShardPersistence> logs = List.of();

  /**
   * @param recordLimits the records the whole cluster may hold: each partition's store holds its
   *                     share, so a node's bound follows the partitions it owns
   */
  public ClusterPartitions(int shards, ValueSize size, Clock clock, long metricsOriginNanos, StoreLimits recordLimits) {
    this.clock = clock;
    this.directory = new ShardDirectory(PartitionTable.PARTITIONS, shards, partition -> partition % shards);
    for (int i = 0; i < shards; i++) {
      byVerticle.add(new ArrayList<>());
      gathered.add(new ThrottrShard[PartitionTable.PARTITIONS]);
    }
    ReplicaFeed.Shipper late = new ReplicaFeed.Shipper() {
      @Override
      public void ship(String backup, ByteBuf changes, long since, int[] partitions, Runnable settled) {
        shipper.ship(backup, changes, since, partitions, settled);
      }

      @Override
      public List<String> backupsOf(int partition) {
        return shipper.backupsOf(partition);
      }

      @Override
      public boolean hasBackups(int partition) {
        return shipper != null && shipper.hasBackups(partition);
      }

      @Override
      public ByteBuf changeBatch() {
        return shipper.changeBatch();
      }

      @Override
      public void changesWaiting() {
        shipper.changesWaiting();
      }

      @Override
      public void changesShipped() {
        shipper.changesShipped();
      }

      @Override
      public void held() {
        shipper.held();
      }
    };
    ReplicaLane[] lanes = new ReplicaLane[shards];
    for (int i = 0; i < shards; i++) {
      lanes[i] = new ReplicaLane(late);
    }
    for (int p = 0; p < PartitionTable.PARTITIONS; p++) {
      Store store = new Store(clock, metricsOriginNanos, recordLimits.share(PartitionTable.PARTITIONS));
      ReplicaFeed feed = new ReplicaFeed(p, states, late, lanes[p % shards]);
      store.listen(feed);
      feeds.put(p, feed);
      stores.add(store);
      ThrottrShard shard = new ThrottrShard(store, size);
      byVerticle.get(p % shards).add(new HostedRoute(p, store, new PartitionGate(p, shard, states)));
      gathered.get(p % shards)[p] = shard;
    }
  }

  /** How shard verticle {@code index} runs a read's requests for the partitions placed on it, gathered in one batch. */
  public BatchExecutor gatheredOn(int index) {
    return new GatheredGate(gathered.get(index), states);
  }

  public ShardDirectory directory() {
    return directory;
  }

  /** Every partition's store (for the memory and key gauges of this node). */
  public List<Store> stores() {
    return stores;
  }

  /** The routes shard verticle {@code index} serves. */
  public List<HostedRoute> routesOf(int index) {
    if (logs.isEmpty()) {
      return byVerticle.get(index);
    }
    return byVerticle.get(index).stream().map(route -> route.persistedBy(logs.get(route.route()))).toList();
  }

  /**
   * Every partition's store, loaded from disk, is persisted from now on by its log (index: the
   * partition), besides feeding its backups. Before the shard verticles deploy.
   */
  public void persistThrough(PersistentShards persistence) {
    List<ShardPersistence> opened = new ArrayList<>();
    for (int p = 0; p < PartitionTable.PARTITIONS; p++) {
      opened.add(persistence.shard(p));
      stores.get(p).listen(ChangeListener.both(feeds.get(p), persistence.shard(p)));
    }
    logs = List.copyOf(opened);
  }

  Clock clock() {
    return clock;
  }

  PartitionStates states() {
    return states;
  }

  Map<Integer, ReplicaFeed> feeds() {
    return feeds;
  }

  void shipThrough(ReplicaFeed.Shipper shipper) {
    this.shipper = shipper;
  }
}
