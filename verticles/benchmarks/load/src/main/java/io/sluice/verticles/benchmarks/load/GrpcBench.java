package io.sluice.verticles.benchmarks.load;

import io.envoyproxy.envoy.extensions.common.ratelimit.v3.RateLimitDescriptor;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitRequest;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.SocketAddress;
import io.vertx.grpc.client.GrpcClient;
import io.vertx.grpc.common.GrpcMessageDecoder;
import io.vertx.grpc.common.GrpcMessageEncoder;
import io.vertx.grpc.common.GrpcStatus;
import io.vertx.grpc.common.ServiceMethod;
import io.vertx.grpc.common.ServiceName;
import org.HdrHistogram.Recorder;
import org.HdrHistogram.Histogram;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * {@code java -jar sluice.jar bench grpc}: Envoy's {@code ShouldRateLimit} with one descriptor,
 * over N concurrent HTTP/2 streams of one connection (as Envoy's gRPC client multiplexes them), and
 * in the same run the HTTP check API ({@code POST /v1/check}) over N HTTP/1.1 connections: closed
 * loops, each stream or connection sending its next request when the answer is in. The two take
 * turns in rounds (gRPC, HTTP, gRPC, HTTP…), so a machine whose other load drifts during the run
 * weighs on both alike. Every
 * answer is validated (a gRPC status OK with one descriptor status; a 200 or 429); exits 1 on any
 * other. Prints requests per second and latency percentiles of both, and their ratio. With
 * {@code --algorithm-descriptor}, a third part in the same rounds sends a descriptor whose
 * {@code rate_limit} names an {@code algorithm:} (a Sluice extension), to set beside the fixed window.
 */
final class GrpcBench {

  static final String HELP = String.join("\n",
      "Usage: java -jar sluice.jar bench grpc [options]",
      "ShouldRateLimit with one descriptor over concurrent HTTP/2 streams, then POST /v1/check over as many connections.",
      "  --host HOST          server address (127.0.0.1)",
      "  --port PORT          gRPC port (8081)",
      "  --streams N          concurrent streams, and HTTP connections for the check API (64)",
      "  --domain NAME        the request's domain (bench)",
      "  --descriptor K=V     its one descriptor entry (key=bench)",
      "  --algorithm-descriptor K=V  also, in the same rounds, a descriptor whose rate_limit names an algorithm: (none)",
      "  --http-port PORT     HTTP port of the check API; 0 skips that part (8080)",
      "  --policy NAME        the check API's policy (bench), key 'bench'",
      "  --duration SECONDS   measured time of each part, over all rounds (10)",
      "  --warmup SECONDS     unmeasured time before each part's first round (3)",
      "  --rounds N           turns each part takes, alternating (3)");

  private static final int UNANSWERED_AFTER_SECONDS = 30;

  private static final ServiceMethod<RateLimitResponse, RateLimitRequest> SHOULD_RATE_LIMIT = ServiceMethod.client(
      ServiceName.create("envoy.service.ratelimit.v3.RateLimitService"), "ShouldRateLimit",
      GrpcMessageEncoder.encoder(), GrpcMessageDecoder.decoder(RateLimitResponse.newBuilder()));

  /** A closed loop's measure: answers, latencies, and the first invalid answer. */
  private static final class Tally {
    final LongAdder answers = new LongAdder();
    final Recorder latency = new Recorder(3_600_000_000_000L, 3);
    final AtomicReference<String> invalid = new AtomicReference<>();
    final CountDownLatch loopsEnded;
    volatile boolean stopped;

    Tally(int loops) {
      loopsEnded = new CountDownLatch(loops);
    }

    void answered(long startNanos) {
      latency.recordValue(Math.max(0, System.nanoTime() - startNanos));
      answers.increment();
    }
  }

  /** One side of the comparison, measured over its rounds. */
  private static final class Part {
    private final String what;
    private final java.util.function.Function<Tally, Supplier<Future<Void>>> sender;
    private final Histogram latency = new Histogram(3_600_000_000_000L, 3);
    private long answers;
    private double seconds;

    Part(String what, java.util.function.Function<Tally, Supplier<Future<Void>>> sender) {
      this.what = what;
      this.sender = sender;
    }

    /** One round: {@code loops} closed loops, measured after the warm-up. */
    void measure(int loops, int warmup, double duration) throws Exception {
      Tally tally = new Tally(loops);
      Supplier<Future<Void>> send = sender.apply(tally);
      for (int i = 0; i < loops; i++) {
        loop(send, tally);
      }
      TimeUnit.SECONDS.sleep(warmup); // the load runs meanwhile; the pause only paces the measurement
      tally.latency.reset();
      long before = tally.answers.sum();
      long start = System.nanoTime();
      TimeUnit.MILLISECONDS.sleep((long) (duration * 1000));
      answers += tally.answers.sum() - before;
      seconds += (System.nanoTime() - start) / 1e9;
      latency.add(tally.latency.getIntervalHistogram());
      tally.stopped = true;
      // Every loop's last answer is in before the verdict (each loop ends only once its request was
      // answered or failed): a server that never answered, or whose first answer (a refusal) comes
      // after the measured time, must not pass as a run of 0 req/s.
      if (!tally.loopsEnded.await(UNANSWERED_AFTER_SECONDS, TimeUnit.SECONDS)) {
        tally.invalid.compareAndSet(null, tally.loopsEnded.getCount() + " of " + loops
            + " requests still unanswered " + UNANSWERED_AFTER_SECONDS + " s after the run");
      }
      if (tally.invalid.get() != null) {
        throw new IllegalStateException(what + ": " + tally.invalid.get());
      }
    }

    double perSecond() {
      return answers / seconds;
    }

    void print() {
      System.out.printf("%-42s %,10.0f req/s   latency us: p50 %.0f  p99 %.0f  p999 %.0f%n", what, perSecond(),
          latency.getValueAtPercentile(50) / 1e3, latency.getValueAtPercentile(99) / 1e3,
          latency.getValueAtPercentile(99.9) / 1e3);
    }
  }

  private GrpcBench() {
  }

  static int run(List<String> args) throws Exception {
    Map<String, String> options = Arguments.parse(args, List.of("host", "port", "streams", "domain", "descriptor",
        "algorithm-descriptor", "http-port", "policy", "duration", "warmup", "rounds"));
    if (options == null) {
      System.out.println(HELP);
      return 0;
    }
    String host = options.getOrDefault("host", "127.0.0.1");
    int port = Arguments.positive(options, "port", 8081);
    int streams = Arguments.positive(options, "streams", 64);
    int httpPort = Arguments.nonNegative(options, "http-port", 8080);
    int duration = Arguments.positive(options, "duration", 10);
    int warmup = Arguments.nonNegative(options, "warmup", 3);
    int rounds = Arguments.positive(options, "rounds", 3);
    String domain = options.getOrDefault("domain", "bench");
    RateLimitRequest request = request(domain, "descriptor", options.getOrDefault("descriptor", "key=bench"));
    String algorithmDescriptor = options.get("algorithm-descriptor");
    RateLimitRequest algorithmRequest = algorithmDescriptor == null ? null
        : request(domain, "algorithm-descriptor", algorithmDescriptor);
    Buffer check = Buffer.buffer("{\"policy\":\"" + options.getOrDefault("policy", "bench") + "\",\"key\":\"bench\"}");

    // One client event loop: the server shares the machine, the load must cost it little.
    Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1));
    try {
      GrpcClient grpc = GrpcClient.client(vertx, new HttpClientOptions().setProtocolVersion(HttpVersion.HTTP_2)
          .setHttp2ClearTextUpgrade(false).setTcpNoDelay(true));
      SocketAddress server = SocketAddress.inetSocketAddress(port, host);
      Part rls = new Part(String.format("grpc ShouldRateLimit, %d streams", streams),
          tally -> shouldRateLimit(grpc, server, request, tally));
      Part algorithm = algorithmRequest == null ? null
          : new Part(String.format("grpc ShouldRateLimit %s, %d streams", algorithmDescriptor, streams),
              tally -> shouldRateLimit(grpc, server, algorithmRequest, tally));
      Part checks = null;
      if (httpPort > 0) {
        HttpClient http = vertx.createHttpClient(new HttpClientOptions().setTcpNoDelay(true).setKeepAlive(true),
            new PoolOptions().setHttp1MaxSize(streams));
        RequestOptions post = new RequestOptions().setMethod(HttpMethod.POST).setHost(host).setPort(httpPort)
            .setURI("/v1/check").putHeader("Content-Type", "application/json");
        checks = new Part(String.format("http POST /v1/check, %d connections", streams),
            tally -> checkApi(http, post, check, tally));
      }
      double slice = (double) duration / rounds;
      for (int round = 0; round < rounds; round++) {
        int warm = round == 0 ? warmup : 1;
        rls.measure(streams, warm, slice);
        if (algorithm != null) {
          algorithm.measure(streams, warm, slice);
        }
        if (checks != null) {
          checks.measure(streams, warm, slice);
        }
      }
      rls.print();
      if (algorithm != null) {
        algorithm.print();
        System.out.printf("algorithm / fixed window: %.2f (%d rounds each)%n", algorithm.perSecond() / rls.perSecond(),
            rounds);
      }
      if (checks != null) {
        checks.print();
        System.out.printf("grpc / http: %.2f (%d rounds each)%n", rls.perSecond() / checks.perSecond(), rounds);
      }
      return 0;
    } catch (IllegalStateException invalid) {
      System.err.println("bench grpc: " + invalid.getMessage());
      return 1;
    } finally {
      vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
  }

  /** A request of one descriptor of one entry, from {@code --option KEY=VALUE}. */
  private static RateLimitRequest request(String domain, String option, String keyEqualsValue) {
    int equals = keyEqualsValue.indexOf('=');
    if (equals < 1) {
      throw new IllegalArgumentException("--" + option + " takes KEY=VALUE, not '" + keyEqualsValue + "'");
    }
    return RateLimitRequest.newBuilder().setDomain(domain)
        .addDescriptors(RateLimitDescriptor.newBuilder().addEntries(RateLimitDescriptor.Entry.newBuilder()
            .setKey(keyEqualsValue.substring(0, equals)).setValue(keyEqualsValue.substring(equals + 1)))).build();
  }

  private static void loop(Supplier<Future<Void>> send, Tally tally) {
    if (tally.stopped || tally.invalid.get() != null) {
      tally.loopsEnded.countDown();
      return;
    }
    send.get().onComplete(done -> {
      if (done.failed()) {
        tally.invalid.compareAndSet(null, String.valueOf(done.cause()));
      }
      loop(send, tally);
    });
  }

  private static Supplier<Future<Void>> shouldRateLimit(GrpcClient grpc, SocketAddress server, RateLimitRequest request,
                                                        Tally tally) {
    return () -> {
      long start = System.nanoTime();
      return grpc.request(server, SHOULD_RATE_LIMIT)
          .compose(call -> call.send(request))
          .compose(response -> response.last().map(answer -> {
            if (response.status() != GrpcStatus.OK || answer.getStatusesCount() != 1) {
              throw new IllegalStateException("unexpected answer: status " + response.status() + ", " + answer);
            }
            tally.answered(start);
            return null;
          }));
    };
  }

  private static Supplier<Future<Void>> checkApi(HttpClient http, RequestOptions post, Buffer body, Tally tally) {
    return () -> {
      long start = System.nanoTime();
      return http.request(post).compose(call -> call.send(body)).compose(response -> response.body().map(b -> {
        if (response.statusCode() != 200 && response.statusCode() != 429) {
          throw new IllegalStateException("unexpected answer: HTTP " + response.statusCode() + " " + b);
        }
        tally.answered(start);
        return null;
      }));
    };
  }
}
