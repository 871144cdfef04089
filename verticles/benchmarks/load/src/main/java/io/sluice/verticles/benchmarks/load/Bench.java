package io.sluice.verticles.benchmarks.load;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.netty.handler.ssl.OpenSsl;
import io.vertx.core.net.ClientSSLOptions;
import io.vertx.core.net.JdkSSLEngineOptions;
import io.vertx.core.net.OpenSSLEngineOptions;
import io.vertx.core.net.ConnectOptions;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.PemTrustOptions;
import org.HdrHistogram.Histogram;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * {@code java -jar sluice-bench.jar}, also run by {@code java -jar sluice.jar bench}: a
 * redis-benchmark-like load tool for the Throttr protocol over real sockets. Prefills the key space, warms up, then measures; prints ops/s and latency
 * percentiles. Exits 1 if any reply was malformed or out of step.
 */
public final class Bench {

  private interface Tool {
    int run(List<String> args) throws Exception;
  }

  private record Subcommand(String help, Tool tool) {
  }

  private static final Map<String, Subcommand> SUBCOMMANDS = Map.of(
      "attack", new Subcommand(AttackBench.HELP, AttackBench::run),
      "fanout", new Subcommand(FanoutBench.HELP, FanoutBench::run),
      "grpc", new Subcommand(GrpcBench.HELP, GrpcBench::run),
      "udp", new Subcommand(UdpBench.HELP, UdpBench::run),
      "udp-echo", new Subcommand(UdpEchoServer.HELP, UdpEchoServer::run));

  private Bench() {
  }

  /** sluice-bench.jar's entry point, which sluice.jar's {@code bench} command calls too. */
  public static void main(String[] args) {
    System.exit(run(List.of(args)));
  }

