package io.sluice.verticles.benchmarks.load;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.internal.buffer.BufferInternal;
import io.vertx.core.net.NetSocket;
import org.HdrHistogram.Histogram;

/**
 * One bench connection: keeps {@code pipeline} requests in flight, matches replies in order,
 * records each request's latency, and refills the window with one write per read.
 */
final class BenchConnection {

  private final NetSocket socket;
  private final Workload workload;
  private final BenchOptions options;
  private final Workload.Expect[] expects;
  private final long[] sentAt;
  private final ByteBuf in = Unpooled.buffer(64 * 1024);
  final Histogram latency = new Histogram(3_600_000_000_000L, 3);
  private int head;
  private int inFlight;
  private boolean prefilling = true;
  private volatile boolean recording;
  private volatile boolean stopping;
  long completed;
  long refused;
  private Promise<Void> prefilled;
  private Promise<Void> drained;

  /** The socket's event loop: every method but the volatile flags runs there. */
  final io.vertx.core.Context context;

  BenchConnection(NetSocket socket, Workload workload, BenchOptions options) {
    this.context = java.util.Objects.requireNonNull(io.vertx.core.Vertx.currentContext(), "created off the socket's context");
    this.socket = socket;
    this.workload = workload;
    this.options = options;
    this.expects = new Workload.Expect[options.pipeline()];
    this.sentAt = new long[options.pipeline()];
    socket.handler(this::onData);
  }

  /** Inserts this connection's share of the keys; completes when every one is answered. */
  io.vertx.core.Future<Void> prefill() {
    prefilled = Promise.promise();
    socket.exceptionHandler(prefilled::tryFail);
    refill();
    if (inFlight == 0) {
      prefilled.tryComplete();
    }
    return prefilled.future();
  }

  void startLoad() {
    prefilling = false;
    refill();
  }

  void record(boolean on) {
    recording = on;
  }

  /** Stops sending; completes when every request in flight has its reply. */
  io.vertx.core.Future<Void> stop() {
    drained = Promise.promise();
    socket.exceptionHandler(drained::tryFail);
    stopping = true;
    if (inFlight == 0) {
      drained.tryComplete();
    }
    return drained.future();
  }

  private void onData(Buffer data) {
    in.writeBytes(((BufferInternal) data).getByteBuf());
    long now = System.nanoTime();
    try {
      while (inFlight > 0) {
        int length = Workload.replyLength(in, expects[head], options.valueSize());
        if (length == -1) {
          break;
        }
        if (length == Workload.REFUSED) {
          length = 1;
          if (!prefilling) {
            refused++;
          }
        }
        in.skipBytes(length);
        if (recording) {
          latency.recordValue(Math.max(0, now - sentAt[head]));
          completed++;
        }
        head = (head + 1) % expects.length;
        inFlight--;
      }
    } catch (IllegalStateException e) {
      fail(e);
      return;
    }
    in.discardReadBytes();
    refill();
  }

  private void refill() {
    if (stopping) {
      if (inFlight == 0 && drained != null) {
        drained.tryComplete();
      }
      return;
    }
    ByteBuf out = null;
    long now = System.nanoTime();
    while (inFlight < expects.length) {
      if (prefilling && !workload.hasPrefill()) {
        if (inFlight == 0 && prefilled != null) {
          prefilled.tryComplete();
        }
        break;
      }
      if (out == null) {
        out = Unpooled.buffer(expects.length * 24);
      }
      int slot = (head + inFlight) % expects.length;
      expects[slot] = prefilling ? workload.writePrefill(out) : workload.writeNext(out);
      sentAt[slot] = now;
      inFlight++;
    }
    if (out != null) {
      socket.write(BufferInternal.buffer(out));
    }
  }

  private void fail(Exception e) {
    if (prefilled != null) {
      prefilled.tryFail(e);
    }
    if (drained != null) {
      drained.tryFail(e);
    }
    stopping = true;
    socket.close();
    failure = e;
  }

  volatile Exception failure;

  void close() {
    socket.close();
  }
}
