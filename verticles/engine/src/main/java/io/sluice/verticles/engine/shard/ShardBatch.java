package io.sluice.verticles.engine.shard;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.sluice.protocol.binary.codec.Request;

import java.util.Arrays;
import java.util.function.IntFunction;

/**
 * The work of one connection read (or one caller) that belongs to one shard, travelling to that
 * shard as ONE event-bus message and back with its results: each entry is a {@link ShardWork},
 * run in order. Results: reply bytes for Throttr key requests (in order, delimited by
 * {@link #replyEnd}), each shard's {@link ShardListing} part of a listing every shard contributes
 * to, and the results other work keeps itself.
 * Owned by one thread at a time: the connection's until sent, the shard's until replied.
 */
public final class ShardBatch {

  private static final int INITIAL_SLOTS = 8;

  private final int route;
  /**
   * The Throttr requests by slot, null at other work's slots; the array itself null while the batch
   * has none. A batch of requests only (every connection's batch) holds this one array and no
   * {@link #others}: the hot path costs no object per request and one array per batch.
   */
  private Request[] requests;
  /** The other work by slot, null at a request's slot ({@link ThrottrRequests}); null while none. */
  private ShardWork[] others;
  private int size;
  private int storeWork;
  private ByteBuf replies;
  private int[] replyEnds;
  private ShardListing[] collected;
  private Throwable[] failures;
  private boolean notRun;
  /**
   * A gathered batch's partition per slot (see {@link #gathered}); null for a batch of one route.
   */
  private int[] partitions;
  /** The slots a gate refused to run (a gathered batch's entries of a partition not served here); null while none. */
  private boolean[] unrun;
  private int unrunEntries;

  /** @param route see {@link #route} */
  public ShardBatch(int route) {
    this.route = route;
  }

  /**
   * A batch of Throttr requests of several partitions that run on one shard thread (its
   * {@code lane}, the {@link #route} of the batch): a cluster node sends each read as one such
   * batch per shard thread, not one per partition. Each request carries its partition
   * ({@link #add(Request, int)}, {@link #partitionOf}), and the gate that runs the batch checks
   * each entry's partition on its own.
   */
  public static ShardBatch gathered(int lane) {
    ShardBatch batch = new ShardBatch(lane);
    batch.partitions = new int[INITIAL_SLOTS];
    return batch;
  }

  /** True for a {@link #gathered} batch: its entries carry their partitions. */
  public boolean isGathered() {
    return partitions != null;
  }

  /** The partition entry {@code slot} belongs to: its own in a gathered batch, else the batch's route. */
  public int partitionOf(int slot) {
    return partitions == null ? route : partitions[slot];
  }

  /** Adds a Throttr request of {@code partition} to a {@link #gathered} batch. */
  public void add(Request request, int partition) {
    if (partitions == null) {
      throw new IllegalStateException("a batch of one route has no partition per entry");
    }
    if (size == partitions.length) {
      partitions = Arrays.copyOf(partitions, size * 2);
    }
    partitions[size] = partition;
    addRequest(request);
  }

  /**
   * Where the batch runs: in a cluster, the index of a partition of the cluster's table (its owner
   * may be another node; a shard verticle holds one store per partition placed on it); on a node
   * alone, the index of one of its shards. Whoever routes the batch reads it the way it knows.
   */
  public int route() {
    return route;
  }

  public void add(Request request) {
    if (partitions != null) {
      throw new IllegalStateException("a gathered batch's request needs its partition: add(request, partition)");
    }
    addRequest(request);
  }

  private void addRequest(Request request) {
    requests = room(requests, Request[]::new);
    requests[size++] = request;
  }

  public void add(ShardTask task) {
    addEntry(task);
  }

  public void add(ShardScan scan) {
    addEntry(scan);
  }

  /** One slice of the scan: send it again in a new batch until it has finished. */
  public void add(SlicedScan scan) {
    addEntry(scan);
  }

  public void add(KeyLookup lookup) {
    addEntry(lookup);
  }

  public void add(StoreWork work) {
    storeWork++;
    addEntry(work);
  }

