package io.sluice.verticles.server.cluster;

import io.sluice.verticles.engine.time.Clock;

import java.util.logging.Filter;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import javax.net.ssl.SSLException;

/**
 * Vert.x logs every failed connection to another member's event bus with a WARNING and its stack
 * trace (about 2 KB); with credentials, each ask of a member that holds none fails its handshake, and
 * each channel question to it would too. This filter takes those records whose cause is TLS and
 * logs one line per member instead ({@link PeerLog}); every other line passes unchanged. It
 * applies when Vert.x logs through java.util.logging, as in Sluice.
 */
final class EventBusHandshakeLog implements Filter {

  private static final System.Logger LOG = System.getLogger(EventBusHandshakeLog.class.getName());
  /** Held here: java.util.logging keeps loggers weakly, and a collected one would lose its filter. */
  private static final Logger CONNECTIONS = Logger.getLogger("io.vertx.core.eventbus.impl.clustered.ClusteredEventBus");
  private static final String PREFIX = "Connecting to server ";

  private final PeerLog log;

  private EventBusHandshakeLog(Clock clock) {
    this.log = new PeerLog(clock);
  }

  /** Installs the filter once for the process (Vert.x's loggers are the process's). */
  static void install(Clock clock) {
    synchronized (CONNECTIONS) {
      if (!(CONNECTIONS.getFilter() instanceof EventBusHandshakeLog)) {
        CONNECTIONS.setFilter(new EventBusHandshakeLog(clock));
      }
    }
  }

  @Override
  public boolean isLoggable(LogRecord record) {
    String message = record.getMessage();
    if (!(record.getThrown() instanceof SSLException handshake) || message == null || !message.startsWith(PREFIX)) {
      return true;
    }
    String member = message.substring(PREFIX.length()).replace(" failed", "");
    log.refused(LOG, member, "cannot reach cluster member " + member + " over the event bus: TLS handshake failed ("
        + handshake.getMessage() + "; it holds no credentials of this cluster?); further ones with it are not logged");
    return false;
  }
}
