import com.hazelcast.config.Config;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;

import java.util.Arrays;
import java.util.concurrent.CompletableFuture;

/**
 * The floor of Vert.x's clustered event bus, the transport a forwarded request takes between
 * Sluice nodes: two JVMs on loopback, one answering every request on an address at once, the
 * other asking one request at a time (a 16-byte body, as a small forwarded batch) and recording
 * each round trip. No Sluice code runs. Run the answering side first, then the asking side:
 *
 * <pre>
 * java -cp gateway/target/sluice.jar verticles/benchmarks/scripts/EventBusFloor.java answer &amp;
 * java -cp gateway/target/sluice.jar verticles/benchmarks/scripts/EventBusFloor.java ask [requests, default 200000]
 * kill %1
 * </pre>
 */
public class EventBusFloor {

  private static final String ADDRESS = "floor.answer";

  public static void main(String[] args) throws Exception {
    boolean answer = args.length > 0 && args[0].equals("answer");
    Config config = new Config().setClusterName("event-bus-floor");
    config.getNetworkConfig().setPort(answer ? 5911 : 5912).setPortAutoIncrement(false);
    config.getNetworkConfig().getJoin().getMulticastConfig().setEnabled(false);
    config.getNetworkConfig().getJoin().getTcpIpConfig().setEnabled(true).addMember("127.0.0.1:5911").addMember("127.0.0.1:5912");
    config.getNetworkConfig().getInterfaces().setEnabled(true).addInterface("127.0.0.1");
    Vertx vertx = Vertx.builder().withClusterManager(new HazelcastClusterManager(config)).buildClustered()
        .await();
    if (answer) {
      vertx.eventBus().<Buffer>consumer(ADDRESS, message -> message.reply(message.body())).completion().await();
      System.out.println("answering on " + ADDRESS);
      return;
    }
    int requests = args.length > 1 ? Integer.parseInt(args[1]) : 200_000;
    CompletableFuture<Void> answering = new CompletableFuture<>();
    vertx.runOnContext(v -> awaitAnswers(vertx, System.nanoTime() + 60_000_000_000L, answering));
    answering.get();
    for (int round = 1; round <= 2; round++) {
      long[] nanos = new long[requests];
      CompletableFuture<Void> done = new CompletableFuture<>();
      Buffer body = Buffer.buffer(new byte[16]);
      DeliveryOptions options = new DeliveryOptions().setSendTimeout(5_000);
      vertx.runOnContext(v -> ask(vertx, body, options, nanos, -requests / 5, done));
      done.get();
      Arrays.sort(nanos);
      System.out.printf("round %d: %d requests one at a time: p50 %.1f us, p99 %.1f us, p999 %.1f us%n", round, requests,
          nanos[requests / 2] / 1e3, nanos[(int) (requests * 0.99)] / 1e3, nanos[(int) (requests * 0.999)] / 1e3);
    }
    vertx.close().await();
    System.exit(0);
  }

  /** Until the answering side, started just before, has joined and registered its address (a minute at most). */
  private static void awaitAnswers(Vertx vertx, long deadlineNanos, CompletableFuture<Void> answering) {
    vertx.eventBus().request(ADDRESS, Buffer.buffer(new byte[16])).onComplete(reply -> {
      if (reply.succeeded()) {
        answering.complete(null);
      } else if (System.nanoTime() - deadlineNanos < 0) {
        vertx.setTimer(100, id -> awaitAnswers(vertx, deadlineNanos, answering));
      } else {
        answering.completeExceptionally(reply.cause());
      }
    });
  }

  /** Request {@code i} (negative: warm-up, unrecorded), then the next once it is answered. */
  private static void ask(Vertx vertx, Buffer body, DeliveryOptions options, long[] nanos, int i, CompletableFuture<Void> done) {
    if (i == nanos.length) {
      done.complete(null);
      return;
    }
    long start = System.nanoTime();
    vertx.eventBus().<Buffer>request(ADDRESS, body, options).onComplete(reply -> {
      if (reply.failed()) {
        done.completeExceptionally(reply.cause());
        return;
      }
      if (i >= 0) {
        nanos[i] = System.nanoTime() - start;
      }
      ask(vertx, body, options, nanos, i + 1, done);
    });
  }
}
