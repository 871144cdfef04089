package io.sluice.verticles.transport;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.socket.DatagramChannel;

/**
 * Datagrams in bursts, both ways: the UDP endpoint's I/O, shared with the load tools that measure
 * it (so {@code bench udp-echo} really has Sluice's I/O). It lives in its own module, plain Netty,
 * so that the load tool gets it without depending on the server.
 *
 * <p>Reading: on epoll one {@code recvmmsg} takes up to 32 datagrams, each read whole up to
 * {@link #MAX_DATAGRAM} bytes (longer ones are cut by the kernel). Writing: a datagram is written
 * at once but flushed only after the current turn of the event loop, so every datagram of a turn
 * leaves in one {@code sendmmsg} — where a flush per datagram, as Vert.x's {@code DatagramSocket}
 * does, costs one {@code sendto} each.
 */
public final class BatchedDatagrams {

  /** Read whole up to this size (the UDP protocol reads only the first 1000 bytes). */
  public static final int MAX_DATAGRAM = 2048;
  private static final int RECEIVE_BUFFER = 32 * MAX_DATAGRAM;

  private final ChannelHandlerContext context;
  private final Runnable flush = this::flush;
  private boolean flushScheduled;

  /** @param context a handler's context on the channel; use it on the channel's event loop only */
  public BatchedDatagrams(ChannelHandlerContext context) {
    this.context = context;
  }

  /** Sets the channel up to read in bursts; call before it is registered. */
  public static void configure(DatagramChannel channel) {
    if (channel instanceof EpollDatagramChannel epoll) {
      epoll.config().setMaxDatagramPayloadSize(MAX_DATAGRAM);
    }
    channel.config().setRecvByteBufAllocator(new FixedRecvByteBufAllocator(RECEIVE_BUFFER));
  }

  /** Writes a datagram (or a message a connected channel sends as one); it leaves after this turn. */
  public void write(Object datagram) {
    context.write(datagram, context.voidPromise());
    if (!flushScheduled) {
      flushScheduled = true;
      context.channel().eventLoop().execute(flush);
    }
  }

  private void flush() {
    flushScheduled = false;
    context.flush();
  }
}
