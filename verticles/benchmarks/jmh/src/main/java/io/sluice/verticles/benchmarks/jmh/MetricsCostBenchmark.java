package io.sluice.verticles.benchmarks.jmh;

import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.sluice.verticles.server.metrics.LimitActivity;
import io.sluice.verticles.server.metrics.RequestDurations;
import io.sluice.verticles.server.metrics.SluiceMetrics;
import io.sluice.verticles.server.metrics.VertxMeters;
import io.sluice.verticles.strategies.Decision;
import io.sluice.verticles.strategies.Result;
import io.vertx.core.MultiMap;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.SocketAddress;
import io.vertx.core.spi.metrics.HttpServerMetrics;
import io.vertx.core.spi.metrics.VertxMetrics;
import io.vertx.core.spi.observability.HttpRequest;
import io.vertx.core.spi.observability.HttpResponse;
import io.vertx.micrometer.MicrometerMetricsFactory;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * What issue 19's measurements add to the hot paths, per observation: timing one Throttr read or
 * one UDP datagram into {@code sluice_request_duration_seconds} (two monotonic clock reads and one
 * histogram record), counting one check decision for the Limits view, and one HTTP request's
 * {@code vertx_http_server_*} series, as vertx-micrometer-metrics keeps them and as Sluice's
 * {@code HttpServerMeters} does, both through Vert.x's metrics SPI with Sluice's registry and
 * options. Compare with the work they ride on: a read of 64 pipelined requests, a UDP datagram, an
 * HTTP check (docs/benchmarks.md).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class MetricsCostBenchmark {

  private Timer timer;
  private Clock stopwatch;
  private LimitActivity.PolicyActivity policy;
  private Decision allowed;
  private Decision denied;
  private long now;
  private HttpServerMetrics<Object, Object, Object> vertxSeries;
  private Object vertxSocket;
  private HttpServerMetrics<Object, Object, Object> sluiceSeries;
  private Object sluiceSocket;
  private final HttpRequest request = new CheckRequest();
  private final HttpResponse response = new CheckResponse();

  @Setup
  public void setUp() {
    RequestDurations durations = new RequestDurations(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
    timer = durations.of("tcp");
    stopwatch = durations.stopwatch();
    policy = new LimitActivity().policy("p");
    allowed = Decision.of(new Result("default", true, 100, 50, 0, 0));
    denied = Decision.of(new Result("default", false, 100, 0, 0, 1));
    VertxOptions options = new VertxOptions().setMetricsOptions(SluiceMetrics.vertxOptions());
    vertxSeries = httpSeries(new MicrometerMetricsFactory(SluiceMetrics.newRegistry()).metrics(options));
    vertxSocket = vertxSeries.connected(request.remoteAddress(), "127.0.0.1");
    sluiceSeries = httpSeries(new VertxMeters(SluiceMetrics.newRegistry()).metrics(options));
    sluiceSocket = sluiceSeries.connected(request.remoteAddress(), "127.0.0.1");
  }

  @SuppressWarnings("unchecked")
  private static HttpServerMetrics<Object, Object, Object> httpSeries(VertxMetrics metrics) {
    return (HttpServerMetrics<Object, Object, Object>) metrics.createHttpServerMetrics(new HttpServerOptions(),
        SocketAddress.inetSocketAddress(8080, "127.0.0.1"));
  }

  /** One read (or datagram) timed from arrival to reply, as FrontConnection and DatagramReplies do. */
  @Benchmark
  public long timeOneRead() {
    long start = stopwatch.monotonicTime();
    timer.record(stopwatch.monotonicTime() - start, TimeUnit.NANOSECONDS);
    return start;
  }

  /** One allowed check (below the near-limit mark) counted for the Limits view. */
  @Benchmark
  public boolean countAllowedCheck() {
    return policy.decided("alice", allowed, now++);
  }

  /** One denied check counted, with its key among the most denied. */
  @Benchmark
  public boolean countDeniedCheck() {
    return policy.decided("bob", denied, now++);
  }

  /** One POST /v1/check answered 429, in vertx-micrometer-metrics' HTTP server series. */
  @Benchmark
  public Object vertxHttpServerSeries() {
    return oneRequest(vertxSeries, vertxSocket);
  }

  /** The same request in the same series, kept by Sluice's HttpServerMeters. */
  @Benchmark
  public Object sluiceHttpServerSeries() {
    return oneRequest(sluiceSeries, sluiceSocket);
  }

  /** What Vert.x's HTTP/1 server reports of one request, in its order. */
  private Object oneRequest(HttpServerMetrics<Object, Object, Object> series, Object socket) {
    Object exchange = series.requestBegin(socket, request);
    series.bytesRead(socket, request.remoteAddress(), 120);
    series.requestEnd(exchange, request, 44);
    series.responseBegin(exchange, response);
    series.responseEnd(exchange, response, 180);
    series.bytesWritten(socket, request.remoteAddress(), 180);
    return exchange;
  }

  private static final class CheckRequest implements HttpRequest {
    private final MultiMap headers = MultiMap.caseInsensitiveMultiMap().add("Content-Type", "application/json");
    private final SocketAddress remote = SocketAddress.inetSocketAddress(50_000, "127.0.0.1");

    @Override
    public int id() {
      return 1;
    }

    @Override
    public String uri() {
      return "/v1/check";
    }

    @Override
    public String absoluteURI() {
      return "http://127.0.0.1:8080/v1/check";
    }

    @Override
    public HttpMethod method() {
      return HttpMethod.POST;
    }

    @Override
    public MultiMap headers() {
      return headers;
    }

    @Override
    public SocketAddress remoteAddress() {
      return remote;
    }
  }

  private static final class CheckResponse implements HttpResponse {
    private final MultiMap headers = MultiMap.caseInsensitiveMultiMap().add("Content-Type", "application/json");

    @Override
    public int statusCode() {
      return 429;
    }

    @Override
    public MultiMap headers() {
      return headers;
    }
  }
}
