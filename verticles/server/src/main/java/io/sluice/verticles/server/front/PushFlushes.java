package io.sluice.verticles.server.front;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;

import java.util.concurrent.RejectedExecutionException;

/**
 * Gathers the flushes of a connection's channel pushes, and of its replies, into one per
 * event-loop turn.
 *
 * <p>Vert.x flushes every write made outside a read of the connection, and a push is exactly that:
 * a message published elsewhere reaches a thousand subscribers, and each socket would get one
 * write(2) per message. A flush made while {@link #gathering} is on is instead run as a task after
 * those already queued on the loop, so the pushes of every message the loop delivers in this turn
 * leave in one system call. Replies written outside a read (answered by a shard thread or another
 * node) are gathered the same way, so the answers a turn brings to one client leave together; the
 * flush waits only for the tasks already queued on the loop, never for a timer.
 *
 * <p>Writes still happen at once, so the channel's writability (and with it Vert.x's
 * {@code writeQueueFull()}, the slow-consumer limit) counts every pending byte. Used only from the
 * channel's event loop.
 */
public final class PushFlushes extends ChannelOutboundHandlerAdapter {

  private boolean gathering;
  private boolean flushScheduled;
  private ChannelHandlerContext context;

  private PushFlushes() {
  }

  /** Adds the handler first in the pipeline, so it sees every flush. Call on the channel's loop. */
  public static PushFlushes install(Channel channel) {
    PushFlushes handler = new PushFlushes();
    channel.pipeline().addFirst(handler);
    return handler;
  }

  @Override
  public void handlerAdded(ChannelHandlerContext context) {
    this.context = context;
  }

  /** While on, flushes wait for the end of the loop turn. Turn off right after the push's write. */
  public void gathering(boolean on) {
    gathering = on;
  }

  @Override
  public void flush(ChannelHandlerContext context) {
    if (!gathering) {
      context.flush();
    } else if (!flushScheduled) {
      flushScheduled = true;
      try {
        context.channel().eventLoop().execute(this::flushGathered);
      } catch (RejectedExecutionException shuttingDown) {
        flushGathered();
      }
    }
  }

  private void flushGathered() {
    flushScheduled = false;
    context.flush();
  }
}
