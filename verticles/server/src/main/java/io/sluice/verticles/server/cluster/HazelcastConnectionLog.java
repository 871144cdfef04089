package io.sluice.verticles.server.cluster;

import io.sluice.verticles.engine.time.Clock;

import java.util.logging.Filter;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Hazelcast logs every connection to the member port that did not speak a Hazelcast protocol with
 * a WARNING and its stack trace (about 1 KB a connection), so anyone who reaches the port could
 * fill the log. This filter takes those records (a connection that never became a member's or a
 * client's, closed on an exception) and logs one line per peer address instead ({@link PeerLog});
 * every other Hazelcast line passes unchanged. It applies when Hazelcast logs through
 * java.util.logging (Sluice's default, {@code hazelcast.logging.type=jdk}).
 */
final class HazelcastConnectionLog implements Filter {

  private static final System.Logger LOG = System.getLogger(HazelcastConnectionLog.class.getName());
  /** Held here: java.util.logging keeps loggers weakly, and a collected one would lose its filter. */
  private static final Logger CONNECTIONS = Logger.getLogger("com.hazelcast.internal.server.tcp.TcpServerConnection");
  private static final String NOT_A_PEER = "connectionType=NONE";
  /** The remote end in Hazelcast's description of a connection: {@code /local:port->/remote:port}. */
  private static final Pattern REMOTE = Pattern.compile("->/([^:,\\]]+):\\d+");

  private final PeerLog log;

  private HazelcastConnectionLog(Clock clock) {
    this.log = new PeerLog(clock);
  }

  /** Installs the filter once for the process (Hazelcast's loggers are the process's). */
  static void install(Clock clock) {
    synchronized (CONNECTIONS) {
      if (!(CONNECTIONS.getFilter() instanceof HazelcastConnectionLog)) {
        CONNECTIONS.setFilter(new HazelcastConnectionLog(clock));
      }
    }
  }

  @Override
  public boolean isLoggable(LogRecord record) {
    String message = record.getMessage();
    if (record.getThrown() == null || message == null || !message.contains(NOT_A_PEER)) {
      return true;
    }
    Matcher remote = REMOTE.matcher(message);
    String peer = remote.find() ? remote.group(1) : "an unknown address";
    Throwable cause = record.getThrown();
    log.refused(LOG, peer, "closing a Hazelcast member-port connection from " + peer + ": "
        + cause.getClass().getSimpleName() + ": " + cause.getMessage()
        + " (not a member's protocol; further ones from this address are not logged)");
    return false;
  }
}
