package io.sluice.verticles.server.xds;

import com.google.protobuf.Any;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.envoyproxy.ratelimit.config.ratelimit.v3.RateLimitConfig;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerServiceDefinition;
import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.netty.shaded.io.netty.handler.ssl.ClientAuth;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContext;
import io.grpc.protobuf.ProtoUtils;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import io.sluice.verticles.rls.XdsRateLimitConfigs;
import io.sluice.verticles.server.kit.TestCertificates;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A small ADS (state of the world) management server on grpc-java, as Envoy Gateway runs one: it
 * keeps one snapshot, sends it on each new subscription and to the open stream on each
 * {@link #push}, and records every request the client sends (subscriptions, ACKs and NACKs). It
 * can be stopped and started again on the same port.
 */
final class AdsServer implements AutoCloseable {

  static final MethodDescriptor<DiscoveryRequest, DiscoveryResponse> STREAM_AGGREGATED_RESOURCES =
      MethodDescriptor.<DiscoveryRequest, DiscoveryResponse>newBuilder()
          .setType(MethodDescriptor.MethodType.BIDI_STREAMING)
          .setFullMethodName(MethodDescriptor.generateFullMethodName(
              "envoy.service.discovery.v3.AggregatedDiscoveryService", "StreamAggregatedResources"))
          .setRequestMarshaller(ProtoUtils.marshaller(DiscoveryRequest.getDefaultInstance()))
          .setResponseMarshaller(ProtoUtils.marshaller(DiscoveryResponse.getDefaultInstance()))
          .build();

  private final BlockingQueue<DiscoveryRequest> requests = new LinkedBlockingQueue<>();
  private final SslContext tls;
  private int port;
  private Server server;
  private DiscoveryResponse snapshot;
  private StreamObserver<DiscoveryResponse> stream;

  /** A server on a free port of 127.0.0.1, h2c, with no snapshot yet. */
  AdsServer() {
    this(null);
  }

  private AdsServer(SslContext tls) {
    this.tls = tls;
    start(0);
  }

  /** A server over TLS with this certificate, which takes only clients with a certificate {@code clientCa} signed. */
  static AdsServer overMutualTls(TestCertificates.Issued certificate, Path clientCa) throws IOException {
    return new AdsServer(GrpcSslContexts.forServer(certificate.certificateFile().toFile(), certificate.keyFile().toFile())
        .trustManager(clientCa.toFile()).clientAuth(ClientAuth.REQUIRE).build());
  }

  int port() {
    return port;
  }

  /** Starts again on the port of before, with the snapshot of before (or the one pushed since). */
  void restart() {
    start(port);
  }

  /** Stops at once, as a management server that goes away: the client's stream fails. */
  void stop() throws InterruptedException {
    server.shutdownNow();
    server.awaitTermination(10, TimeUnit.SECONDS);
    synchronized (this) {
      stream = null;
    }
  }

  /** A new snapshot, sent to the open stream if there is one. */
  synchronized void push(String version, String nonce, List<RateLimitConfig> configs) {
    pushAny(version, nonce, configs.stream().map(Any::pack).toList());
  }

  /** A new snapshot of any resources (of another type, or not what they say they are). */
  synchronized void pushAny(String version, String nonce, List<Any> resources) {
    snapshot = DiscoveryResponse.newBuilder().setVersionInfo(version).setNonce(nonce)
        .setTypeUrl(XdsRateLimitConfigs.TYPE_URL).addAllResources(resources).build();
    if (stream != null) {
      stream.onNext(snapshot);
    }
  }

  /** The next request that answers the response of {@code nonce} (an ACK or a NACK), skipping new subscriptions. */
  DiscoveryRequest answerTo(String nonce) throws InterruptedException {
    DiscoveryRequest request;
    do {
      request = nextRequest();
    } while (!request.getResponseNonce().equals(nonce));
    return request;
  }

  /** The next request the client sent, waiting for it at most 15 s. */
  DiscoveryRequest nextRequest() throws InterruptedException {
    DiscoveryRequest request = requests.poll(15, TimeUnit.SECONDS);
    if (request == null) {
      throw new AssertionError("the client sent no request within 15 s");
    }
    return request;
  }

  private void start(int onPort) {
    ServerServiceDefinition ads = ServerServiceDefinition.builder("envoy.service.discovery.v3.AggregatedDiscoveryService")
        .addMethod(STREAM_AGGREGATED_RESOURCES, ServerCalls.asyncBidiStreamingCall(this::open))
        .build();
    try {
      NettyServerBuilder builder = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", onPort)).addService(ads);
      server = (tls == null ? builder : builder.sslContext(tls)).build().start();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    port = server.getPort();
  }

  private synchronized StreamObserver<DiscoveryRequest> open(StreamObserver<DiscoveryResponse> responses) {
    stream = responses;
    // A stream the client dropped takes no more pushes; with this handler, a push that races the
    // drop is ignored by grpc-java rather than thrown. The snapshot goes to the next subscription.
    ((ServerCallStreamObserver<DiscoveryResponse>) responses).setOnCancelHandler(() -> forget(responses));
    return new StreamObserver<>() {
      @Override
      public void onNext(DiscoveryRequest request) {
        synchronized (AdsServer.this) {
          boolean subscription = request.getResponseNonce().isEmpty();
          if (subscription && snapshot != null && stream == responses) {
            responses.onNext(snapshot);
          }
          // Recorded only once its snapshot is sent or not, under the lock push takes: a test that
          // has seen a subscription and then pushes sends that version once. Recorded before, a push
          // could slip in between and the subscription send it a second time, ACKed twice.
          requests.add(request);
        }
      }

      @Override
      public void onError(Throwable failure) {
        forget(responses);
      }

      @Override
      public void onCompleted() {
        responses.onCompleted();
      }
    };
  }

  private synchronized void forget(StreamObserver<DiscoveryResponse> responses) {
    if (stream == responses) {
      stream = null;
    }
  }

  @Override
  public void close() throws InterruptedException {
    stop();
  }
}
