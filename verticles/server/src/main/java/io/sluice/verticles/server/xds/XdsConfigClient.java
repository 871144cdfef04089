package io.sluice.verticles.server.xds;

import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.sluice.verticles.rls.RlsConfigSource;
import io.sluice.verticles.rls.XdsSubscription;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.net.SocketAddress;
import io.vertx.grpc.client.GrpcClient;
import io.vertx.grpc.client.GrpcClientOptions;
import io.vertx.grpc.client.GrpcClientRequest;
import io.vertx.grpc.client.GrpcClientResponse;
import io.vertx.grpc.common.GrpcMessageDecoder;
import io.vertx.grpc.common.GrpcMessageEncoder;
import io.vertx.grpc.common.ServiceMethod;
import io.vertx.grpc.common.ServiceName;

import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The rate limit config from an xDS server, as envoyproxy/ratelimit's {@code CONFIG_TYPE=GRPC_XDS_SOTW}
 * takes it: one ADS stream ({@code StreamAggregatedResources}, state of the world) subscribed to
 * every {@code RateLimitConfig}; each pushed version is put in force whole (counters kept) and
 * ACKed, or NACKed with the reason while the config before it stays. A stream that fails or ends is
 * opened again after a growing wait ({@link ReconnectBackoff}); the config in force stays meanwhile.
 * Everything runs on this verticle's event loop.
 */
public final class XdsConfigClient extends VerticleBase {

  private static final System.Logger LOG = System.getLogger(XdsConfigClient.class.getName());
  static final ServiceMethod<DiscoveryResponse, DiscoveryRequest> STREAM_AGGREGATED_RESOURCES = ServiceMethod.client(
      ServiceName.create("envoy.service.discovery.v3.AggregatedDiscoveryService"), "StreamAggregatedResources",
      GrpcMessageEncoder.encoder(), GrpcMessageDecoder.decoder(DiscoveryResponse.newBuilder()));
  /** gRPC's usual bound on one message (and envoyproxy/ratelimit's): a bigger version fails the stream. */
  static final long MAX_MESSAGE_BYTES = 4L * 1024 * 1024;
  static final int CONNECT_TIMEOUT_MILLIS = 10_000;

  private final XdsSettings settings;
  private final RlsConfigSource config;
  private final XdsSubscription subscription;
  private final ReconnectBackoff backoff;
  private final Promise<Void> firstConfig = Promise.promise();
  /** Counts streams: the callbacks of one that was given up are told apart from the current one's. */
  private int attempt;
  private GrpcClient client;
  private GrpcClientRequest<DiscoveryRequest, DiscoveryResponse> stream;
  private long retryTimer = -1;
  private boolean stopped;
  private volatile String lastFailure = "connecting";

  /** @param config where each accepted version is put in force */
  public XdsConfigClient(XdsSettings settings, RlsConfigSource config) {
    this.settings = settings;
    this.config = config;
    this.subscription = new XdsSubscription(settings.nodeId(), settings.mergeDomains());
    this.backoff = new ReconnectBackoff(settings.initialBackoff(), settings.maxBackoff(),
        () -> ThreadLocalRandom.current().nextDouble());
  }

  /** Completes when the first version is in force (never fails: the client keeps trying). */
  public Future<Void> firstConfig() {
    return firstConfig.future();
  }

  /** Why Sluice cannot answer by a config yet, or empty once a first version is in force. */
  public Optional<String> notReady() {
    if (firstConfig.future().isComplete()) {
      return Optional.empty();
    }
    return Optional.of("no rate limit config from the xDS server " + settings.address() + " yet (" + lastFailure + ")");
  }

  @Override
  public Future<?> start() {
    LOG.log(System.Logger.Level.INFO, "rate limit config from the xDS server " + settings.address() + ", node id '"
        + settings.nodeId() + "'" + (settings.tls().isPresent() ? ", over TLS" : ", h2c"));
    connect();
    return Future.succeededFuture();
  }

  @Override
  public Future<?> stop() {
    stopped = true;
    vertx.cancelTimer(retryTimer);
    return closeClient();
  }

