package io.sluice.verticles.server.http;

import io.sluice.verticles.engine.log.LogLimiter;
import io.vertx.core.Vertx;
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
 * <p>Lives on the connection's event loop, like the connection.
 */
final class RequestDeadline {

  private static final System.Logger LOG = System.getLogger(RequestDeadline.class.getName());

  private final Vertx vertx;
  private final HttpConnection connection;
  private final long timeoutMillis;
  private final LogLimiter log;
  private long timer = -1;
  private int unanswered;
  private boolean servedOne;
  private boolean gone;

  private RequestDeadline(Vertx vertx, HttpConnection connection, long timeoutMillis, LogLimiter log) {
    this.vertx = vertx;
    this.connection = connection;
    this.timeoutMillis = timeoutMillis;
    this.log = log;
  }

  /** Starts the clock on a connection just accepted. */
  static RequestDeadline start(Vertx vertx, HttpConnection connection, long timeoutMillis, LogLimiter log) {
    RequestDeadline deadline = new RequestDeadline(vertx, connection, timeoutMillis, log);
    deadline.arm();
    return deadline;
  }

  /** A request's head has arrived: the clock runs on until its body has, then waits for the answer. */
  void began(HttpServerRequest request) {
    unanswered++;
    // A paused request may report its end after its answer: the clock then already waits for the next
    // one. (A WebSocket upgrade's response counts as ended without ever being answered here.)
    request.end().onComplete(received -> {
      if (unanswered > 0) {
        disarm();
      }
    });
    request.response().endHandler(v -> answered(request));
    request.response().closeHandler(v -> disarm());
  }

  void closed() {
    gone = true;
    disarm();
  }

  private void answered(HttpServerRequest request) {
    servedOne = true;
    if (request.response().getStatusCode() == 101) {
      // Now a WebSocket: no more requests come, and --idle-timeout watches it.
      gone = true;
    }
    if (--unanswered == 0) {
      arm();
    }
  }

  private void arm() {
    disarm();
    if (gone) {
      return;
    }
    timer = vertx.setTimer(timeoutMillis, id -> expired());
  }

  private void disarm() {
    if (timer != -1) {
      vertx.cancelTimer(timer);
      timer = -1;
    }
  }

  private void expired() {
    timer = -1;
    String line = "closing HTTP connection from " + connection.remoteAddress() + ": no complete request within "
        + timeoutMillis + " ms (--http-request-timeout)";
    if (servedOne && unanswered == 0) {
      // A keep-alive connection left idle after its last answer: routine.
      LOG.log(System.Logger.Level.DEBUG, line);
    } else {
      log.log(LOG, System.Logger.Level.WARNING, line);
    }
    connection.close();
  }
}
