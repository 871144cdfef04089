package io.sluice.verticles.server.cluster;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.sluice.verticles.engine.time.Clock;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.internal.net.NetSocketInternal;
import io.vertx.core.net.NetSocket;

import java.lang.reflect.Field;
import java.net.InetSocketAddress;
import java.net.SocketAddress;

/**
 * Puts a frame decoder with a bound, and {@link EventBusFrames}' check, in front of the parser of
 * every connection Vert.x's clustered event bus accepts: a frame whose length field exceeds
 * {@link EventBusFrames#MAX_FRAME_BYTES}, or whose fields do not fit in it, closes the connection
 * before Vert.x allocates anything for it, and is logged once per peer address ({@link PeerLog}).
 *
 * <p>Vert.x 5 builds that server inside its event bus and offers no option to bound it, so this
 * wraps the handler Vert.x gave the server for new connections (found by reflection, checked when
 * the node starts: a Vert.x where it moved fails the start instead of running unguarded).
 */
final class EventBusGuard {

  private static final System.Logger LOG = System.getLogger(EventBusGuard.class.getName());
  private static final String DECODER = "sluice-frame-decoder";
  private static final String CHECK = "sluice-frame-check";
  /** The name Vert.x gives its own connection handler in the pipeline. */
  private static final String VERTX_HANDLER = "handler";

  private final PeerLog log;

  private EventBusGuard(PeerLog log) {
    this.log = log;
  }

  /** Guards every connection the clustered event bus of {@code vertx} accepts from now on. */
  static void install(Vertx vertx, Clock clock) {
    EventBusGuard guard = new EventBusGuard(new PeerLog(clock));
    try {
      Object server = field(vertx.eventBus(), "server");
      Object initializer = field(server, "initializer");
      Field handlerField = initializer.getClass().getDeclaredField("connectionHandler");
      handlerField.setAccessible(true);
      @SuppressWarnings("unchecked")
      Handler<NetSocket> vertxHandler = (Handler<NetSocket>) handlerField.get(initializer);
      handlerField.set(initializer, (Handler<NetSocket>) socket -> {
        guard.guard((NetSocketInternal) socket);
        vertxHandler.handle(socket);
      });
    } catch (ReflectiveOperationException | RuntimeException e) {
      throw new IllegalStateException("cannot bound the frames of the clustered event bus of this Vert.x version ("
          + e + "): refusing to listen unguarded", e);
    }
  }

  private static Object field(Object owner, String name) throws ReflectiveOperationException {
    Field field = owner.getClass().getDeclaredField(name);
    field.setAccessible(true);
    return field.get(owner);
  }

  private void guard(NetSocketInternal socket) {
    ChannelPipeline pipeline = socket.channelHandlerContext().pipeline();
    pipeline.addBefore(VERTX_HANDLER, DECODER, new LengthFieldBasedFrameDecoder(
        EventBusFrames.MAX_FRAME_BYTES + EventBusFrames.LENGTH_FIELD_BYTES, 0, EventBusFrames.LENGTH_FIELD_BYTES,
        0, 0, true));
    pipeline.addBefore(VERTX_HANDLER, CHECK, new FrameCheck());
  }

  /** Lets whole, well-formed frames through to Vert.x; closes the connection at the first other one. */
  private final class FrameCheck extends ChannelInboundHandlerAdapter {

    @Override
    public void channelRead(ChannelHandlerContext context, Object message) {
      String refusal = EventBusFrames.refusal((ByteBuf) message);
      if (refusal == null) {
        context.fireChannelRead(message);
      } else {
        ((ByteBuf) message).release();
        refuse(context, refusal);
      }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext context, Throwable cause) {
      // The decoder's refusals (a length beyond the bound, a negative one) land here: never handed
      // to Vert.x, which would log each one. A broken connection is Vert.x's to handle, as before.
      if (cause instanceof DecoderException) {
        refuse(context, String.valueOf(cause.getMessage()));
      } else {
        context.fireExceptionCaught(cause);
      }
    }

    private void refuse(ChannelHandlerContext context, String why) {
      String peer = host(context.channel().remoteAddress());
      log.refused(LOG, peer, "closing a clustered event-bus connection from " + peer + ": " + why
          + " (a frame no Sluice node sends; further ones from this address are not logged)");
      context.close();
    }
  }

  private static String host(SocketAddress address) {
    return address instanceof InetSocketAddress inet ? inet.getAddress().getHostAddress() : String.valueOf(address);
  }
}
