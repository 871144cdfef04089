package io.sluice.verticles.server.udp;

import io.vertx.core.internal.ContextInternal;
import io.micrometer.core.instrument.Timer;
import io.sluice.verticles.server.metrics.RequestDurations;
import java.util.concurrent.TimeUnit;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.DatagramPacket;
import io.sluice.verticles.engine.instance.UdpPeers;
import io.sluice.verticles.engine.time.Clock;
import io.sluice.verticles.engine.udprate.UdpEngine;
import io.sluice.verticles.transport.BatchedDatagrams;

import java.net.InetSocketAddress;

/**
 * The UDP endpoint's Netty handler: each datagram to the engine, each reply back to its sender.
 *
 * <p>Why Netty and not Vert.x's {@code DatagramSocket}: that API flushes every {@code send}, one
 * {@code sendto} system call per reply, which was 45% of the endpoint's CPU. Here replies go out
 * through {@link BatchedDatagrams}: one {@code sendmmsg} per turn of the event loop.
 *
 * <p>A reply that finds the socket's outbound buffer full (the kernel is not draining it) is
 * dropped and counted rather than queued without limit: UDP may lose any datagram, and a client
 * without a reply treats the request as allowed, as with the original server.
 */
final class DatagramReplies extends ChannelInboundHandlerAdapter {

  /** What the handler reports, for metrics and the log. */
  interface Observer {
    void replyDropped();

    void failed(Throwable cause);
  }

  private final ContextInternal loop;
  private final UdpEngine engine;
  private final UdpPeers peers;
  private final Clock clock;
  private final Observer observer;
  /** Datagrams per timed one (a power of two): the first, then every eighth. */
  static final int SAMPLE_EVERY = 8;
  private static final long NOT_TIMED = Long.MIN_VALUE;
  private final Timer duration;
  private long received;
  private final io.micrometer.core.instrument.Clock stopwatch;
  private ChannelHandlerContext ctx;
  private BatchedDatagrams out;

  /** @param loop the UDP verticle's context, whose event loop the channel is registered on */
  DatagramReplies(ContextInternal loop, UdpEngine engine, UdpPeers peers, Clock clock, RequestDurations durations,
                  Observer observer) {
    this.loop = loop;
    this.duration = durations.of("udp");
    this.stopwatch = durations.stopwatch();
    this.engine = engine;
    this.peers = peers;
    this.clock = clock;
    this.observer = observer;
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    this.ctx = ctx;
    this.out = new BatchedDatagrams(ctx);
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    // One datagram in SAMPLE_EVERY is timed: a histogram record costs a few hundred nanoseconds,
    // too much to pay on every datagram of a path that serves one in a few microseconds.
    long arrived = (received++ & (SAMPLE_EVERY - 1)) == 0 ? stopwatch.monotonicTime() : NOT_TIMED;
    DatagramPacket packet = (DatagramPacket) msg;
    byte[] datagram;
    InetSocketAddress sender = packet.sender();
    try {
      datagram = ByteBufUtil.getBytes(packet.content());
    } finally {
      packet.release();
    }
    String ip = sender.getAddress().getHostAddress();
    peers.received(ip, sender.getPort(), datagram.length, clock.epochNanos());
    // Netty calls this outside Vert.x's dispatch: the engine and the shards it reaches on this
    // thread (a cluster's replication, its routing timers) find their context as on other fronts.
    ContextInternal outside = loop.beginDispatch();
    try {
      // Completes now when the key's shard is on this loop, else on this loop when the shard answers.
      engine.handleAsync(datagram).thenAccept(reply -> reply.ifPresent(text -> {
        send(UdpEngine.replyBytes(text), sender, ip);
        if (arrived != NOT_TIMED) {
          duration.record(stopwatch.monotonicTime() - arrived, TimeUnit.NANOSECONDS);
        }
      }));
    } finally {
      loop.endDispatch(outside);
    }
  }

  private void send(byte[] reply, InetSocketAddress recipient, String ip) {
    if (!ctx.channel().isWritable()) {
      observer.replyDropped();
      return;
    }
    peers.replied(ip, recipient.getPort(), reply.length);
    out.write(new DatagramPacket(ctx.alloc().ioBuffer(reply.length).writeBytes(reply), recipient));
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    // A failed send or receive concerns one datagram; the socket stays open for the others.
    observer.failed(cause);
  }
}
