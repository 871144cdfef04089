package io.sluice.verticles.server.wsauth;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Claims to permissions, and the rules every connection obeys, without sockets. */
class ChannelAccessTest {

  private static final String OWN_ID = "0123456789abcdef0123456789abcdef";
  private static final String OTHER_ID = "fedcba9876543210fedcba9876543210";

  private static ChannelAccess.User user(String claim) {
    return new ChannelAccess.User("alice", ChannelGrants.of(new JsonObject().put("sluice", new JsonObject(claim))), 0);
  }

  @Test
  void patternsAreExactNamesOrATrailingStar() {
    assertThat(ChannelPattern.parse("chat.*").matches("chat.a")).isTrue();
    assertThat(ChannelPattern.parse("chat.*").matches("chat.")).isTrue();
    assertThat(ChannelPattern.parse("chat.*").matches("chatroom")).isFalse();
    assertThat(ChannelPattern.parse("news").matches("news")).isTrue();
    assertThat(ChannelPattern.parse("news").matches("news2")).isFalse();
    assertThat(ChannelPattern.parse("a*b").matches("a*b")).as("a * inside is a plain character").isTrue();
    assertThat(ChannelPattern.parse("a*b").matches("axb")).isFalse();
    assertThat(ChannelPattern.parse("*").matches("anything")).isTrue();
  }

  @Test
  void aUserMayDoWhatItsClaimGrants() {
    ChannelAccess.User user = user("{\"subscribe\":[\"news\",\"chat.*\"],\"publish\":[\"chat.room1\"],\"presence\":true}");
    assertThat(user.maySubscribe("chat.a", OWN_ID)).isTrue();
    assertThat(user.maySubscribe("news", OWN_ID)).isTrue();
    assertThat(user.maySubscribe("admin", OWN_ID)).isFalse();
    assertThat(user.mayPublish("chat.room1")).isTrue();
    assertThat(user.mayPublish("chat.room2")).isFalse();
    assertThat(user.presence()).isTrue();
    assertThat(user.user()).contains("alice");
    assertThat(user.mayUseThrottrFrames()).isFalse();
  }

  @Test
  void aMissingClaimGrantsNothingAndAMalformedOneIsRefused() {
    ChannelGrants none = ChannelGrants.of(new JsonObject().put("sub", "bob"));
    assertThat(none).isEqualTo(ChannelGrants.NONE);
    assertThatThrownBy(() -> ChannelGrants.of(new JsonObject().put("sluice", new JsonObject().put("subscribe", "news"))))
        .hasMessageContaining("array");
    assertThatThrownBy(() -> ChannelGrants.of(new JsonObject().put("sluice", new JsonObject().put("publish", List.of(1)))))
        .hasMessageContaining("strings");
    assertThatThrownBy(() -> ChannelGrants.of(new JsonObject().put("sluice", new JsonObject().put("presence", "yes"))))
        .hasMessageContaining("presence");
  }

  /** Even a grant of every channel ({@code *} as a pattern) reaches neither the broadcast nor another's ID. */
  @Test
  void theBroadcastNeedsTheAdminAndAnIdChannelItsOwner() {
    ChannelAccess.User everything = user("{\"subscribe\":[\"*\"],\"publish\":[\"*\"]}");
    assertThat(everything.maySubscribe("*", OWN_ID)).isFalse();
    assertThat(everything.mayPublish("*")).isFalse();
    assertThat(everything.maySubscribe(OTHER_ID, OWN_ID)).isFalse();
    assertThat(everything.mayPublish(OTHER_ID)).isFalse();
    assertThat(everything.maySubscribe(OWN_ID, OWN_ID)).isTrue();
    ChannelAccess admin = new ChannelAccess.Admin();
    assertThat(admin.maySubscribe("*", OWN_ID)).isTrue();
    assertThat(admin.mayPublish("*")).isTrue();
    assertThat(admin.mayPublish(OTHER_ID)).as("the admin may message a connection").isTrue();
    assertThat(admin.maySubscribe(OTHER_ID, OWN_ID)).as("but not read another's ID channel").isFalse();
    assertThat(admin.mayUseThrottrFrames()).isTrue();
    assertThat(ChannelAccess.isIdChannel(OTHER_ID.toUpperCase(java.util.Locale.ROOT))).isFalse();
  }

  @Test
  void anonymousModes() {
    List<ChannelPattern> publicChannels = List.of(ChannelPattern.parse("news"), ChannelPattern.parse("status.*"));
    ChannelAccess none = new ChannelAccess.Anonymous(AnonymousMode.NONE, publicChannels, false);
    assertThat(none.admitted()).isFalse();
    assertThat(none.maySubscribe("news", OWN_ID)).isFalse();
    ChannelAccess reader = new ChannelAccess.Anonymous(AnonymousMode.SUBSCRIBE, publicChannels, false);
    assertThat(reader.maySubscribe("status.eu", OWN_ID)).isTrue();
    assertThat(reader.maySubscribe("chat", OWN_ID)).isFalse();
    assertThat(reader.mayPublish("news")).isFalse();
    ChannelAccess open = new ChannelAccess.Anonymous(AnonymousMode.ALL, List.of(), true);
    assertThat(open.maySubscribe("chat", OWN_ID)).isTrue();
    assertThat(open.mayPublish("chat")).isTrue();
    assertThat(open.maySubscribe("*", OWN_ID)).isFalse();
    assertThat(open.mayUseThrottrFrames()).isTrue();
    assertThat(new ChannelAccess.Anonymous(AnonymousMode.ALL, List.of(), false).mayUseThrottrFrames()).isFalse();
    assertThat(AnonymousMode.parse(" Subscribe ")).isEqualTo(AnonymousMode.SUBSCRIBE);
    assertThatThrownBy(() -> AnonymousMode.parse("some")).hasMessageContaining("none, subscribe or all");
  }

  @Test
  void theDefaultModeFollowsTheCredentials() {
    WebSocketAccessSettings settings = WebSocketAccessSettings.defaults();
    assertThat(settings.anonymousMode(false)).isEqualTo(AnonymousMode.ALL);
    assertThat(settings.anonymousMode(true)).isEqualTo(AnonymousMode.NONE);
    assertThat(settings.withJwtSecretFile(java.util.Optional.of(java.nio.file.Path.of("s"))).anonymousMode(false))
        .isEqualTo(AnonymousMode.NONE);
    assertThat(settings.withAnonymous(java.util.Optional.of(AnonymousMode.SUBSCRIBE)).anonymousMode(true))
        .isEqualTo(AnonymousMode.SUBSCRIBE);
  }

  @Test
  void jwtShape() {
    assertThat(TokenVerifier.looksLikeJwt("a.b.c")).isTrue();
    assertThat(TokenVerifier.looksLikeJwt("a.b.")).isTrue();
    assertThat(TokenVerifier.looksLikeJwt("s3cret-token")).isFalse();
    assertThat(TokenVerifier.looksLikeJwt("a..c")).isFalse();
    assertThat(TokenVerifier.looksLikeJwt("a.b.c.d")).isFalse();
  }
}
