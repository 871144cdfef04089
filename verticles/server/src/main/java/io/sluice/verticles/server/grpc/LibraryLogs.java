package io.sluice.verticles.server.grpc;

import io.sluice.verticles.engine.log.LogLimiter;
import io.sluice.verticles.engine.time.Clock;

import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * What Netty's HTTP/2 code logs per stream or per frame when a client misbehaves: a stack trace
 * for each stream a closing connection still held (a NullPointerException in Vert.x's stream
 * close), a line for each frame after GOAWAY. A client decides how many (issue 30: 248 MB in 15 s
 * with rapid resets and reconnects), so each such record (INFO and above) is replaced by one line of
 * Sluice's, at most one a second, that counts those left out. Sluice logs through java.util.logging, and so do
 * Netty and Vert.x.
 */
final class LibraryLogs {

  private static final System.Logger LOG = System.getLogger(LibraryLogs.class.getName());

  /** Loggers whose records a client can multiply; held here, as java.util.logging keeps loggers only weakly. */
  private static final List<Logger> QUIETED = new ArrayList<>();

  private LibraryLogs() {
  }

  /** Once per process: later calls change nothing. */
  static synchronized void limit(Clock clock) {
    if (!QUIETED.isEmpty()) {
      return;
    }
    LogLimiter limiter = new LogLimiter(clock, 1_000_000_000L);
    for (String name : List.of("io.netty.handler.codec.http2.DefaultHttp2Connection",
        "io.netty.handler.codec.http2.DefaultHttp2ConnectionDecoder",
        "io.netty.handler.codec.http2.DefaultHttp2ConnectionEncoder",
        "io.netty.handler.codec.http2.Http2ConnectionHandler",
        "io.netty.handler.codec.http2.DefaultHttp2RemoteFlowController",
        "io.netty.handler.codec.http2.DefaultHttp2LocalFlowController")) {
      Logger logger = Logger.getLogger(name);
      logger.setFilter(record -> {
        if (record.getLevel().intValue() < Level.INFO.intValue()) {
          // Debug lines are there only when an operator asked for them (--log-level debug).
          return true;
        }
        limiter.log(LOG, System.Logger.Level.WARNING, "HTTP/2 (" + simpleName(record.getLoggerName()) + "): "
            + record.getMessage() + (record.getThrown() == null ? "" : ": " + record.getThrown()));
        return false;
      });
      QUIETED.add(logger);
    }
  }

  private static String simpleName(String logger) {
    return logger.substring(logger.lastIndexOf('.') + 1);
  }
}