  private void connect() {
    int current = ++attempt;
    HttpClientOptions http = new HttpClientOptions().setProtocolVersion(HttpVersion.HTTP_2)
        .setHttp2ClearTextUpgrade(false).setConnectTimeout(CONNECT_TIMEOUT_MILLIS);
    settings.tls().ifPresent(tls -> tls.configureClient(http));
    client = GrpcClient.client(vertx, new GrpcClientOptions().setMaxMessageSize(MAX_MESSAGE_BYTES), http);
    client.request(SocketAddress.inetSocketAddress(settings.port(), settings.host()), STREAM_AGGREGATED_RESOURCES)
        .onFailure(failure -> lost(current, "cannot connect: " + failure.getMessage()))
        .onSuccess(request -> {
          stream = request;
          request.exceptionHandler(failure -> lost(current, failure.toString()));
          // A reset stream or a closed connection does not always end the response: this sees both.
          request.connection().closeHandler(closed -> lost(current, "the connection closed"));
          request.response()
              .onFailure(failure -> lost(current, failure.toString()))
              .onSuccess(response -> listen(current, response));
          request.write(subscription.subscribe());
        });
  }

  private void listen(int current, GrpcClientResponse<DiscoveryRequest, DiscoveryResponse> response) {
    response.handler(pushed -> {
      if (current == attempt && !stopped) {
        apply(current, pushed);
      }
    });
    response.exceptionHandler(failure -> lost(current, failure.toString()));
    response.errorHandler(error -> lost(current, "the stream was reset: " + error));
    response.invalidMessageHandler(invalid -> lost(current, "a message Sluice cannot take, over "
        + MAX_MESSAGE_BYTES + " bytes or not a DiscoveryResponse (" + invalid.getClass().getSimpleName() + ")"));
    response.endHandler(end -> lost(current, "the server ended the stream: " + response.status()
        + (response.statusMessage() == null ? "" : " " + response.statusMessage())));
  }

  /**
   * Reads a version off the event loop (a config of megabytes takes a while, and the loop serves
   * others), in the order they came; then puts it in force and answers on the loop.
   */
  private void apply(int current, DiscoveryResponse pushed) {
    backoff.reset();
    vertx.executeBlocking(() -> subscription.answer(pushed), true)
        .onFailure(failure -> lost(current, "reading version '" + pushed.getVersionInfo() + "' failed: " + failure))
        .onSuccess(answer -> {
          if (answer.accepted()) {
            inForce(pushed.getVersionInfo(), config.replace(answer.config()));
            firstConfig.tryComplete();
          } else {
            config.loads().failed();
            LOG.log(System.Logger.Level.ERROR, "rate limit config version '" + pushed.getVersionInfo()
                + "' from the xDS server " + settings.address() + " refused (NACK), "
                + (subscription.acceptedVersion().isEmpty() ? "no config yet"
                : "version '" + subscription.acceptedVersion() + "' stays in force") + ": " + answer.refusal());
          }
          if (current == attempt && !stopped) {
            stream.write(answer.reply());
          }
        });
  }

  private void inForce(String version, RlsConfigSource.Reload reload) {
    String line = "rate limit config version '" + version + "' from the xDS server " + settings.address()
        + " in force: " + reload.detail();
    if (reload.dropped().isEmpty()) {
      LOG.log(System.Logger.Level.INFO, line);
    } else {
      LOG.log(System.Logger.Level.WARNING, line + "; without domains " + reload.dropped()
          + ", whose requests now have no limit");
    }
  }

  /** The stream {@code current} failed or ended: once, and only if it is still the current one, retry later. */
  private void lost(int current, String why) {
    if (current != attempt || stopped) {
      return;
    }
    attempt++;
    lastFailure = why;
    long delay = backoff.nextDelayMillis();
    LOG.log(System.Logger.Level.WARNING, "xDS stream to " + settings.address() + " lost: " + why
        + "; reconnecting in " + delay + " ms");
    closeClient();
    retryTimer = vertx.setTimer(delay, id -> connect());
  }

  private Future<Void> closeClient() {
    GrpcClient closing = client;
    client = null;
    stream = null;
    return closing == null ? Future.succeededFuture() : closing.close();
  }
}
