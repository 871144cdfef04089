package io.sluice.verticles.server.cluster;

import io.sluice.verticles.engine.log.LogLimiter;
import io.sluice.verticles.engine.time.Clock;

import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Logs what a cluster port refused once per peer (an address, or the node id a message claims):
 * one who sends garbage or forged messages gets one WARNING line, not one per frame or connection.
 * The peers remembered are bounded (the oldest is forgotten first), and the lines of many peers
 * at once go through a {@link LogLimiter}, so no flood of peers becomes a flood of lines either.
 */
final class PeerLog {

  /** Peers whose refusal was logged, remembered so that their next ones are not. */
  static final int PEERS_REMEMBERED = 4096;
  static final int LINES_PER_SECOND = 5;

  private final Set<String> logged = new LinkedHashSet<>();
  private final LogLimiter limiter;

  PeerLog(Clock clock) {
    this.limiter = new LogLimiter(clock, 1_000_000_000L, LINES_PER_SECOND);
  }

  /** Logs {@code line} at WARNING unless a refusal of {@code peer} was logged already. */
  void refused(System.Logger log, String peer, String line) {
    synchronized (logged) {
      if (!logged.add(peer)) {
        return;
      }
      if (logged.size() > PEERS_REMEMBERED) {
        Iterator<String> oldest = logged.iterator();
        oldest.next();
        oldest.remove();
      }
    }
    limiter.log(log, System.Logger.Level.WARNING, line);
  }
}
