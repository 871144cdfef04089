package io.sluice.verticles.server.cluster;

import io.vertx.core.Vertx;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeSet;

/**
 * The partitions a node took over without their previous owner's records, logged as one line per
 * previous owner and burst rather than one line per partition: a member that died or never came up
 * leaves a hundred partitions or more whose handoffs all time out together. Misses that come within
 * {@link #GATHER_MILLIS} of the first are counted in its line. Used on the node's context only.
 */
final class MissedHandoffs {

  private static final System.Logger LOG = System.getLogger(ClusterNode.class.getName());
  static final long GATHER_MILLIS = 500;

  /** The partitions missed from one previous owner, and the first reason given. */
  private record Misses(String why, TreeSet<Integer> partitions) {
  }

  private final Vertx vertx;
  private final Map<String, Misses> byOwner = new LinkedHashMap<>();

  MissedHandoffs(Vertx vertx) {
    this.vertx = vertx;
  }

  void missed(int partition, String from, String why) {
    if (byOwner.isEmpty()) {
      vertx.setTimer(GATHER_MILLIS, id -> log());
    }
    byOwner.computeIfAbsent(from, owner -> new Misses(why, new TreeSet<>())).partitions().add(partition);
  }

  private void log() {
    byOwner.forEach((from, misses) -> LOG.log(System.Logger.Level.WARNING, misses.partitions().size()
        + (misses.partitions().size() == 1 ? " partition" : " partitions") + " " + misses.partitions()
        + ": no records from their previous owner " + from + " (" + misses.why()
        + "); serving the copies this node holds"));
    byOwner.clear();
  }
}
