package io.sluice.gateway.netns;

import io.sluice.gateway.accuracy.Grant;
import io.sluice.protocol.binary.client.ThrottrClient;
import io.sluice.protocol.binary.client.ThrottrClientOptions;
import io.sluice.protocol.binary.client.UpdateAttribute;
import io.sluice.protocol.binary.client.UpdateChange;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static io.sluice.gateway.process.Waits.until;

/**
 * Clients on every node taking one unit at a time from the same two limits, at a fixed pace: one
 * through the HTTP check API (a fixed-window policy), one through Throttr (UPDATE quota decrease 1
 * of a key made with the limit as its quota). Every grant is recorded with the times it was asked
 * and its answer arrived, and the node that gave it, for {@link io.sluice.gateway.accuracy.OverAdmission}.
 * A node that is down or frozen costs failures, never unbounded requests: each client keeps at
 * most {@link #MAX_IN_FLIGHT} requests outstanding and skips its turn beyond that.
 */
final class Takers implements AutoCloseable {

  static final String CHECK = "check";
  static final String THROTTR = "throttr";
  private static final int MAX_IN_FLIGHT = 32;

  private final NamespaceCluster cluster;
  private final Vertx vertx;
  private final String policy;
  private final String checkKey;
  private final String throttrKey;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  private final ScheduledExecutorService pace = Executors.newSingleThreadScheduledExecutor(runnable -> {
    Thread thread = new Thread(runnable, "takers");
    thread.setDaemon(true);
    return thread;
  });
  private final Queue<Grant> grants = new ConcurrentLinkedQueue<>();
  private final AtomicInteger[] inFlight;
  private final AtomicLong[] denied;
  private final AtomicLong attempts = new AtomicLong();
  private final AtomicLong failures = new AtomicLong();
  private final Future<ThrottrClient>[] throttr;

  @SuppressWarnings("unchecked")
  Takers(NamespaceCluster cluster, Vertx vertx, String policy, String checkKey, String throttrKey) {
    this.cluster = cluster;
    this.vertx = vertx;
    this.policy = policy;
    this.checkKey = checkKey;
    this.throttrKey = throttrKey;
    this.inFlight = new AtomicInteger[cluster.size() * 2];
    this.denied = new AtomicLong[cluster.size() * 2];
    for (int i = 0; i < inFlight.length; i++) {
      inFlight[i] = new AtomicInteger();
      denied[i] = new AtomicLong();
    }
    this.throttr = new Future[cluster.size()];
  }

  /** Every node's two clients take {@code perSecond} times a second each, from now until {@link #close}. */
  void start(int perSecond) {
    pace.scheduleAtFixedRate(this::takeOnEveryNode, 0, 1_000_000 / perSecond, TimeUnit.MICROSECONDS);
  }

  private void takeOnEveryNode() {
    for (int node = 0; node < cluster.size(); node++) {
      takeByCheck(node);
      takeByThrottr(node);
    }
  }

  private void takeByCheck(int node) {
    AtomicInteger outstanding = inFlight[node * 2];
    if (outstanding.get() >= MAX_IN_FLIGHT) {
      return;
    }
    outstanding.incrementAndGet();
    attempts.incrementAndGet();
    long asked = System.nanoTime();
    String body = new JsonObject().put("policy", policy).put("key", checkKey).encode();
    HttpRequest request = HttpRequest.newBuilder(URI.create("http://" + cluster.address(node) + ":"
            + NamespaceCluster.HTTP_PORT + "/v1/check"))
        .timeout(Duration.ofSeconds(5)).header("content-type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body)).build();
    http.sendAsync(request, HttpResponse.BodyHandlers.discarding()).whenComplete((response, failure) -> {
      if (failure == null && response.statusCode() == 200) {
        grants.add(new Grant(asked, System.nanoTime(), node, CHECK));
      } else if (failure == null && response.statusCode() == 429) {
        denied[node * 2].incrementAndGet();
      } else {
        failures.incrementAndGet();
      }
      outstanding.decrementAndGet();
    });
  }

  private void takeByThrottr(int node) {
    AtomicInteger outstanding = inFlight[node * 2 + 1];
    if (outstanding.get() >= MAX_IN_FLIGHT) {
      return;
    }
    outstanding.incrementAndGet();
    attempts.incrementAndGet();
    long asked = System.nanoTime();
    client(node).compose(client -> client.update(throttrKey, UpdateAttribute.QUOTA, UpdateChange.DECREASE, 1))
        .onComplete(taken -> {
          if (taken.succeeded() && taken.result()) {
            grants.add(new Grant(asked, System.nanoTime(), node, THROTTR));
          } else if (taken.succeeded()) {
            denied[node * 2 + 1].incrementAndGet();
          } else {
            failures.incrementAndGet();
            forget(node); // connect again on the next turn: the node may have been restarted
          }
          outstanding.decrementAndGet();
        });
  }

  private synchronized Future<ThrottrClient> client(int node) {
    if (throttr[node] == null) {
      throttr[node] = ThrottrClient.connect(vertx, new ThrottrClientOptions().setHost(cluster.address(node))
          .setPort(NamespaceCluster.TCP_PORT));
    }
    return throttr[node];
  }

  private synchronized void forget(int node) {
    throttr[node] = null;
  }

  /** The grants recorded so far. */
  List<Grant> grants() {
    return List.copyOf(grants);
  }

  /** Denials so far of the node's client of each limit: {@code [check API, Throttr]}. */
  long[] denied(int node) {
    return new long[] {denied[node * 2].get(), denied[node * 2 + 1].get()};
  }

  long attempts() {
    return attempts.get();
  }

  long failures() {
    return failures.get();
  }

  /** Stops taking and waits (bounded) for every outstanding request's answer. */
  @Override
  public void close() {
    pace.shutdownNow();
    until(Duration.ofSeconds(20), "every taker's requests were answered", () -> {
      for (AtomicInteger outstanding : inFlight) {
        if (outstanding.get() > 0) {
          return false;
        }
      }
      return true;
    });
  }
}
