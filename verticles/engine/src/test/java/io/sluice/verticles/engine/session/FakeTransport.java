package io.sluice.verticles.engine.session;

import io.netty.buffer.ByteBuf;
import io.sluice.verticles.engine.routing.ShardRouter;
import io.sluice.verticles.engine.shard.ShardBatch;
import io.sluice.verticles.engine.shard.ThrottrShard;
import io.sluice.verticles.engine.testsupport.Wire;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Records what a session asks of its socket and, as its router, of its shards. Dispatched batches wait until the test
 * completes them, in any order, by running them on real {@link ThrottrShard}s.
 */
final class FakeTransport implements Transport, ShardRouter {

  /** One batch handed to a shard, and the session's continuation for it. */
  static final class Dispatch {
    final ShardBatch batch;
    final Consumer<ShardBatch> done;
    boolean completed;

    Dispatch(ShardBatch batch, Consumer<ShardBatch> done) {
      this.batch = batch;
      this.done = done;
    }
  }

  private final ThrottrShard[] shards;
  final List<Dispatch> dispatched = new ArrayList<>();
  final List<String> writes = new ArrayList<>();
  final List<String> flow = new ArrayList<>();
  final List<String> closes = new ArrayList<>();
  boolean completeAtOnce;
  /** Told when the "socket" takes replies; null leaves them queued until {@link #drainWrites}. */
  ThrottrSession session;
  boolean socketTakesWritesAtOnce = true;
  private final List<Integer> unwritten = new ArrayList<>();

  /** How many shard threads the routes run on: route {@code r} on lane {@code r % lanes}. */
  private final int lanes;

  FakeTransport(ThrottrShard[] shards) {
    this(shards, shards.length);
  }

  FakeTransport(ThrottrShard[] shards, int lanes) {
    this.shards = shards;
    this.lanes = lanes;
  }

  @Override
  public int routes() {
    return shards.length;
  }

  @Override
  public int lanes() {
    return lanes;
  }

  @Override
  public int laneOf(int route) {
    return route % lanes;
  }

  @Override
  public void dispatch(ShardBatch batch, Consumer<ShardBatch> done, Consumer<Throwable> failed) {
    Dispatch dispatch = new Dispatch(batch, done);
    dispatched.add(dispatch);
    if (completeAtOnce) {
      complete(dispatch);
    }
  }

  @Override
  public void write(ByteBuf replies) {
    int length = replies.readableBytes();
    writes.add(Wire.hex(replies));
    replies.release();
    unwritten.add(length);
    if (socketTakesWritesAtOnce) {
      drainWrites();
    }
  }

  /** The socket takes every write made so far. */
  void drainWrites() {
    List<Integer> taken = new ArrayList<>(unwritten);
    unwritten.clear();
    taken.forEach(session::replyWritten);
  }

  @Override
  public void pauseReading() {
    flow.add("pause");
  }

  @Override
  public void resumeReading() {
    flow.add("resume");
  }

  @Override
  public void close(String reason) {
    closes.add(reason);
  }

  void complete(Dispatch dispatch) {
    if (dispatch.completed) {
      throw new IllegalStateException("already completed");
    }
    for (Dispatch earlier : dispatched) {
      if (earlier == dispatch) {
        break;
      }
      if (!earlier.completed && earlier.batch.route() == dispatch.batch.route()) {
        // A shard runs its batches in arrival order; only different shards finish out of order.
        throw new IllegalStateException("an earlier batch of shard " + dispatch.batch.route() + " is still open");
      }
    }
    dispatch.completed = true;
    if (dispatch.batch.isGathered()) {
      ThrottrShard.execute(dispatch.batch, route -> shards[route]);
    } else {
      shards[dispatch.batch.route()].execute(dispatch.batch);
    }
    dispatch.done.accept(dispatch.batch);
  }

  void complete(int dispatchIndex) {
    complete(dispatched.get(dispatchIndex));
  }

  /**
   * Completes every open dispatch, the highest shard first: shards finish in the reverse of the
   * order the session would write, while each shard still runs its own batches in arrival order.
   */
  void completeAllInReverse() {
    for (int shard = shards.length - 1; shard >= 0; shard--) {
      for (Dispatch d : dispatched) {
        if (!d.completed && d.batch.route() == shard) {
          complete(d);
        }
      }
    }
  }

  List<Dispatch> outstanding() {
    List<Dispatch> open = new ArrayList<>();
    for (Dispatch d : dispatched) {
      if (!d.completed) {
        open.add(d);
      }
    }
    return open;
  }

  /** Every write, concatenated. */
  String written() {
    return String.join(" ", writes).trim();
  }
}
