package io.sluice.gateway.config;

import java.nio.file.Path;

/**
 * The rows of the option table ({@link Options#ALL}) for the WebSocket bridge: who may connect
 * (tokens, anonymous use, public channels), how much each connection and publisher may do, and
 * the history channels keep.
 */
public final class WebSocketOptions {

  private WebSocketOptions() {
  }

  public static final Option<Integer> MAX_SUBSCRIPTIONS = Option.valued("max-subscriptions", "N", ValueType.integer(2, 10_000_000))
      .yaml("max-subscriptions").environment()
      .defaultValue(10_000)
      .describedAs("Subscription records one Throttr or WebSocket connection may hold (* and its own ID among them); a SUBSCRIBE past it answers 00, a WebSocket gets an error.");

  public static final Option<Integer> CHANNEL_HISTORY = Option.valued("channel-history", "N", ValueType.integer(0, 100_000))
      .yaml("channel-history").environment()
      .defaultValue(0)
      .describedAs("Messages each channel's owner keeps, numbered (offset, epoch), for WebSocket clients to recover after a disconnect; 0 keeps none.");

  public static final Option<java.time.Duration> CHANNEL_HISTORY_TTL = Option.valued("channel-history-ttl", "DURATION", ValueType.duration(java.time.Duration.ofDays(30), true))
      .yaml("channel-history-ttl").environment()
      .defaultValue(java.time.Duration.ZERO)
      .describedAs("How long a channel's history keeps a message (10m, 24h); off keeps it until --channel-history newer ones push it out.");

  public static final Option<Path> WS_JWT_SECRET_FILE = Option.valued("ws-jwt-secret-file", "FILE", ValueType.path())
      .yaml("websocket.jwt-secret-file").environment()
      .describedAs("WebSocket users' tokens (JWT) signed HS256, HS384 or HS512 with the secret in this file (at least 32 bytes); reloaded when it changes (docs/websocket.md).");

  public static final Option<java.util.List<Path>> WS_JWT_PUBLIC_KEY = Option.valued("ws-jwt-public-key", "FILES", WebSocketValueTypes.paths())
      .yaml("websocket.jwt-public-keys").environment()
      .defaultValue(java.util.List::<Path>of, "none")
      .describedAs("WebSocket users' tokens signed RS256 or ES256: PEM public keys, comma-separated (the old and the new key during a rotation); reloaded when they change.");

  public static final Option<Path> WS_JWT_JWKS_FILE = Option.valued("ws-jwt-jwks-file", "FILE", ValueType.path())
      .yaml("websocket.jwt-jwks-file").environment()
      .describedAs("WebSocket users' tokens checked against the keys of this JWKS document ({\"keys\":[...]}); reloaded when it changes.");

  public static final Option<String> WS_JWT_AUDIENCE = Option.valued("ws-jwt-audience", "AUD", WebSocketValueTypes.claim())
      .yaml("websocket.jwt-audience").environment()
      .describedAs("When set, a WebSocket user's token must name it in aud.");

  public static final Option<String> WS_JWT_ISSUER = Option.valued("ws-jwt-issuer", "ISS", WebSocketValueTypes.claim())
      .yaml("websocket.jwt-issuer").environment()
      .describedAs("When set, a WebSocket user's token must have it as iss.");

  public static final Option<String> WS_ANONYMOUS = Option.valued("ws-anonymous", "none|subscribe|all", ValueType.oneOf("none", "subscribe", "all"))
      .yaml("websocket.anonymous").environment()
      .defaultValue(() -> null, "none with --auth-token or a JWT key, all otherwise")
      .describedAs("What WebSocket clients without a token may do: none until they authenticate; subscribe to --ws-public-channels only; all channels but * and other connections' ID channels (protected mode still takes their publishes from loopback only).");

  public static final Option<java.util.List<String>> WS_PUBLIC_CHANNELS = Option.valued("ws-public-channels", "LIST", WebSocketValueTypes.channelPatterns())
      .yaml("websocket.public-channels").environment()
      .defaultValue(java.util.List::<String>of, "none")
      .describedAs("Channels anonymous WebSocket clients may read with --ws-anonymous subscribe: comma-separated names, a trailing * for a prefix (news,status.*).");

  public static final Option<String> WS_PUBLISH_RATE = Option.valued("ws-publish-rate", "POLICY", ValueType.simpleName())
      .yaml("websocket.publish-rate").environment()
      .describedAs("A check-API policy (policies: in the config file) every WebSocket publish counts against, per user (per connection when anonymous); a publish over it gets {\"event\":\"error\",\"op\":\"publish\",\"reason\":\"rate limited\",\"retry_after_ms\":N}.");
}
