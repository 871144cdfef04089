package io.sluice.verticles.server.http;

import io.sluice.verticles.engine.log.LogLimiter;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpConnection;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The request clocks ({@link RequestDeadline}) of one HTTP front instance's connections, checked
 * together by one periodic timer on its event loop, every tenth of {@code --http-request-timeout}
 * (between 10 ms and 1 s). A connection past its deadline is so closed within one period of it:
 * with the default 10 s, between 10 and 11 s. A timer per connection, set and cancelled around
 * each request, cost the HTTP check API about 5 % of its CPU.
 *
 * <p>Timed with {@link System#nanoTime()}, not the injectable Clock: this defends against real
 * clients in real time, and a test that moves its hand clock by an hour must not see its HTTP
 * connections closed. Used from the instance's event loop only, like its connections.
 */
final class RequestDeadlines {

  private final long timeoutNanos;
  private final LogLimiter log;
  private final Map<HttpConnection, RequestDeadline> open = new HashMap<>();
  private final Vertx vertx;
  private final long sweeper;

  RequestDeadlines(Vertx vertx, Duration timeout, LogLimiter log) {
    this.vertx = vertx;
    this.timeoutNanos = timeout.toNanos();
    this.log = log;
    this.sweeper = vertx.setPeriodic(sweepMillis(timeout), id -> sweep());
  }

  static long sweepMillis(Duration timeout) {
    return Math.max(10, Math.min(1_000, timeout.toMillis() / 10));
  }

  /** Starts the clock of a connection just accepted. */
  void opened(HttpConnection connection) {
    RequestDeadline deadline = new RequestDeadline(connection, this);
    open.put(connection, deadline);
    deadline.start();
  }

  /** The clock of an admitted connection still open, else null. */
  RequestDeadline of(HttpConnection connection) {
    return open.get(connection);
  }

  void closed(HttpConnection connection) {
    RequestDeadline deadline = open.remove(connection);
    if (deadline != null) {
      deadline.closed();
    }
  }

  void stop() {
    vertx.cancelTimer(sweeper);
  }

  long now() {
    return System.nanoTime();
  }

  long timeoutNanos() {
    return timeoutNanos;
  }

  LogLimiter log() {
    return log;
  }

  private void sweep() {
    long now = now();
    List<RequestDeadline> expired = null;
    for (RequestDeadline deadline : open.values()) {
      if (deadline.expiredAt(now)) {
        if (expired == null) {
          expired = new ArrayList<>();
        }
        expired.add(deadline);
      }
    }
    if (expired != null) {
      // Closed after the walk: a close may come back to closed() before it returns.
      expired.forEach(RequestDeadline::close);
    }
  }
}
