package io.sluice.verticles.engine.channel;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** The local registry of who is present where, and the merge of the nodes' parts. */
class PresenceRegistryTest {

  private static final ChannelName CHAT = new ChannelName("chat".getBytes(StandardCharsets.UTF_8));

  private static Presence user(String name, String connection, long since) {
    return new Presence(Optional.of(name), connection, since);
  }

  private static Presence anonymous(String connection, long since) {
    return new Presence(Optional.empty(), connection, since);
  }

  @Test
  void aConnectionIsPresentOnceAndLeavesOnce() {
    PresenceRegistry registry = new PresenceRegistry();
    assertThat(registry.join(CHAT, user("alice", "c1", 5))).isTrue();
    assertThat(registry.join(CHAT, user("alice", "c1", 9))).as("a second subscription is no second join").isFalse();
    assertThat(registry.count(CHAT)).isEqualTo(1);
    assertThat(registry.part(CHAT, 10).users()).containsExactly(user("alice", "c1", 5));

    assertThat(registry.leave(CHAT, "c1")).contains(user("alice", "c1", 5));
    assertThat(registry.leave(CHAT, "c1")).isEmpty();
    assertThat(registry.count(CHAT)).isZero();
    assertThat(registry.part(CHAT, 10)).isEqualTo(PresencePart.EMPTY);
  }

  @Test
  void anonymousConnectionsAreCountedNotListed() {
    PresenceRegistry registry = new PresenceRegistry();
    registry.join(CHAT, anonymous("c1", 1));
    registry.join(CHAT, user("bob", "c2", 2));
    PresencePart part = registry.part(CHAT, 10);
    assertThat(part.users()).containsExactly(user("bob", "c2", 2));
    assertThat(part.anonymous()).isEqualTo(1);
    assertThat(part.named()).isEqualTo(1);
    assertThat(registry.count(CHAT)).isEqualTo(2);
  }

  @Test
  void aPartListsTheEarliestUsersUpToTheLimitAndCountsThemAll() {
    PresenceRegistry registry = new PresenceRegistry();
    registry.join(CHAT, user("late", "c3", 30));
    registry.join(CHAT, user("early", "c1", 10));
    registry.join(CHAT, user("middle", "c2", 20));
    PresencePart part = registry.part(CHAT, 2);
    assertThat(part.users()).extracting(Presence::user).containsExactly(Optional.of("early"), Optional.of("middle"));
    assertThat(part.named()).isEqualTo(3);
    assertThat(part.truncated()).isTrue();
    assertThat(registry.part(CHAT, 3).truncated()).isFalse();
  }

  @Test
  void theMergeSumsTheNodesAndKeepsTheEarliestUsers() {
    PresencePart a = new PresencePart(List.of(user("alice", "a1", 10), user("carol", "a2", 30)), 2, 1, true);
    PresencePart b = new PresencePart(List.of(user("bob", "b1", 20)), 5, 2, true);
    PresencePart merged = PresencePart.merge(List.of(a, b), 2);
    assertThat(merged.users()).containsExactly(user("alice", "a1", 10), user("bob", "b1", 20));
    assertThat(merged.named()).isEqualTo(7);
    assertThat(merged.anonymous()).isEqualTo(3);
    assertThat(merged.truncated()).isTrue();
    assertThat(merged.complete()).isTrue();
    assertThat(PresencePart.merge(List.of(a, b.incomplete()), 10).complete()).isFalse();
    assertThat(PresencePart.merge(List.of(), 10)).isEqualTo(PresencePart.EMPTY);
  }
}
