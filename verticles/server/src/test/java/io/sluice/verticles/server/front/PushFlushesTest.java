package io.sluice.verticles.server.front;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.local.LocalAddress;
import io.netty.channel.local.LocalChannel;
import io.netty.channel.local.LocalIoHandler;
import io.netty.channel.local.LocalServerChannel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Gathered flushes on a real event loop and an in-JVM channel pair: each {@link #onLoop} call is one
 * task, i.e. one loop turn, and the gathered flush is the task right after it. (EmbeddedChannel
 * cannot show this: it runs pending tasks after every write.)
 */
class PushFlushesTest {

  private final EventLoopGroup loop = new MultiThreadIoEventLoopGroup(1, LocalIoHandler.newFactory());
  private final BlockingQueue<Byte> received = new LinkedBlockingQueue<>();
  private Channel channel;
  private PushFlushes pushes;

  @BeforeEach
  void connect() throws Exception {
    LocalAddress address = new LocalAddress(PushFlushesTest.class);
    new ServerBootstrap().group(loop).channel(LocalServerChannel.class)
        .childHandler(new ChannelInboundHandlerAdapter() {
          @Override
          public void channelRead(ChannelHandlerContext context, Object message) {
            ByteBuf bytes = (ByteBuf) message;
            while (bytes.isReadable()) {
              received.add(bytes.readByte());
            }
            bytes.release();
          }
        })
        .bind(address).sync();
    channel = new Bootstrap().group(loop).channel(LocalChannel.class)
        .handler(new ChannelInboundHandlerAdapter()).connect(address).sync().channel();
    pushes = onLoop(() -> PushFlushes.install(channel));
  }

  @AfterEach
  void close() throws Exception {
    loop.shutdownGracefully(0, 0, TimeUnit.SECONDS).sync();
  }

  @Test
  void pushesOfOneTurnLeaveTogetherAfterIt() throws Exception {
    long pendingDuringTheTurn = onLoop(() -> {
      for (byte i = 0; i < 3; i++) {
        push(new byte[] {i});
      }
      return pending();
    });
    assertThat(pendingDuringTheTurn).as("written, not flushed, during the turn").isPositive();

    assertThat(onLoop(this::pending)).as("flushed by the task after the turn").isZero();
    assertReceived(0, 1, 2);
  }

  /** A write made while not gathering (within a read, or a close's) flushes at once. */
  @Test
  void anUngatheredFlushGoesAtOnceWithThePushesBeforeIt() throws Exception {
    long pendingAfterTheReply = onLoop(() -> {
      push(new byte[] {1});
      channel.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {2}));
      return pending();
    });

    assertThat(pendingAfterTheReply).isZero();
    assertReceived(1, 2);
  }

  /** The slow-consumer limit reads the channel's writability: unflushed pushes must count. */
  @Test
  void unflushedPushesCountTowardsTheOutboundLimit() throws Exception {
    channel.config().setWriteBufferWaterMark(new WriteBufferWaterMark(5_000, 10_000));

    boolean[] writable = onLoop(() -> {
      push(new byte[6_000]);
      boolean afterOne = channel.isWritable();
      push(new byte[6_000]);
      return new boolean[] {afterOne, channel.isWritable()};
    });

    assertThat(writable).containsExactly(true, false);
    assertThat(onLoop(channel::isWritable)).as("writable again once flushed").isTrue();
  }

  private void push(byte[] bytes) {
    pushes.gathering(true);
    channel.writeAndFlush(Unpooled.wrappedBuffer(bytes));
    pushes.gathering(false);
  }

  private long pending() {
    return channel.unsafe().outboundBuffer().totalPendingWriteBytes();
  }

  private <T> T onLoop(Callable<T> task) throws Exception {
    return channel.eventLoop().submit(task).get(10, TimeUnit.SECONDS);
  }

  private void assertReceived(int... bytes) throws InterruptedException {
    for (int expected : bytes) {
      assertThat(received.poll(10, TimeUnit.SECONDS)).isEqualTo((byte) expected);
    }
  }
}
