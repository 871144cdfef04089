package io.sluice.verticles.server.metrics;

import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.net.SocketAddress;
import io.vertx.core.spi.metrics.HttpServerMetrics;
import io.vertx.core.spi.observability.HttpRequest;
import io.vertx.core.spi.observability.HttpResponse;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.IntFunction;

/**
 * Vert.x's HTTP server series, the same names, tags and descriptions as vertx-micrometer-metrics
 * gives them with {@link SluiceMetrics#vertxOptions()}'s labels, kept with every meter resolved
 * once per method and status code. Vert.x's own implementation builds the tags and looks each meter
 * up in the registry (through its filters) several times per request, and registers an in-flight
 * gauge per request that a filter then denies: about a tenth of the HTTP check API's CPU. Here a
 * request costs one small object and array reads.
 *
 * <ul>
 * <li>{@code vertx_http_server_requests_total{code,method}}, {@code vertx_http_server_response_time_seconds{code,method}}
 *     (histogram, buckets from 1 ms to 2.5 s), {@code vertx_http_server_response_bytes{code,method}};
 * <li>{@code vertx_http_server_request_bytes{method}}, {@code vertx_http_server_request_resets_total{method}};
 * <li>{@code vertx_http_server_bytes_read_total}, {@code vertx_http_server_bytes_written_total},
 *     {@code vertx_http_server_errors_total}.
 * </ul>
 *
 * A client may send any token as a method: {@code method} is one of the nine standard methods or
 * {@code OTHER}, so the series stay a fixed set. In-flight gauges are left out, as before.
 * Called from every event loop at once.
 */
final class HttpServerMeters implements HttpServerMetrics<HttpServerMeters.Exchange, Void, Void> {

  private static final List<HttpMethod> METHODS = List.of(HttpMethod.GET, HttpMethod.HEAD, HttpMethod.POST,
      HttpMethod.PUT, HttpMethod.DELETE, HttpMethod.PATCH, HttpMethod.OPTIONS, HttpMethod.TRACE, HttpMethod.CONNECT);
  private static final int OTHER = METHODS.size();
  /** A HashMap: its lookup tries identity first, which Vert.x's own method constants pass. */
  private static final Map<HttpMethod, Integer> METHOD_INDEX = new HashMap<>();

  static {
    for (int i = 0; i < METHODS.size(); i++) {
      METHOD_INDEX.put(METHODS.get(i), i);
    }
  }
  private static final String PREFIX = "vertx.http.server.";
  /** Status codes below this are cached; the rest (none Sluice sends) are looked up each time. */
  private static final int CODES = 600;
  private static final Duration[] RESPONSE_TIME_BUCKETS = {Duration.ofMillis(1), Duration.ofNanos(2_500_000),
      Duration.ofMillis(5), Duration.ofMillis(10), Duration.ofMillis(25), Duration.ofMillis(50),
      Duration.ofMillis(100), Duration.ofMillis(250), Duration.ofMillis(500), Duration.ofSeconds(1),
      Duration.ofMillis(2_500)};

  private final MeterRegistry registry;
  private final Clock stopwatch;
  private final Counter bytesRead;
  private final Counter bytesWritten;
  private final Counter errors;
  private final Resolved<DistributionSummary> requestBytes;
  private final Resolved<Counter> resets;
  private final Resolved<ResponseSeries> responses;

  HttpServerMeters(MeterRegistry registry) {
    this.registry = registry;
    this.stopwatch = registry.config().clock();
    this.bytesRead = Counter.builder(PREFIX + "bytes.read").description("Number of bytes received by the server")
        .register(registry);
    this.bytesWritten = Counter.builder(PREFIX + "bytes.written").description("Number of bytes sent by the server")
        .register(registry);
    this.errors = Counter.builder(PREFIX + "errors").description("Number of errors").register(registry);
    this.requestBytes = new Resolved<>(OTHER + 1, method -> DistributionSummary.builder(PREFIX + "request.bytes")
        .description("Size of requests in bytes").tag("method", label(method)).register(registry));
    this.resets = new Resolved<>(OTHER + 1, method -> Counter.builder(PREFIX + "request.resets")
        .description("Number of request resets").tag("method", label(method)).register(registry));
    this.responses = new Resolved<>((OTHER + 1) * CODES,
        index -> responseSeries(index / CODES, Integer.toString(index % CODES)));
  }

  /** One request: its method's index and when it began. */
  static final class Exchange {
    private final int method;
    private final long startNanos;

    private Exchange(int method, long startNanos) {
      this.method = method;
      this.startNanos = startNanos;
    }
  }

  private record ResponseSeries(Counter count, Timer time, DistributionSummary bytes) {
  }

  @Override
  public Exchange requestBegin(Void socket, HttpRequest request) {
    return new Exchange(methodIndex(request.method()), stopwatch.monotonicTime());
  }

  @Override
  public void requestEnd(Exchange exchange, HttpRequest request, long bytesRead) {
    requestBytes.get(exchange.method).record(bytesRead);
  }

  @Override
  public void requestReset(Exchange exchange) {
    resets.get(exchange.method).increment();
  }

  @Override
  public void responseEnd(Exchange exchange, HttpResponse response, long bytesWritten) {
    int code = response.statusCode();
    ResponseSeries series = code >= 0 && code < CODES
        ? responses.get(exchange.method * CODES + code)
        : responseSeries(exchange.method, Integer.toString(code));
    series.count().increment();
    series.time().record(stopwatch.monotonicTime() - exchange.startNanos, TimeUnit.NANOSECONDS);
    series.bytes().record(bytesWritten);
  }

  @Override
  public void bytesRead(Void socket, SocketAddress remote, long bytes) {
    bytesRead.increment(bytes);
  }

  @Override
  public void bytesWritten(Void socket, SocketAddress remote, long bytes) {
    bytesWritten.increment(bytes);
  }

  @Override
  public void exceptionOccurred(Void socket, SocketAddress remote, Throwable failure) {
    errors.increment();
  }

  /** The label of a method: its name if standard, else {@code OTHER}. */
  private static String label(int method) {
    return method == OTHER ? "OTHER" : METHODS.get(method).name();
  }

  private static int methodIndex(HttpMethod method) {
    return METHOD_INDEX.getOrDefault(method, OTHER);
  }

  private ResponseSeries responseSeries(int method, String code) {
    String label = label(method);
    return new ResponseSeries(
        Counter.builder(PREFIX + "requests").description("Number of processed requests")
            .tag("code", code).tag("method", label).register(registry),
        Timer.builder(PREFIX + "response.time").description("Request processing time")
            .tag("code", code).tag("method", label).serviceLevelObjectives(RESPONSE_TIME_BUCKETS).register(registry),
        DistributionSummary.builder(PREFIX + "response.bytes").description("Size of responses in bytes")
            .tag("code", code).tag("method", label).register(registry));
  }

  /**
   * Series made on first use and kept by index. Two threads may both make one: the registry hands
   * both the same meters, so nothing is lost.
   */
  private static final class Resolved<T> {
    private final AtomicReferenceArray<T> series;
    private final IntFunction<T> make;

    Resolved(int size, IntFunction<T> make) {
      this.series = new AtomicReferenceArray<>(size);
      this.make = make;
    }

    T get(int index) {
      T found = series.get(index);
      if (found == null) {
        found = make.apply(index);
        series.set(index, found);
      }
      return found;
    }
  }
}
