package io.sluice.verticles.engine.channel;

import java.util.ArrayList;
import java.util.List;

/**
 * Who is in one channel, on one node or (merged) on every node that answered. Only the
 * {@code limit} earliest users are listed, so an answer stays bounded however many there are;
 * {@code named} still counts them all.
 *
 * @param users     the users listed, earliest first, at most the limit they were taken with
 * @param named     how many connections with a user are present, listed or not
 * @param anonymous how many anonymous connections are present: counted, never listed
 * @param complete  false when a node did not answer: it may have members too
 */
public record PresencePart(List<Presence> users, long named, long anonymous, boolean complete) {

  public static final PresencePart EMPTY = new PresencePart(List.of(), 0, 0, true);

  public PresencePart {
    users = List.copyOf(users);
  }

  /** True when users were left out of {@link #users} by the limit. */
  public boolean truncated() {
    return named > users.size();
  }

  /** This part with a node that did not answer in time. */
  public PresencePart incomplete() {
    return new PresencePart(users, named, anonymous, false);
  }

  /** The nodes' parts as one: counts summed, the {@code limit} earliest users of all of them listed. */
  public static PresencePart merge(List<PresencePart> parts, int limit) {
    List<Presence> users = new ArrayList<>();
    long named = 0;
    long anonymous = 0;
    boolean complete = true;
    for (PresencePart part : parts) {
      users.addAll(part.users);
      named += part.named;
      anonymous += part.anonymous;
      complete &= part.complete;
    }
    users.sort(Presence.EARLIEST_FIRST);
    return new PresencePart(users.subList(0, Math.min(limit, users.size())), named, anonymous, complete);
  }
}
