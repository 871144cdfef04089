package io.sluice.verticles.server.http;

import io.sluice.verticles.engine.log.LogLimiter;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServerRequest;

/**
 * {@code --http-request-timeout} on one HTTP connection: from its opening, and from the end of each
 * response, the next request's line, headers and body must all arrive within the bound, or the
 * connection is closed. A client that dribbles its headers a byte at a time (slowloris), or opens
 * connections and sends nothing, so holds a connection for that long at most. The clock stops
 * while Sluice is answering, and for good once a connection becomes a WebSocket (which has
 * {@code --idle-timeout}) or a stream of server-sent events.
 *
 * <p>Only an instant is kept here: {@link RequestDeadlines} looks at every connection's at once,
 * so a request costs two field writes rather than a timer set and cancelled. Lives on the
 * connection's event loop, like the connection.
 */
final class RequestDeadline {

  private static final System.Logger LOG = System.getLogger(RequestDeadline.class.getName());
  private final HttpConnection connection;
  private final RequestDeadlines all;
  private boolean running;
  private long deadlineNanos;
  private int unanswered;
  private boolean servedOne;
  private boolean gone;

  RequestDeadline(HttpConnection connection, RequestDeadlines all) {
    this.connection = connection;
    this.all = all;
  }

  /** A request's head has arrived: the clock runs on until its body has, then waits for the answer. */
  void began(HttpServerRequest request) {
    unanswered++;
    // A paused request may report its end after its answer: the clock then already waits for the next
    // one. (A WebSocket upgrade's response counts as ended without ever being answered here.)
    request.end().onComplete(received -> {
      if (unanswered > 0) {
        stop();
      }
    });
    request.response().endHandler(v -> answered(request));
    request.response().closeHandler(v -> stop());
  }

  void closed() {
    gone = true;
    stop();
  }

  private void answered(HttpServerRequest request) {
    servedOne = true;
    if (request.response().getStatusCode() == 101) {
      // Now a WebSocket: no more requests come, and --idle-timeout watches it.
      gone = true;
    }
    if (--unanswered == 0) {
      start();
    }
  }

  /** Starts the clock: the next request must have arrived whole within the timeout from now. */
  void start() {
    running = !gone;
    deadlineNanos = all.now() + all.timeoutNanos();
  }

  private void stop() {
    running = false;
  }

  /** @param nowNanos on {@link System#nanoTime()}'s scale, whose values may wrap */
  boolean expiredAt(long nowNanos) {
    return running && nowNanos - deadlineNanos >= 0;
  }

  void close() {
    stop();
    String line = "closing HTTP connection from " + connection.remoteAddress() + ": no complete request within "
        + all.timeoutNanos() / 1_000_000 + " ms (--http-request-timeout)";
    if (servedOne && unanswered == 0) {
      // A keep-alive connection left idle after its last answer: routine.
      LOG.log(System.Logger.Level.DEBUG, line);
    } else {
      all.log().log(LOG, System.Logger.Level.WARNING, line);
    }
    connection.close();
  }
}
