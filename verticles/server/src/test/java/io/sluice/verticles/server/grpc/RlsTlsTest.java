package io.sluice.verticles.server.grpc;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.sluice.verticles.rls.RlsConfigSource;
import io.sluice.verticles.server.settings.Defences;
import io.sluice.verticles.server.kit.SluiceUnderTest;
import io.sluice.verticles.server.kit.TestCertificates;
import io.sluice.verticles.server.tls.TlsEngine;
import io.sluice.verticles.server.tls.TlsSettings;
import io.vertx.core.Vertx;

import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** With --tls-cert and --tls-key, Envoy's rate limit service speaks gRPC over TLS like the other listeners. */
class RlsTlsTest {

  @TempDir
  Path folder;

  private final Vertx vertx = Vertx.vertx();
  private SluiceUnderTest sut;
  private ManagedChannel channel;

  @AfterEach
  void stop() throws Exception {
    if (channel != null) {
      channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
    }
    if (sut != null) {
      sut.close();
    }
    await(vertx.close());
  }

  @Test
  void shouldRateLimitIsServedOverTlsAndPlainTextIsNot() throws Exception {
    TestCertificates certificates = new TestCertificates(folder, "sluice");
    TestCertificates.Issued server = certificates.server("server");
    sut = new SluiceUnderTest(vertx, SluiceUnderTest.defaults()
        .withRls(new RlsSettings("127.0.0.1", 0, RlsConfigSource.none(), false))
        .withDefences(Defences.defaults().withTls(new TlsSettings(server.certificateFile(), server.keyFile(),
            Optional.empty(), TlsEngine.JDK))));

    channel = NettyChannelBuilder.forAddress("localhost", sut.grpcPort())
        .sslContext(GrpcSslContexts.forClient().trustManager(certificates.caFile().toFile()).build())
        .build();
    RateLimitResponse answer = RlsFixture.call(channel, RlsFixture.request("any", RlsFixture.descriptor("k", "v")));
    assertThat(answer.getOverallCode()).isEqualTo(RateLimitResponse.Code.OK);

    ManagedChannel plain = RlsFixture.channel(sut.grpcPort());
    try {
      assertThatThrownBy(() -> RlsFixture.call(plain, RlsFixture.request("any", RlsFixture.descriptor("k", "v"))))
          .isInstanceOf(StatusRuntimeException.class);
    } finally {
      plain.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
    }
  }
}
