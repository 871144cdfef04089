package io.sluice.verticles.engine.shard;

import io.netty.buffer.ByteBuf;
import io.sluice.verticles.engine.log.LogText;
import io.sluice.verticles.engine.storage.Bound;
import io.sluice.verticles.engine.storage.Store;
import io.sluice.protocol.binary.codec.Request;
import io.sluice.protocol.binary.codec.ValueSize;

import java.util.function.IntFunction;

/**
 * Runs the {@link ShardWork} of batches against one shard's {@link Store}, each entry on its own
 * (what Throttr requests do is {@link KeyRequests}). Pure: no Vert.x, no threads; the shard
 * verticle calls it on its own event loop.
 */
public final class ThrottrShard {

  private static final System.Logger LOG = System.getLogger(ThrottrShard.class.getName());

  private final Store store;
  private final ShardContext context;
  /** This shard for every partition: a batch of its own route runs here whole. */
  private final IntFunction<ThrottrShard> itself = partition -> this;

  public ThrottrShard(Store store, ValueSize size) {
    this.store = store;
    this.context = new ShardContext(store, size);
  }

  public Store store() {
    return store;
  }

  /**
   * Runs every entry of the batch in order. The clock is read per entry, as time passes between
   * pipelined requests: a QUERY right after an INSERT of 60 s reads 59, as clients expect.
   *
   * <p>Never throws: every path to a shard ends here, and one entry must not cost the replies of
   * the others, nor of the other connections' batches travelling in the same event-bus message. An
   * entry that throws anything (a bug, a stack overflow, memory running out) is logged once with its
   * key and type and fails alone: a Throttr request answers its type's failure status {@code 00}
   * (any reply bytes it had written are dropped), a listing contributes nothing and is answered
   * {@code 00}, a {@link ShardTask} is told through {@link ShardTask#failed}, and every failure is in
   * {@link ShardBatch#failure}. What the entry changed before it threw stays changed. The entries
   * after it run as usual.
   */
  public void execute(ShardBatch batch) {
    execute(batch, itself);
  }

  /**
   * Runs a {@linkplain ShardBatch#gathered gathered} batch as {@link #execute(ShardBatch)} runs
   * one: each entry on the shard of its partition, {@code servingShard.apply(partition)}, or, when
   * that is null (the partition is not served here at that instant), not at all: the entry is
   * {@linkplain ShardBatch#markNotRun(int) marked unrun}, with an empty reply, for its sender to
   * route again. Never throws.
   */
  public static void execute(ShardBatch batch, IntFunction<ThrottrShard> servingShard) {
    int next = 0;
    try {
      ByteBuf out = batch.startReplies();
      for (; next < batch.size(); next++) {
        int start = out.writerIndex();
        try {
          ThrottrShard shard = servingShard.apply(batch.partitionOf(next));
          if (shard == null) {
            batch.markNotRun(next);
          } else {
            shard.context.at(batch, next);
            batch.entry(next).run(shard.context);
          }
        } catch (Throwable error) {
          out.writerIndex(start);
          fail(batch, next, error, out);
        }
        batch.endReply(next);
      }
    } catch (Throwable error) {
      // Failing outside an entry's own run (the reply buffer, or the failure path itself): what
      // is left fails, with empty replies, so that every entry still reads as answered.
      for (; next < batch.size(); next++) {
        if (batch.failure(next) == null) {
          fail(batch, next, error, null);
        }
        if (batch.replies() != null) {
          batch.endReply(next);
        }
      }
    }
  }

  /**
   * Answers every entry of a batch that could not be run at all (its owner in a cluster could not
   * be reached, or not known to have run it) as a failure, exactly as if each had thrown
   * {@code error}; logs nothing (the caller logs once for the whole batch).
   */
  public static void failUnrun(ShardBatch batch, Throwable error) {
    ByteBuf out = batch.startReplies();
    for (int i = 0; i < batch.size(); i++) {
      answerFailure(batch, i, error, out);
      batch.endReply(i);
    }
  }

  /** Answers a failed entry as a failure; {@code out} is null when no reply can be written at all. */
  private static void fail(ShardBatch batch, int index, Throwable error, ByteBuf out) {
    LOG.log(System.Logger.Level.ERROR, "shard " + batch.route() + ": " + describe(batch, index)
        + " failed and is answered as a failure: " + LogText.failure(error));
    answerFailure(batch, index, error, out);
  }

  private static void answerFailure(ShardBatch batch, int index, Throwable error, ByteBuf out) {
    batch.fail(index, error);
    try {
      batch.entry(index).fail(error, out);
    } catch (Throwable alsoFailed) {
      LOG.log(System.Logger.Level.ERROR, "shard " + batch.route() + ": " + describe(batch, index)
          + " threw again when told it failed: " + LogText.failure(alsoFailed));
    }
  }

  /** The entry's type and key, for the log. */
  private static String describe(ShardBatch batch, int index) {
    Description description = new Description(batch);
    batch.entry(index).accept(description, index);
    return description.text;
  }

  public ShardSummary summary() {
    return summary(store);
  }

  static ShardSummary summary(Store store) {
    return new ShardSummary(store.size(), store.counters(), store.buffers(), store.bufferBytes(),
        store.expiredReclaimed(), store.estimatedBytes(), store.evicted(Bound.KEYS), store.evicted(Bound.MEMORY),
        store.rejected(), store.limits());
  }

  private static final class Description implements ShardWork.Kinds {

    private final ShardBatch batch;
    private String text;

    Description(ShardBatch batch) {
      this.batch = batch;
    }

    @Override
    public void request(int slot) {
      Request request = batch.request(slot);
      text = request instanceof Request.KeyRequest keyed ? request.type() + " of key " + LogText.key(keyed.key())
          : request.type().toString();
    }

    @Override
    public void task(ShardTask task) {
      text = "task " + task.getClass().getName() + " on key " + LogText.key(task.key());
    }

    @Override
    public void lookup(KeyLookup lookup) {
      text = "lookup of key " + LogText.key(lookup.keyBytes());
    }

    @Override
    public void scan(ShardScan scan) {
      text = "scan " + scan.getClass().getName();
    }

    @Override
    public void slice(SlicedScan slice) {
      text = "scan " + slice.getClass().getName();
    }

    @Override
    public void storeWork(StoreWork work) {
      text = "scan " + work.getClass().getName();
    }
  }
}
