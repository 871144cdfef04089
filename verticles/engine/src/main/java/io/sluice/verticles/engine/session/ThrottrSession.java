package io.sluice.verticles.engine.session;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.sluice.verticles.engine.channel.Channels;
import io.sluice.verticles.engine.instance.ConnectionStats;
import io.sluice.verticles.engine.instance.Instance;
import io.sluice.verticles.engine.routing.RequestRoute;
import io.sluice.verticles.engine.routing.ShardRouter;
import io.sluice.verticles.engine.shard.ShardBatch;
import io.sluice.protocol.binary.codec.DecodeError;
import io.sluice.protocol.binary.codec.Request;
import io.sluice.protocol.binary.codec.RequestDecoder;
import io.sluice.protocol.binary.codec.RequestType;

import java.util.ArrayDeque;

/**
 * One client connection's Throttr protocol engine, independent of the socket: it routes each
 * decoded request to the shard that owns its key, sends the requests of one read as one batch per
 * shard, and answers strictly in request order, writing the replies of a read in one write (the
 * {@link ReplyAssembly} writes them).
 * Back-pressure: it counts what it holds for the client — each decoded request (its frame and
 * {@link #REQUEST_OVERHEAD}), the replies its shards sent back, the writes the socket has not
 * taken yet (their bytes and {@link #WRITE_OVERHEAD}) — and while that reaches the limit, or too many requests wait for their
 * replies, or the socket's write queue is full, it asks the transport to stop reading from the
 * client; it reads again once both counts are below half their limits.
 * Not thread-safe: every method runs on the connection's thread.
 */
public final class ThrottrSession implements RequestDecoder.Handler {

  /**
   * What a decoded request costs the heap besides its frame's bytes: the request object and the
   * arrays around its fields, its slots in the read and in its shard's batch (a heap histogram of
   * pipelined QUERYs of a 3-byte key shows about 60 bytes each).
   */
  public static final int REQUEST_OVERHEAD = 64;

  /**
   * What one write costs the heap until the socket takes it, besides its bytes: Netty's queue entry
   * and buffer objects, Vert.x's promise and listeners (a heap histogram of queued replies shows
   * about 450 bytes each).
   */
  public static final int WRITE_OVERHEAD = 512;

  /** A read's requests go to the shards early once they hold this fraction of the limit. */
  private static final int DISPATCH_SHARE = 16;

  private final Instance instance;
  private final ConnectionStats connection;
  private final Channels channels;
  private final ShardRouter router;
  private final Transport transport;
  private final ReplyAssembly replies;
  private final int maxPendingRequests;
  private final long maxPendingBytes;
  private final boolean writePerRead;
  private final ArrayDeque<PendingRead> pending = new ArrayDeque<>();
  private PendingRead current;
  private int pendingRequests;
  private long heldBytes;
  /** The decoder holds input back until the session reads again. */
  private boolean inputHeldBack;
  private boolean writable = true;
  private boolean reading = true;
  /** Why the connection closes once the requests read before bad input are answered; null while none came. */
  private String closeReason;
  private boolean closing;
  /** A read's replies wait until every node hears what it subscribed to; the reads after it wait behind. */
  private boolean awaitingSubscriptions;

  /**
   * @param writePerRead true to write each read's replies on their own (a WebSocket answers one
   *                     message with one message); false to join the replies of every read ready
   *                     at once into one write (a TCP stream has no message boundaries)
   */
  public ThrottrSession(Instance instance, ConnectionStats connection, Channels channels, ShardRouter router,
                        Transport transport, int maxPendingRequests, long maxPendingBytes, boolean writePerRead) {
    this.router = router;
    this.maxPendingBytes = maxPendingBytes;
    this.writePerRead = writePerRead;
    this.instance = instance;
    this.connection = connection;
    this.channels = channels;
    this.transport = transport;
    this.maxPendingRequests = maxPendingRequests;
    this.replies = new ReplyAssembly(instance, connection, channels, router);
  }

