package io.sluice.verticles.benchmarks.load;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.DatagramPacket;
import io.netty.channel.socket.nio.NioDatagramChannel;

import io.sluice.verticles.transport.BatchedDatagrams;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * {@code java -jar sluice.jar bench udp-echo}: the floor under the UDP figures. A server that does
 * no work — each {@code <id> over_limit …} gets {@code <id> ok N 0.0 22.0 20} at once — with the
 * same I/O as Sluice's UDP endpoint: one event loop and {@link BatchedDatagrams}. What {@code bench udp} measures against it is what this machine's kernel and the
 * load tool allow; the difference to Sluice is Sluice's own work.
 */
final class UdpEchoServer {

  static final String HELP = String.join("\n",
      "Usage: java -jar sluice.jar bench udp-echo [options]",
      "A do-nothing UDP server answering every '<id> over_limit ...' with '<id> ok N 0.0 22.0 20',",
      "with Sluice's UDP I/O: the baseline for 'bench udp'. Runs until stopped.",
      "  --host HOST          bind address (127.0.0.1)",
      "  --port PORT          UDP port (9001)");

  private static final byte[] REPLY = " ok N 0.0 22.0 20".getBytes(StandardCharsets.US_ASCII);

  private UdpEchoServer() {
  }

  static int run(List<String> args) throws InterruptedException {
    Map<String, String> options = Arguments.parse(args, List.of("host", "port"));
    if (options == null) {
      System.out.println(HELP);
      return 0;
    }
    String host = options.getOrDefault("host", "127.0.0.1");
    int port = Arguments.positive(options, "port", 9001);
    boolean epoll = Epoll.isAvailable();
    EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory());
    try {
      Bootstrap bootstrap = new Bootstrap().group(group)
          .channel(epoll ? EpollDatagramChannel.class : NioDatagramChannel.class)
          .handler(new Echo());
      Channel channel = bootstrap.bind(host, port).sync().channel();
      System.out.printf("UDP echo baseline on %s:%d (%s)%n", host, port, epoll ? "epoll" : "NIO");
      channel.closeFuture().sync();
      return 0;
    } finally {
      group.shutdownGracefully();
    }
  }

  private static final class Echo extends SimpleChannelInboundHandler<DatagramPacket> {
    private BatchedDatagrams out;

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
      BatchedDatagrams.configure((DatagramChannel) ctx.channel());
      out = new BatchedDatagrams(ctx);
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, DatagramPacket request) {
      ByteBuf in = request.content();
      int space = in.indexOf(in.readerIndex(), in.writerIndex(), (byte) ' ');
      if (space <= in.readerIndex()) {
        return;
      }
      ByteBuf reply = ctx.alloc().ioBuffer(space - in.readerIndex() + REPLY.length)
          .writeBytes(in, in.readerIndex(), space - in.readerIndex()).writeBytes(REPLY);
      out.write(new DatagramPacket(reply, request.sender()));
    }
  }
}
