package io.sluice.verticles.server.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.VertxOptions;
import io.vertx.core.datagram.DatagramSocketOptions;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.core.metrics.MetricsOptions;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.NetServerOptions;
import io.vertx.core.net.SocketAddress;
import io.vertx.core.spi.VertxMetricsFactory;
import io.vertx.core.spi.metrics.ClientMetrics;
import io.vertx.core.spi.metrics.DatagramSocketMetrics;
import io.vertx.core.spi.metrics.EventBusMetrics;
import io.vertx.core.spi.metrics.HttpClientMetrics;
import io.vertx.core.spi.metrics.HttpServerMetrics;
import io.vertx.core.spi.metrics.PoolMetrics;
import io.vertx.core.spi.metrics.TCPMetrics;
import io.vertx.core.spi.metrics.VertxMetrics;
import io.vertx.micrometer.MicrometerMetricsFactory;

/**
 * Vert.x's metrics into {@code registry}: vertx-micrometer-metrics' for everything but the HTTP
 * server, whose per-request series {@link HttpServerMeters} keeps at a fraction of the cost. Give it
 * to {@code Vertx.builder().withMetrics(…)} with {@link SluiceMetrics#vertxOptions()}.
 */
public final class VertxMeters implements VertxMetricsFactory {

  private final MeterRegistry registry;
  private final MicrometerMetricsFactory others;

  public VertxMeters(MeterRegistry registry) {
    this.registry = registry;
    this.others = new MicrometerMetricsFactory(registry);
  }

  @Override
  public VertxMetrics metrics(VertxOptions options) {
    return new Metrics(others.metrics(options), new HttpServerMeters(registry));
  }

  @Override
  public MetricsOptions newOptions() {
    return others.newOptions();
  }

  @Override
  public MetricsOptions newOptions(MetricsOptions options) {
    return others.newOptions(options);
  }

  @Override
  public MetricsOptions newOptions(JsonObject json) {
    return others.newOptions(json);
  }

  /** vertx-micrometer-metrics' metrics, but for the HTTP server's. */
  private record Metrics(VertxMetrics others, HttpServerMeters httpServer) implements VertxMetrics {

    @Override
    public HttpServerMetrics<?, ?, ?> createHttpServerMetrics(HttpServerOptions options, SocketAddress localAddress) {
      return httpServer;
    }

    @Override
    public EventBusMetrics<?> createEventBusMetrics() {
      return others.createEventBusMetrics();
    }

    @Override
    public ClientMetrics<?, ?, ?> createClientMetrics(SocketAddress remoteAddress, String type, String namespace) {
      return others.createClientMetrics(remoteAddress, type, namespace);
    }

    @Override
    public HttpClientMetrics<?, ?, ?> createHttpClientMetrics(HttpClientOptions options) {
      return others.createHttpClientMetrics(options);
    }

    @Override
    public TCPMetrics<?> createNetServerMetrics(NetServerOptions options, SocketAddress localAddress) {
      return others.createNetServerMetrics(options, localAddress);
    }

    @Override
    public TCPMetrics<?> createNetClientMetrics(NetClientOptions options) {
      return others.createNetClientMetrics(options);
    }

    @Override
    public DatagramSocketMetrics createDatagramSocketMetrics(DatagramSocketOptions options) {
      return others.createDatagramSocketMetrics(options);
    }

    @Override
    public PoolMetrics<?, ?> createPoolMetrics(String poolType, String poolName, int maxPoolSize) {
      return others.createPoolMetrics(poolType, poolName, maxPoolSize);
    }

    @Override
    public void vertxCreated(io.vertx.core.Vertx vertx) {
      others.vertxCreated(vertx);
    }

    @Override
    public boolean isMetricsEnabled() {
      return others.isMetricsEnabled();
    }

    @Override
    public void close() {
      others.close();
    }
  }
}
