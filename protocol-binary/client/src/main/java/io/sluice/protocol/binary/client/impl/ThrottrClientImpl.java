package io.sluice.protocol.binary.client.impl;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.sluice.protocol.binary.client.ConnectionClosedException;
import io.sluice.protocol.binary.client.PendingQueueFullException;
import io.sluice.protocol.binary.client.ThrottrClient;
import io.sluice.protocol.binary.client.ThrottrClientOptions;
import io.sluice.protocol.binary.codec.Request;
import io.sluice.protocol.binary.codec.RequestEncoder;
import io.sluice.protocol.binary.codec.response.Response;
import io.sluice.protocol.binary.codec.response.ResponseDecodeException;
import io.sluice.protocol.binary.codec.response.ResponseDecoder;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.internal.buffer.BufferInternal;
import io.vertx.core.net.ConnectOptions;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.NetSocket;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@link ThrottrClient} over one {@link NetSocket}. All connection state is confined to the
 * socket's context; calls from other threads hop onto it, in call order.
 *
 * <p>Two queues advance together: {@link #waiting} holds the promises and the decoder holds the
 * expected replies, both in send order, both appended in the same step. A reply completes the
 * oldest promise.
 */
public final class ThrottrClientImpl implements ThrottrClient {

  private static final int ID_LENGTH = 16;

  private final ContextInternal context;
  private final NetClient netClient;
  private final NetSocket socket;
  private final ThrottrClientOptions options;
  private final ResponseDecoder decoder;
  private final ArrayDeque<Promise<Response>> waiting = new ArrayDeque<>();
  private volatile Handler<Response.Push> pushHandler;
  private volatile Handler<Void> closeHandler;
  /** Set once the connection starts going down, whichever side closes it: nothing more is sent. */
  private boolean closing;
  /** What broke the connection, if something did: the pending requests fail with it. */
  private Throwable failure;

  /** Package-private so a test can hand in a socket that counts writes; {@link #connect} is the way in. */
  ThrottrClientImpl(ContextInternal context, NetClient netClient, NetSocket socket, ThrottrClientOptions options) {
    this.context = context;
    this.netClient = netClient;
    this.socket = socket;
    this.options = options;
    this.decoder = new ResponseDecoder(options.getValueSize(), new DecoderEvents());
    socket.handler(this::onData);
    socket.exceptionHandler(this::closeBecause);
    socket.closeHandler(ignored -> onClosed());
  }

  public static Future<ThrottrClient> connect(Vertx vertx, ThrottrClientOptions options) {
    ThrottrClientOptions settled = new ThrottrClientOptions(options);
    NetClient netClient = vertx.createNetClient(new NetClientOptions().setTcpNoDelay(true));
    ConnectOptions target = new ConnectOptions().setPort(settled.getPort()).setHost(settled.getHost());
    if (settled.getTls() != null) {
      target.setSsl(true).setSslOptions(settled.getTls());
    }
    return netClient.connect(target)
        // This callback runs on the context the socket's handlers will run on: capture that one.
        .<ThrottrClient>map(socket ->
            new ThrottrClientImpl((ContextInternal) vertx.getOrCreateContext(), netClient, socket, settled))
        .onFailure(error -> netClient.close());
  }

  @Override
  public Future<Response> send(Request request) {
    return submit(List.of(request)).get(0);
  }

  @Override
  public Future<List<Response>> batch(List<Request> requests) {
    if (requests.isEmpty()) {
      return Future.succeededFuture(List.of());
    }
    List<Future<Response>> replies = submit(requests);
    return Future.all(replies).map(all -> all.<Response>list());
  }

  @Override
  public ThrottrClient pushHandler(Handler<Response.Push> handler) {
    this.pushHandler = handler;
    return this;
  }

  @Override
  public ThrottrClient closeHandler(Handler<Void> handler) {
    this.closeHandler = handler;
    return this;
  }

  @Override
  public Future<Void> close() {
    return socket.close().eventually(netClient::close);
  }

  /**
   * Encodes on the caller's thread, into one buffer for the whole list, so a request that cannot
   * be encoded fails the call before anything is queued or written.
   */
  private List<Future<Response>> submit(List<Request> requests) {
    List<Promise<Response>> promises = new ArrayList<>(requests.size());
    List<Future<Response>> replies = new ArrayList<>(requests.size());
    for (int i = 0; i < requests.size(); i++) {
      // Bound to the connection's context: a callback that throws is reported there instead of
      // unwinding into the decoder, and every callback runs on the connection's event loop.
      Promise<Response> promise = context.promise();
      promises.add(promise);
      replies.add(promise.future());
    }
    ByteBuf frames;
    try {
      frames = encode(requests);
    } catch (IllegalArgumentException invalid) {
      failAll(promises, invalid);
      return replies;
    }
    onContext(() -> write(requests, frames, promises));
    return replies;
  }

  private ByteBuf encode(List<Request> requests) {
    ByteBuf frames = Unpooled.buffer();
    for (Request request : requests) {
      // The server reads exactly 16 ID bytes, so any other length would shift every later frame.
      if (request instanceof Request.Connection connection && connection.id().length != ID_LENGTH) {
        throw new IllegalArgumentException("a connection ID is 16 bytes, not " + connection.id().length);
      }
      RequestEncoder.encode(frames, options.getValueSize(), request);
    }
    return frames;
  }

  private void write(List<Request> requests, ByteBuf frames, List<Promise<Response>> promises) {
    if (closing) {
      failAll(promises, closedException());
      return;
    }
    if (waiting.size() + requests.size() > options.getMaxPending()) {
      failAll(promises, new PendingQueueFullException(String.format(
          "%d requests already wait for replies and the limit is %d; %d more cannot be sent",
          waiting.size(), options.getMaxPending(), requests.size())));
      return;
    }
    for (int i = 0; i < requests.size(); i++) {
      decoder.expect(requests.get(i));
      waiting.add(promises.get(i));
    }
    socket.write(BufferInternal.buffer(frames)).onFailure(this::closeBecause);
  }

  private void onData(Buffer data) {
    decoder.feed(((BufferInternal) data).getByteBuf());
  }

  private void closeBecause(Throwable cause) {
    if (failure == null) {
      failure = cause;
    }
    closing = true;
    socket.close();
  }

  private void onClosed() {
    closing = true;
    Throwable cause = failure != null ? failure : closedException();
    Promise<Response> promise;
    while ((promise = waiting.poll()) != null) {
      promise.tryFail(cause);
    }
    netClient.close();
    Handler<Void> handler = closeHandler;
    if (handler != null) {
      handler.handle(null);
    }
  }

  private ConnectionClosedException closedException() {
    return new ConnectionClosedException(
        "the connection to " + options.getHost() + ":" + options.getPort() + " is closed");
  }

  private void onContext(Runnable action) {
    if (context.isRunningOnContext()) {
      action.run();
    } else {
      context.runOnContext(ignored -> action.run());
    }
  }

  private static void failAll(List<Promise<Response>> promises, Throwable cause) {
    for (Promise<Response> promise : promises) {
      promise.tryFail(cause);
    }
  }

  /** The decoder's callbacks, kept off the public type. */
  private final class DecoderEvents implements ResponseDecoder.Handler {

    @Override
    public void onResponse(Response response) {
      waiting.poll().complete(response);
    }

    @Override
    public void onPush(Response.Push push) {
      Handler<Response.Push> handler = pushHandler;
      if (handler == null) {
        return;
      }
      try {
        handler.handle(push);
      } catch (RuntimeException error) {
        // Thrown out of here it would stop the decoder half way through a read and lose its tail.
        context.reportException(error);
      }
    }

    @Override
    public void onError(ResponseDecodeException error) {
      closeBecause(error);
    }
  }
}
