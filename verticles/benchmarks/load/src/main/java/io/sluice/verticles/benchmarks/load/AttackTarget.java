package io.sluice.verticles.benchmarks.load;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.sluice.protocol.binary.codec.Request;
import io.sluice.protocol.binary.codec.RequestEncoder;
import io.sluice.protocol.binary.codec.ValueSize;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;

/** The server under attack: its address, its three ports and the Throttr wire's value size. */
record AttackTarget(String host, int tcpPort, int httpPort, int udpPort, ValueSize valueSize) {

  /** Bound on every blocking read of an attack or a probe: a server that does not answer fails the run. */
  static final int READ_TIMEOUT_MILLIS = 30_000;

  Socket throttr() throws IOException {
    return connect(tcpPort);
  }

  Socket http() throws IOException {
    return connect(httpPort);
  }

  private Socket connect(int port) throws IOException {
    Socket socket = new Socket();
    socket.connect(new InetSocketAddress(host, port), READ_TIMEOUT_MILLIS);
    socket.setSoTimeout(READ_TIMEOUT_MILLIS);
    return socket;
  }

  /** {@code request} in wire form for this server's value size. */
  byte[] frame(Request request) {
    ByteBuf out = Unpooled.buffer();
    RequestEncoder.encode(out, valueSize, request);
    return ByteBufUtil.getBytes(out);
  }
}