  private void addEntry(ShardWork entry) {
    if (partitions != null) {
      throw new IllegalStateException("a gathered batch carries Throttr requests only");
    }
    others = room(others, ShardWork[]::new);
    others[size++] = entry;
  }

  /** {@code slots}, made to hold slot {@code size}. */
  private <T> T[] room(T[] slots, IntFunction<T[]> create) {
    if (slots == null) {
      return create.apply(Math.max(INITIAL_SLOTS, size + 1));
    }
    return size < slots.length ? slots : Arrays.copyOf(slots, Math.max(size + 1, slots.length * 2));
  }

  public int size() {
    return size;
  }

  /** The work at {@code index}; at a Throttr request's slot, the one {@link ThrottrRequests}, and {@link #request} is the request. */
  public ShardWork entry(int index) {
    ShardWork other = others == null || index >= others.length ? null : others[index];
    return other == null ? ThrottrRequests.ALL : other;
  }

  /** The Throttr request at {@code index}, or null when the entry is other work. */
  public Request request(int index) {
    return requests == null || index >= requests.length ? null : requests[index];
  }

  /** The reply bytes of every key request, one after another. */
  public ByteBuf replies() {
    return replies;
  }

  /** The end offset in {@link #replies()} of the reply to request {@code index}. */
  public int replyEnd(int index) {
    return replyEnds[index];
  }

  /** What a shard collected for a listing request (LIST, STATS, INFO) at {@code index}; null for other entries. */
  public ShardListing collected(int index) {
    return collected == null ? null : collected[index];
  }

  /**
   * Why entry {@code index} threw on the shard, or null when it ran. The failed entry has been
   * answered as a failure already where it can be (a Throttr request by its failure status, a
   * {@link ShardTask} through {@link ShardTask#failed}); a lookup or a scan has only this.
   */
  public Throwable failure(int index) {
    return failures == null ? null : failures[index];
  }

  /** The first entry's failure, or null when every entry ran. */
  public Throwable firstFailure() {
    if (failures != null) {
      for (Throwable failure : failures) {
        if (failure != null) {
          return failure;
        }
      }
    }
    return null;
  }

  /**
   * Whoever holds the shard refused the batch without running any of it (a cluster partition this
   * node does not serve at that instant): it is certainly not executed, so it may be sent again.
   */
  public void markNotRun() {
    notRun = true;
  }

  /** Ready to be sent again after it came back not run. */
  public void clearNotRun() {
    notRun = false;
  }

  /** True when the batch came back without being run (see {@link #markNotRun}). */
  public boolean notRun() {
    return notRun;
  }

  /**
   * Entry {@code slot} was not run: its partition is not served here at that instant (a gathered
   * batch's gate checks each entry's partition). Its reply is empty; it may be sent again.
   */
  public void markNotRun(int slot) {
    if (unrun == null) {
      unrun = new boolean[size];
    }
    if (!unrun[slot]) {
      unrun[slot] = true;
      unrunEntries++;
    }
  }

  /** True when entry {@code slot} came back unrun (see {@link #markNotRun(int)}). */
  public boolean notRun(int slot) {
    return unrun != null && unrun[slot];
  }

  /** How many entries came back unrun, each on its own (see {@link #markNotRun(int)}). */
  public int unrunEntries() {
    return unrunEntries;
  }

  /** Only {@link StoreWork}: maintenance of the store, not requests of clients. */
  public boolean isStoreWork() {
    return size > 0 && storeWork == size;
  }

  // Called by the shard.

  void fail(int index, Throwable error) {
    if (failures == null) {
      failures = new Throwable[size];
    }
    failures[index] = error;
  }

  ByteBuf startReplies() {
    replies = Unpooled.buffer(size * 16);
    replyEnds = new int[size];
    return replies;
  }

  void endReply(int index) {
    replyEnds[index] = replies.writerIndex();
  }

  void collect(int index, ShardListing value) {
    if (collected == null) {
      collected = new ShardListing[size];
    }
    collected[index] = value;
  }
}