  public static int run(List<String> args) {
    Subcommand subcommand = args.isEmpty() ? null : SUBCOMMANDS.get(args.get(0));
    if (subcommand != null) {
      String name = "bench " + args.get(0);
      try {
        return subcommand.tool.run(args.subList(1, args.size()));
      } catch (IllegalArgumentException e) {
        System.err.println(name + ": " + e.getMessage());
        System.err.println(subcommand.help);
        return 2;
      } catch (Exception e) {
        System.err.println(name + ": " + e.getMessage());
        return 1;
      }
    }
    BenchOptions options;
    try {
      options = BenchOptions.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println("bench: " + e.getMessage());
      System.err.println(BenchOptions.HELP);
      return 2;
    }
    if (options == null) {
      System.out.println(BenchOptions.HELP);
      return 0;
    }
    Vertx vertx = null;
    try {
      Map<String, KeySpace> targets = targets(options);
      int loops = Math.min(options.connections() * targets.size(), Runtime.getRuntime().availableProcessors());
      vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(loops));
      return measure(vertx, options, targets);
    } catch (Exception e) {
      System.err.println("bench: " + e.getMessage());
      return 1;
    } finally {
      if (vertx != null) {
        vertx.close();
      }
    }
  }

  /**
   * The Throttr listeners to load ({@code host:port}), each with the keys it gets: the one server
   * with every key, or with {@code --route-by-owner} every owner of the cluster's table with the
   * keys it owns (an owner of none of them is left out).
   */
  private static Map<String, KeySpace> targets(BenchOptions options) throws Exception {
    KeySpace all = KeySpace.all(options.keys());
    Map<String, KeySpace> targets = new java.util.LinkedHashMap<>();
    if (!options.routeByOwner()) {
      targets.put(options.host() + ":" + options.port(), all);
      return targets;
    }
    Optional<String> token = options.authTokenFile() == null ? Optional.empty()
        : Optional.of(OwnerTable.tokenFrom(Path.of(options.authTokenFile())));
    OwnerTable table = OwnerTable.fetch(options.host(), options.httpPort(), token);
    for (String owner : table.owners()) {
      KeySpace owned = all.ownedBy(key -> owner.equals(table.ownerOf(key)));
      if (owned.counters().length > 0 && owned.buffers().length == 0) {
        throw new IllegalArgumentException("--keys " + options.keys() + " leaves " + owner + " no buffer keys: use more");
      }
      if (owned.counters().length > 0) {
        targets.put(owner, owned);
      }
    }
    System.out.printf("route by owner: %d owners, table version %s%n", targets.size(), table.version());
    return targets;
  }

  /** Where to connect, over TLS when {@code --tls-ca} is given (OpenSSL where it loads, as the server). */
  private static ConnectOptions target(BenchOptions options, String address) {
    int colon = address.lastIndexOf(':');
    String host = address.substring(0, colon);
    ConnectOptions target = new ConnectOptions().setPort(Integer.parseInt(address.substring(colon + 1)))
        .setHost(host.startsWith("[") ? host.substring(1, host.length() - 1) : host);
    if (options.tlsCa() != null) {
      target.setSsl(true).setSslOptions(new ClientSSLOptions().setHostnameVerificationAlgorithm("")
          .setTrustOptions(new PemTrustOptions().addCertPath(options.tlsCa())));
    }
    return target;
  }

  private static int measure(Vertx vertx, BenchOptions options, Map<String, KeySpace> targets) throws Exception {
    var client = vertx.createNetClient(new NetClientOptions().setTcpNoDelay(true)
        .setSslEngineOptions(OpenSsl.isAvailable() ? new OpenSSLEngineOptions() : new JdkSSLEngineOptions()));
    List<BenchConnection> connections = new ArrayList<>();
    for (Map.Entry<String, KeySpace> target : targets.entrySet()) {
      for (int i = 0; i < options.connections(); i++) {
        int index = connections.size();
        connections.add(await(client.connect(target(options, target.getKey()))
            .map(socket -> new BenchConnection(socket, new Workload(options, index, target.getValue()), options))));
      }
    }
    long prefillStart = System.nanoTime();
    await(runOnEach(connections, BenchConnection::prefill));
    double prefillSeconds = (System.nanoTime() - prefillStart) / 1e9;
    System.out.printf("prefill: %d keys in %.2f s%n", options.keys(), prefillSeconds);
    connections.forEach(c -> c.context.runOnContext(v -> c.startLoad()));
    Thread.sleep(options.warmup().toMillis());
    connections.forEach(c -> c.record(true));
    long start = System.nanoTime();
    Thread.sleep(options.duration().toMillis());
    connections.forEach(c -> c.record(false));
    double seconds = (System.nanoTime() - start) / 1e9;
    await(runOnEach(connections, BenchConnection::stop));
    connections.forEach(BenchConnection::close);
    await(client.close());
    Histogram latency = new Histogram(3_600_000_000_000L, 3);
    long completed = 0;
    long refused = 0;
    for (BenchConnection c : connections) {
      if (c.failure != null) {
        throw c.failure;
      }
      latency.add(c.latency);
      completed += c.completed;
      refused += c.refused;
    }
    System.out.printf("mix %s, %d connections x %d in flight, %d keys, value size %s%n",
        options.mix(), connections.size(), options.pipeline(), options.keys(), options.valueSize().label());
    System.out.printf("%,.0f ops/s  (%,d replies in %.2f s, %,d refused)%n", completed / seconds, completed, seconds, refused);
    System.out.printf("latency us: p50 %.1f  p99 %.1f  p999 %.1f  max %.1f%n",
        latency.getValueAtPercentile(50) / 1e3, latency.getValueAtPercentile(99) / 1e3,
        latency.getValueAtPercentile(99.9) / 1e3, latency.getMaxValue() / 1e3);
    return 0;
  }

  private static Future<Void> runOnEach(List<BenchConnection> connections,
                                        java.util.function.Function<BenchConnection, Future<Void>> action) {
    List<Future<Void>> all = new ArrayList<>();
    for (BenchConnection connection : connections) {
      io.vertx.core.Promise<Void> done = io.vertx.core.Promise.promise();
      connection.context.runOnContext(v -> action.apply(connection).onComplete(done));
      all.add(done.future());
    }
    return Future.all(all).mapEmpty();
  }

  private static <T> T await(Future<T> future) throws Exception {
    try {
      return future.toCompletionStage().toCompletableFuture().get(5, TimeUnit.MINUTES);
    } catch (java.util.concurrent.ExecutionException e) {
      throw e.getCause() instanceof Exception cause ? cause : e;
    }
  }
}
