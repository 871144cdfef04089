package io.sluice.verticles.server.wsauth;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Who may do what on the WebSocket bridge (docs/websocket.md). Built with {@link #defaults()} and
 * the {@code with…} methods.
 *
 * @param jwtSecretFile   the HMAC secret of HS256/384/512 tokens ({@code --ws-jwt-secret-file})
 * @param jwtPublicKeys   PEM public keys of RS256 and ES256 tokens, several during a rotation
 * @param jwksFile        a JWKS document ({@code --ws-jwt-jwks-file})
 * @param audience        when present, a token's {@code aud} must name it
 * @param issuer          when present, a token's {@code iss} must be it
 * @param anonymous       what clients without a token may do; empty: none when a credential is
 *                        configured, all otherwise (with protected mode's loopback-only writes)
 * @param publicChannels  what anonymous clients in mode subscribe may read
 * @param publishPolicy   the check-API policy each user's (or anonymous connection's) publishes obey
 */
public record WebSocketAccessSettings(Optional<Path> jwtSecretFile, List<Path> jwtPublicKeys, Optional<Path> jwksFile,
                                      Optional<String> audience, Optional<String> issuer,
                                      Optional<AnonymousMode> anonymous, List<ChannelPattern> publicChannels,
                                      Optional<String> publishPolicy) {

  public WebSocketAccessSettings {
    jwtPublicKeys = List.copyOf(jwtPublicKeys);
    publicChannels = List.copyOf(publicChannels);
  }

  public static WebSocketAccessSettings defaults() {
    return new WebSocketAccessSettings(Optional.empty(), List.of(), Optional.empty(), Optional.empty(), Optional.empty(),
        Optional.empty(), List.of(), Optional.empty());
  }

  /** Whether any JWT key is configured. */
  public boolean jwt() {
    return jwtSecretFile.isPresent() || !jwtPublicKeys.isEmpty() || jwksFile.isPresent();
  }

  /** Every key file, for watching. */
  public List<Path> keyFiles() {
    List<Path> files = new ArrayList<>();
    jwtSecretFile.ifPresent(files::add);
    files.addAll(jwtPublicKeys);
    jwksFile.ifPresent(files::add);
    return List.copyOf(files);
  }

  /** The mode anonymous clients get: the configured one, or the default that follows the credentials. */
  public AnonymousMode anonymousMode(boolean adminTokenRequired) {
    return anonymous.orElse(adminTokenRequired || jwt() ? AnonymousMode.NONE : AnonymousMode.ALL);
  }

  public WebSocketAccessSettings withJwtSecretFile(Optional<Path> file) {
    return new WebSocketAccessSettings(file, jwtPublicKeys, jwksFile, audience, issuer, anonymous, publicChannels,
        publishPolicy);
  }

  public WebSocketAccessSettings withJwtPublicKeys(List<Path> files) {
    return new WebSocketAccessSettings(jwtSecretFile, files, jwksFile, audience, issuer, anonymous, publicChannels,
        publishPolicy);
  }

  public WebSocketAccessSettings withJwksFile(Optional<Path> file) {
    return new WebSocketAccessSettings(jwtSecretFile, jwtPublicKeys, file, audience, issuer, anonymous, publicChannels,
        publishPolicy);
  }

  public WebSocketAccessSettings withAudience(Optional<String> audience) {
    return new WebSocketAccessSettings(jwtSecretFile, jwtPublicKeys, jwksFile, audience, issuer, anonymous,
        publicChannels, publishPolicy);
  }

  public WebSocketAccessSettings withIssuer(Optional<String> issuer) {
    return new WebSocketAccessSettings(jwtSecretFile, jwtPublicKeys, jwksFile, audience, issuer, anonymous,
        publicChannels, publishPolicy);
  }

  public WebSocketAccessSettings withAnonymous(Optional<AnonymousMode> anonymous) {
    return new WebSocketAccessSettings(jwtSecretFile, jwtPublicKeys, jwksFile, audience, issuer, anonymous,
        publicChannels, publishPolicy);
  }

  public WebSocketAccessSettings withPublicChannels(List<ChannelPattern> publicChannels) {
    return new WebSocketAccessSettings(jwtSecretFile, jwtPublicKeys, jwksFile, audience, issuer, anonymous,
        publicChannels, publishPolicy);
  }

  public WebSocketAccessSettings withPublishPolicy(Optional<String> publishPolicy) {
    return new WebSocketAccessSettings(jwtSecretFile, jwtPublicKeys, jwksFile, audience, issuer, anonymous,
        publicChannels, publishPolicy);
  }
}
