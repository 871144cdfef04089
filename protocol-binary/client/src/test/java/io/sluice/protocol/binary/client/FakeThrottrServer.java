package io.sluice.protocol.binary.client;

import io.sluice.protocol.binary.codec.DecodeError;
import io.sluice.protocol.binary.codec.Request;
import io.sluice.protocol.binary.codec.RequestDecoder;
import io.sluice.protocol.binary.codec.ValueSize;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.internal.buffer.BufferInternal;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetSocket;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A scripted stand-in for a Throttr server: it decodes requests with the codec and lets the test
 * decide, request by request, which canned bytes to answer (or to answer nothing, or to close).
 */
final class FakeThrottrServer {

  /** Decides what the server does with each request. */
  interface Script {
    void onRequest(Request request, Peer peer);
  }

  /** One accepted connection, seen from the server side. */
  static final class Peer {
    private final NetSocket socket;
    /** Requests in arrival order. */
    final List<Request> requests = new CopyOnWriteArrayList<>();
    /** The size of every chunk the server read, to see how the client wrote. */
    final List<Integer> readSizes = new CopyOnWriteArrayList<>();

    private Peer(NetSocket socket) {
      this.socket = socket;
    }

    /** Writes all parts as one message. */
    void reply(byte[]... parts) {
      Buffer message = Buffer.buffer();
      for (byte[] part : parts) {
        message.appendBytes(part);
      }
      socket.write(message);
    }

    void close() {
      socket.close();
    }
  }

  final List<Peer> peers = new CopyOnWriteArrayList<>();
  private final NetServer server;

  private FakeThrottrServer(NetServer server) {
    this.server = server;
  }

  static Future<FakeThrottrServer> start(Vertx vertx, Script script) {
    NetServer server = vertx.createNetServer();
    FakeThrottrServer fake = new FakeThrottrServer(server);
    server.connectHandler(socket -> {
      Peer peer = new Peer(socket);
      fake.peers.add(peer);
      RequestDecoder decoder = new RequestDecoder(ValueSize.UINT16, 8096, new RequestDecoder.Handler() {
        @Override
        public boolean onRequest(Request request, int frameLength) {
          peer.requests.add(request);
          script.onRequest(request, peer);
          return true;
        }

        @Override
        public void onError(DecodeError error) {
          socket.close();
        }
      });
      socket.handler(data -> {
        peer.readSizes.add(data.length());
        decoder.feed(((BufferInternal) data).getByteBuf());
      });
    });
    return server.listen(0, "127.0.0.1").map(listening -> fake);
  }

  ThrottrClientOptions clientOptions() {
    return new ThrottrClientOptions().setHost("127.0.0.1").setPort(server.actualPort());
  }
}
