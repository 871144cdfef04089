package io.sluice.gateway;

import io.sluice.gateway.config.ConfigLoader;
import io.sluice.gateway.config.Invocation;
import io.sluice.gateway.config.SluiceConfig;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The process as `java -jar sluice.jar` runs it: configuration in, a Throttr server on a real socket out. */
class GatewayTest {

  private final Vertx client = Vertx.vertx();
  private Gateway gateway;

  @AfterEach
  void stop() throws Exception {
    if (gateway != null) {
      gateway.stop();
    }
    client.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  @Test
  void startsFromFlagsAndEnvironmentAndServesThrottr() throws Exception {
    Invocation invocation = ConfigLoader.load(List.of("--tcp-port", "0", "--http-port", "0", "--value-size", "uint8"),
        Map.of("SLUICE_SHARDS", "3"));
    SluiceConfig config = ((Invocation.Run) invocation).config();
    gateway = Gateway.start(config);
    assertThat(gateway.server().instance().shards()).isEqualTo(3);

    NetClient netClient = client.createNetClient();
    NetSocket socket = netClient.connect(gateway.server().tcpPort(), "127.0.0.1")
        .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    Promise<Buffer> replies = Promise.promise();
    Buffer received = Buffer.buffer();
    socket.handler(data -> {
      received.appendBuffer(data);
      if (received.length() >= 5) {
        replies.tryComplete(received);
      }
    });
    // uint8 INSERT "abc" quota 10, 60 s; QUERY "abc".
    socket.write(Buffer.buffer(new byte[] {0x01, 0x0a, 0x04, 0x3c, 0x03, 'a', 'b', 'c', 0x02, 0x03, 'a', 'b', 'c'}));
    Buffer bytes = replies.future().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    assertThat(bytes.getBytes()).containsExactly(0x01, 0x01, 0x0a, 0x04, 0x3b);
    netClient.close();
  }

  @Test
  void helpListsEveryOptionWithoutStartingAnything() throws Exception {
    Invocation invocation = ConfigLoader.load(List.of("--help"), Map.of());
    assertThat(invocation).isInstanceOf(Invocation.ShowHelp.class);
    assertThat(((Invocation.ShowHelp) invocation).text()).contains("--tcp-port", "--value-size", "--shards",
        "--max-frame", "--config", "SLUICE_TCP_PORT");
  }
}
