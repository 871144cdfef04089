package io.sluice.verticles.server;

import io.sluice.verticles.engine.persist.ShardPersistence;
import io.sluice.verticles.engine.shard.TaskCodecs;
import io.sluice.verticles.engine.shard.ThrottrShard;
import io.sluice.verticles.engine.storage.Store;
import io.sluice.verticles.server.cluster.ClusterDeployment;
import io.sluice.verticles.server.cluster.ClusterPartitions;
import io.sluice.verticles.server.persistence.PersistenceSettings;
import io.sluice.verticles.server.persistence.PersistentShards;
import io.sluice.verticles.server.dispatch.HostedRoute;
import io.sluice.verticles.server.dispatch.ShardDirectory;
import io.sluice.verticles.server.dispatch.ShardVerticle;
import io.vertx.core.Future;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Where the records live: the stores, loaded from the disk when persisting, the shard verticles
 * (each on its own event loop, reached over the event bus) and, on a cluster node, this node's
 * part in the cluster.
 */
final class StorageDeployment {

  private final ServerWide wide;
  private final List<Store> stores;
  private final ShardDirectory directory;
  /** Null on a single node. */
  private final ClusterPartitions partitions;
  private PersistentShards persistence = PersistentShards.none();
  /** Null on a single node, and until the cluster is joined. */
  private ClusterDeployment cluster;

  private StorageDeployment(ServerWide wide, List<Store> stores, ShardDirectory directory, ClusterPartitions partitions) {
    this.wide = wide;
    this.stores = stores;
    this.directory = directory;
    this.partitions = partitions;
  }

  /** The stores and the directory of their shards, nothing deployed yet. */
  static StorageDeployment create(ServerWide wide, ServerSettings settings) {
    List<Store> stores = new ArrayList<>();
    if (settings.cluster().enabled()) {
      ClusterPartitions partitions = new ClusterPartitions(settings.shards(), settings.valueSize(), wide.instance().clock(),
          wide.instance().startedAtNanos(), settings.recordLimits());
      stores.addAll(partitions.stores());
      return new StorageDeployment(wide, stores, partitions.directory(), partitions);
    }
    for (int i = 0; i < settings.shards(); i++) {
      stores.add(new Store(wide.instance().clock(), wide.instance().startedAtNanos(),
          settings.recordLimits().share(settings.shards())));
    }
    return new StorageDeployment(wide, stores, new ShardDirectory(settings.shards()), null);
  }

  /**
   * Loads the stores (when persisting), deploys the shard verticles, then joins the cluster's
   * partitions (on a cluster node).
   *
   * @param travellingWork what runs on a key's owner when that is another node
   */
  Future<Void> start(ServerSettings settings, Supplier<TaskCodecs> travellingWork) {
    // A cluster node persists each partition's store, in a directory of their own.
    PersistenceSettings persisting = partitions == null ? settings.persistence()
        : settings.persistence().under(ClusterPartitions.DIRECTORY);
    return PersistentShards.load(wide.vertx(), persisting, stores, directory.verticles(), directory::verticleOf,
        settings.valueSize(), wide.instance().clock())
        .compose(loaded -> {
          persistence = loaded;
          wide.metrics().bind(loaded);
          if (partitions != null && loaded.enabled()) {
            partitions.persistThrough(loaded);
          }
          return partitions == null ? deployShards(settings) : deployPartitions(settings);
        })
        .compose(v -> partitions == null ? Future.succeededFuture() : ClusterDeployment.start(wide.vertx(), partitions,
            settings.cluster(), settings.valueSize(),
            travellingWork.get(), wide.instance().connections(), settings.frontInstances(), wide.metrics().meters(),
            wide.deployments()::deploy).onSuccess(deployment -> cluster = deployment).mapEmpty());
  }

  /** A cluster node's shard verticles, each hosting the partitions placed on it. */
  private Future<Void> deployPartitions(ServerSettings settings) {
    List<Future<String>> shards = new ArrayList<>();
    for (int i = 0; i < settings.shards(); i++) {
      shards.add(wide.deployments().deploy(new ShardVerticle(i, partitions.routesOf(i), partitions.gatheredOn(i), directory,
          settings.sweepIntervalMillis())));
    }
    return Future.all(shards).mapEmpty();
  }

  /** One verticle per shard, each listening to its store's changes when persisting. */
  private Future<Void> deployShards(ServerSettings settings) {
    List<Future<String>> shards = new ArrayList<>();
    for (int i = 0; i < stores.size(); i++) {
      Store store = stores.get(i);
      ShardPersistence log = null;
      if (persistence.enabled()) {
        log = persistence.shard(i);
        store.listen(log);
      }
      ThrottrShard shard = new ThrottrShard(store, settings.valueSize());
      shards.add(wide.deployments().deploy(new ShardVerticle(i, List.of(new HostedRoute(i, store, shard::execute, log)),
          directory, settings.sweepIntervalMillis())));
    }
    return Future.all(shards).mapEmpty();
  }

  List<Store> stores() {
    return stores;
  }

  ShardDirectory directory() {
    return directory;
  }

  /** The persistence of the shards (nothing when not persisting). */
  PersistentShards persistence() {
    return persistence;
  }

  /** This node's part in the cluster, or empty for a single node. */
  Optional<ClusterDeployment> cluster() {
    return Optional.ofNullable(cluster);
  }

  /** Why this node cannot serve yet (joining its cluster, a persistence failure), for /ready. */
  Optional<String> notReady() {
    if (cluster != null) {
      Optional<String> joining = cluster.node().notReady();
      if (joining.isPresent()) {
        return joining;
      }
    }
    return Optional.ofNullable(persistence.failure());
  }

  /** A cluster node first hands its partitions over (a graceful leave). */
  Future<Void> leave() {
    return cluster == null ? Future.succeededFuture() : cluster.leave();
  }
}
