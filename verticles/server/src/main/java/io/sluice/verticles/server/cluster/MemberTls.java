package io.sluice.verticles.server.cluster;

import io.sluice.verticles.engine.time.Clock;
import io.sluice.verticles.server.reload.FileWatch;
import io.sluice.verticles.server.tls.TlsEngine;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.EventBusOptions;
import io.vertx.core.http.ClientAuth;
import io.vertx.core.net.ClientSSLOptions;
import io.vertx.core.net.KeyCertOptions;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.ServerSSLOptions;
import io.vertx.core.net.TrustOptions;

import java.lang.reflect.Field;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Mutual TLS on the clustered event bus, from a node's {@link MemberCredentials}: the bus's server
 * asks every peer for a certificate ({@link ClientAuth#REQUIRED}) and its client presents its own,
 * both checked against the members' CA. So a message a node receives on the bus comes from a
 * holder of the credentials, which {@link MemberAdmission} relies on. TLS 1.3 only: every member
 * is a Sluice node. Peers are not checked by host name (the CA vouches for membership, addresses
 * change); Vert.x's event-bus client does not check them either.
 */
final class MemberTls {

  private static final System.Logger LOG = System.getLogger(MemberTls.class.getName());
  private static final Set<String> PROTOCOLS = Set.of("TLSv1.3");
  /** A peer that has not finished its handshake by then is closed. */
  private static final long HANDSHAKE_TIMEOUT_SECONDS = 10;

  private final KeyCertOptions identity;
  private final TrustOptions trust;

  private MemberTls(KeyCertOptions identity, TrustOptions trust) {
    this.identity = identity;
    this.trust = trust;
  }

  /**
   * The TLS of {@code credentials} as they read now, named {@code nodeName} in a certificate it
   * issues itself (a shared secret's); empty without credentials.
   *
   * @throws IllegalArgumentException a secret too short or unreadable
   */
  static Optional<MemberTls> of(MemberCredentials credentials, String nodeName, Clock clock) {
    credentials.warning().ifPresent(warning -> LOG.log(System.Logger.Level.WARNING, warning));
    return credentials.material(nodeName, Instant.ofEpochSecond(0, clock.epochNanos()))
        .map(material -> new MemberTls(material.identity(), material.trust()));
  }

  /** Turns mutual TLS on for the bus's server and client, before the clustered Vert.x is built. */
  void configure(EventBusOptions options) {
    options.setSsl(true)
        .setSslEngineOptions(TlsEngine.AUTO.options())
        .setKeyCertOptions(identity)
        .setTrustOptions(trust)
        .setClientAuth(ClientAuth.REQUIRED)
        .setEnabledSecureTransportProtocols(PROTOCOLS)
        .setSslHandshakeTimeout(HANDSHAKE_TIMEOUT_SECONDS)
        .setSslHandshakeTimeoutUnit(TimeUnit.SECONDS);
  }

  /**
   * Gives the running bus these certificates: connections made from now on use them, those open
   * keep theirs. Vert.x offers no option for it, so its bus's server and client are found by
   * reflection, as {@link EventBusGuard} finds the server.
   */
  Future<Void> install(Vertx vertx) {
    try {
      NetServer server = (NetServer) field(vertx.eventBus(), "server");
      NetClient client = (NetClient) field(vertx.eventBus(), "client");
      ServerSSLOptions serverSsl = new ServerSSLOptions().setKeyCertOptions(identity).setTrustOptions(trust)
          .setClientAuth(ClientAuth.REQUIRED).setEnabledSecureTransportProtocols(PROTOCOLS)
          .setSslHandshakeTimeout(HANDSHAKE_TIMEOUT_SECONDS).setSslHandshakeTimeoutUnit(TimeUnit.SECONDS);
      ClientSSLOptions clientSsl = new ClientSSLOptions().setKeyCertOptions(identity).setTrustOptions(trust)
          .setEnabledSecureTransportProtocols(PROTOCOLS).setHostnameVerificationAlgorithm("")
          .setSslHandshakeTimeout(HANDSHAKE_TIMEOUT_SECONDS).setSslHandshakeTimeoutUnit(TimeUnit.SECONDS);
      // force: the options name the same files as before, and equal options would be skipped.
      return Future.all(List.of(server.updateSSLOptions(serverSsl, true), client.updateSSLOptions(clientSsl, true)))
          .mapEmpty();
    } catch (ReflectiveOperationException | RuntimeException e) {
      return Future.failedFuture(new IllegalStateException("cannot reach the clustered event bus's TLS in this Vert.x"
          + " version: " + e, e));
    }
  }

  /**
   * Reads {@code credentials} again whenever their files change, and gives the bus what they hold;
   * files that do not load leave the bus with what it had, and say why in one WARNING line.
   */
  static FileWatch watch(Vertx vertx, MemberCredentials credentials, String nodeName, Clock clock) {
    return FileWatch.start(vertx, credentials.files(), () -> vertx.executeBlocking(() -> of(credentials, nodeName, clock)
            .orElseThrow(), false)
        .compose(tls -> tls.install(vertx))
        .onSuccess(v -> LOG.log(System.Logger.Level.INFO, "cluster credentials read again from " + credentials.files()))
        .onFailure(e -> LOG.log(System.Logger.Level.WARNING, "cluster credentials " + credentials.files()
            + " not reloaded, the event bus keeps those it had: " + e.getMessage())));
  }

  private static Object field(Object owner, String name) throws ReflectiveOperationException {
    Field field = owner.getClass().getDeclaredField(name);
    field.setAccessible(true);
    return field.get(owner);
  }
}
