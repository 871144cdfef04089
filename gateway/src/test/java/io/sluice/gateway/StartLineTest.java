package io.sluice.gateway;

import io.sluice.gateway.config.ConfigLoader;
import io.sluice.gateway.config.Invocation;
import io.sluice.gateway.config.SluiceConfig;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The start line's URLs and the gRPC line say what a client must speak: TLS when it is on (issue 30, 8b). */
class StartLineTest {

  private static SluiceConfig config(String... args) throws Exception {
    return ((Invocation.Run) ConfigLoader.load(List.of(args), Map.of())).config();
  }

  @Test
  void plainTextListenersAreHttpWsAndH2c() throws Exception {
    SluiceConfig config = config("--bind", "127.0.0.1");
    assertThat(StartLine.of(config, 1, 2, 3, "nio"))
        .contains("HTTP on http://127.0.0.1:3 (dashboard http://127.0.0.1:3/, WebSocket ws://127.0.0.1:3/ws,")
        .doesNotContain("https://");
    assertThat(StartLine.grpcTransport(config)).isEqualTo("gRPC, h2c");
  }

  @Test
  void withTlsTheUrlsAreHttpsAndWssAndGrpcIsOverTls() throws Exception {
    SluiceConfig config = config("--bind", "127.0.0.1", "--tls-cert", "server.pem", "--tls-key", "server-key.pem");
    assertThat(StartLine.of(config, 1, 2, 3, "nio"))
        .contains("HTTP on https://127.0.0.1:3 (dashboard https://127.0.0.1:3/, WebSocket wss://127.0.0.1:3/ws,"
            + " check API https://127.0.0.1:3/v1, metrics https://127.0.0.1:3/metrics")
        .doesNotContain("http://", "ws://");
    assertThat(StartLine.grpcTransport(config)).isEqualTo("gRPC over TLS, HTTP/2 by ALPN");
  }
}
