package io.sluice.protocol.binary.client.impl;

import io.netty.buffer.ByteBufUtil;
import io.sluice.protocol.binary.client.ThrottrClient;
import io.sluice.protocol.binary.client.ThrottrClientOptions;
import io.sluice.protocol.binary.codec.Request;
import io.sluice.protocol.binary.codec.TtlUnit;
import io.sluice.protocol.binary.codec.response.Response;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetSocket;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How many socket writes a batch takes. The server cannot tell: Vert.x flushes once per event-loop
 * turn and TCP may merge segments, so several writes look like one on the wire. The count is taken
 * on the client's side of the socket instead.
 */
@ExtendWith(VertxExtension.class)
class ThrottrClientImplBatchWriteTest {

  private static final int BATCH_BYTES = 10 + 5 + 5;

  @Test
  void aBatchIsOneSocketWrite(Vertx vertx, VertxTestContext test) {
    List<Buffer> writes = new CopyOnWriteArrayList<>();
    NetServer server = vertx.createNetServer().connectHandler(socket -> {
      Buffer received = Buffer.buffer();
      socket.handler(data -> {
        received.appendBuffer(data);
        if (received.length() == BATCH_BYTES) {
          socket.write(Buffer.buffer(ByteBufUtil.decodeHexDump("01010a00043b0001")));
        }
      });
    });
    NetClient netClient = vertx.createNetClient();
    server.listen(0, "127.0.0.1")
        .compose(listening -> netClient.connect(listening.actualPort(), "127.0.0.1"))
        .map(socket -> (ThrottrClient) new ThrottrClientImpl((ContextInternal) vertx.getOrCreateContext(), netClient,
            recordingWrites(socket, writes), new ThrottrClientOptions()))
        .compose(client -> client.batch(List.of(
            new Request.Insert(10, TtlUnit.SECONDS.code(), 60, ascii("abc")),
            new Request.Query(ascii("abc")),
            new Request.Purge(ascii("abc")))))
        .onComplete(test.succeeding(replies -> test.verify(() -> {
          assertThat(replies).extracting(Response::raw)
              .containsExactly(new byte[] {1}, ByteBufUtil.decodeHexDump("010a00043b00"), new byte[] {1});
          assertThat(writes).extracting(Buffer::length).containsExactly(BATCH_BYTES);
          test.completeNow();
        })));
  }

  /** The same socket, except that every {@code write(Buffer)} is also recorded. */
  private static NetSocket recordingWrites(NetSocket socket, List<Buffer> writes) {
    return (NetSocket) Proxy.newProxyInstance(NetSocket.class.getClassLoader(), new Class<?>[] {NetSocket.class},
        (proxy, method, args) -> {
          if (method.getName().equals("write") && args.length == 1 && args[0] instanceof Buffer written) {
            writes.add(written);
          }
          try {
            return method.invoke(socket, args);
          } catch (InvocationTargetException thrown) {
            throw thrown.getCause();
          }
        });
  }

  private static byte[] ascii(String text) {
    return text.getBytes(StandardCharsets.US_ASCII);
  }
}
