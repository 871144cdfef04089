package io.sluice.verticles.engine.channel;

import java.util.Comparator;
import java.util.Objects;
import java.util.Optional;

/**
 * One connection present in a channel: it subscribed there through the WebSocket bridge.
 *
 * @param user        its token's {@code sub}, empty for an anonymous client (counted, never listed)
 * @param connection  its ID as 32 hex characters
 * @param sinceMillis when it joined, in epoch milliseconds of the project's clock
 */
public record Presence(Optional<String> user, String connection, long sinceMillis) {

  /** Earliest first, then by connection: every node lists the same members in the same order. */
  public static final Comparator<Presence> EARLIEST_FIRST =
      Comparator.comparingLong(Presence::sinceMillis).thenComparing(Presence::connection);

  public Presence {
    Objects.requireNonNull(user);
    Objects.requireNonNull(connection);
  }

  public boolean anonymous() {
    return user.isEmpty();
  }
}