  @Override
  public boolean onRequest(Request request, int frameLength) {
    connection.countRequest(request.type().code());
    countRequest(request.type().code());
    Request target = request;
    if (request instanceof Request.Event event) {
      // As the reference does, each EVENT level counts its payload's type: EVENT for all but the
      // innermost, whose first byte counts even when it names no request.
      for (int level = 1; level < event.depth(); level++) {
        countRequest(RequestType.EVENT.code());
      }
      countRequest(event.innerType());
      target = event.inner();
    }
    if (current == null) {
      current = new PendingRead(router);
    }
    int route = routeOf(target);
    current.add(request, target, route);
    if (route == PendingRead.LOCAL && target != null && asksOtherNodes(target.type())) {
      current.askOtherNodes(target);
    }
    hold(current, frameLength + REQUEST_OVERHEAD);
    pendingRequests++;
    return writePerRead || mayDecodeMore();
  }

  /**
   * Within a large read: sends what is decoded so far once it is a share of the limit, so that
   * shards on this thread answer now and their replies count, and asks the decoder to hold the
   * rest back while the session holds its limit. (A WebSocket message is answered by one message,
   * so it is always decoded whole; the bridge caps its size.)
   */
  private boolean mayDecodeMore() {
    if (heldBytes < maxPendingBytes && current.heldBytes < maxPendingBytes / DISPATCH_SHARE) {
      return true;
    }
    endOfRead();
    if (heldBytes < maxPendingBytes) {
      return true;
    }
    inputHeldBack = true;
    return false;
  }

  /** In a cluster, the channel requests that describe every node's subscribers. */
  private boolean asksOtherNodes(RequestType type) {
    return (type == RequestType.PUBLISH || type == RequestType.CHANNEL || type == RequestType.CHANNELS)
        && channels.spansNodes();
  }

  private void hold(PendingRead read, long bytes) {
    read.heldBytes += bytes;
    heldBytes += bytes;
  }

  private void countRequest(int typeCode) {
    instance.counters().count(connection.protocol(), typeCode);
  }

  /**
   * Bad input: nothing after it is read, but every request before it, in this read or an earlier
   * one, is answered before the connection closes.
   */
  @Override
  public void onError(DecodeError error) {
    closeReason = error.message();
    updateReading();
  }

  /** Sends what the last read decoded to the shards. Call after feeding each read to the decoder. */
  public void endOfRead() {
    PendingRead read = current;
    if (read == null) {
      closeIfAnswered();
      return;
    }
    current = null;
    pending.add(read);
    for (ShardBatch batch : read.batches) {
      if (batch != null) {
        read.outstanding++;
      }
    }
    // Every answer is counted before the first is asked for: one may come at once.
    read.outstanding += read.askedElsewhere + (read.askingOtherNodes != null ? 1 : 0);
    if (read.askingOtherNodes != null) {
      // Asked now, with the shards: the other nodes' subscribers are not ordered with this
      // connection's requests; this node's own are read in order, when each request is answered.
      channels.askOtherNodes(read.askingOtherNodes, answers -> {
        read.otherNodes = answers;
        read.outstanding--;
        flush();
      });
    }
    for (int i = 0; read.askedElsewhere > 0 && i < read.size(); i++) {
      if (read.lane(i) == PendingRead.ELSEWHERE) {
        askElsewhere(read, i);
      }
    }
    for (ShardBatch batch : read.batches) {
      if (batch != null) {
        router.dispatch(batch, filled -> {
          read.batches[filled.route()] = filled;
          hold(read, filled.replies() == null ? 0 : filled.replies().readableBytes());
          read.outstanding--;
          flush();
        }, error -> transport.close("shard " + batch.route() + " unreachable: " + error.getMessage()));
      }
    }
    flush();
    updateReading();
  }

  /** Asks the cluster's other nodes for the connection a CONNECTION names; its answer joins the read. */
  private void askElsewhere(PendingRead read, int index) {
    byte[] id = ((Request.Connection) targetOf(read.request(index))).id();
    instance.connections().elsewhere().find(id).whenComplete((item, failure) -> {
      if (item != null) {
        read.answeredElsewhere(index, item);
        hold(read, item.length + 1);
      }
      read.outstanding--;
      flush();
    });
  }

  private static Request targetOf(Request request) {
    return request instanceof Request.Event event ? event.inner() : request;
  }

  /** The socket's write queue became full (false) or drained (true). */
  public void setWritable(boolean writable) {
    this.writable = writable;
    updateReading();
  }

  /**
   * The socket has taken the {@code bytes} of one {@link Transport#write}, or they are gone with
   * the connection: they no longer count against the limit. Once per write.
   */
  public void replyWritten(int bytes) {
    heldBytes -= bytes + WRITE_OVERHEAD;
    updateReading();
  }

  /** Requests decoded and not answered yet. */
  public int pendingRequests() {
    return pendingRequests;
  }

  /** False while the session has asked the transport to stop reading. */
  public boolean reading() {
    return reading;
  }

  /** What the session holds for the client now, as counted against the limit. */
  public long heldBytes() {
    return heldBytes;
  }

  /** Where {@code target} runs, by the one table of routes: a shard index, or the session's own markers. */
  private int routeOf(Request target) {
    if (target == null) {
      // An EVENT whose payload names no request: answered here with 00.
      return PendingRead.LOCAL;
    }
    return switch (RequestRoute.of(target.type())) {
      case OWNER -> router.routeOf(((Request.KeyRequest) target).key());
      case EVERY_SHARD -> PendingRead.EVERY_SHARD;
      case CONNECTION -> target instanceof Request.Connection asked && instance.connections().elsewhere().any()
          && instance.connections().find(asked.id()) == null ? PendingRead.ELSEWHERE : PendingRead.LOCAL;
      case INNER -> PendingRead.LOCAL;
    };
  }

  /** Writes the replies of every read at the head of the queue whose shards are done, in order. */
  private void flush() {
    if (awaitingSubscriptions || pending.isEmpty() || !pending.peek().isComplete()) {
      return;
    }
    ByteBuf out = null;
    while (!pending.isEmpty() && pending.peek().isComplete()) {
      PendingRead read = pending.poll();
      if (out == null) {
        out = Unpooled.buffer(read.size() * 8);
      }
      replies.answer(read, out);
      pendingRequests -= read.size();
      heldBytes -= read.heldBytes;
      if (read.subscribed) {
        // A SUBSCRIBE is answered once a message published after its answer, on any node, reaches it.
        awaitingSubscriptions = true;
        ByteBuf held = out;
        out = null;
        channels.whenHeardEverywhere(() -> writeOnceHeard(held));
        break;
      }
      if (writePerRead) {
        write(out);
        out = null;
      }
    }
    if (out != null) {
      write(out);
    }
    updateReading();
    closeIfAnswered();
  }

  private void writeOnceHeard(ByteBuf out) {
    awaitingSubscriptions = false;
    write(out);
    flush();
    updateReading();
    closeIfAnswered();
  }

  private void write(ByteBuf replies) {
    heldBytes += replies.readableBytes() + WRITE_OVERHEAD;
    transport.write(replies);
  }

  /** After bad input, closes once the requests before it have all been answered. */
  private void closeIfAnswered() {
    if (closeReason != null && !closing && current == null && pending.isEmpty() && !awaitingSubscriptions) {
      closing = true;
      transport.close(closeReason);
    }
  }

  private void updateReading() {
    connection.setHeldBytes(heldBytes);
    boolean shouldRead = closeReason == null && writable
        && pendingRequests < (reading ? maxPendingRequests : maxPendingRequests / 2)
        && heldBytes < (reading ? maxPendingBytes : maxPendingBytes / 2);
    if (shouldRead && (!reading || inputHeldBack)) {
      reading = true;
      inputHeldBack = false;
      transport.resumeReading();
    } else if (!shouldRead && reading) {
      reading = false;
      transport.pauseReading();
    }
  }
}
