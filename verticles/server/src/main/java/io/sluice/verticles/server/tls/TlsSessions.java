package io.sluice.verticles.server.tls;

import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.vertx.core.net.JdkSSLEngineOptions;
import io.vertx.core.net.OpenSSLEngineOptions;
import io.vertx.core.spi.tls.SslContextFactory;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSessionContext;
import javax.net.ssl.TrustManagerFactory;
import java.util.List;
import java.util.Set;

/**
 * Session resumption on the listeners: a client that reconnects within {@link #TIMEOUT_SECONDS}
 * resumes its session (an abbreviated handshake: no certificate sent, no signature made) instead
 * of a full one. TLS 1.2 resumes by session id from the server's cache or by a ticket, TLS 1.3 by
 * a ticket (a pre-shared key); both engines do both.
 *
 * <p>Bounded: the server's cache holds at most {@link #CACHE_SIZE} sessions, the oldest evicted
 * first, so clients that each make one full handshake cannot grow it; a session or ticket is
 * resumed only within the timeout of the handshake that issued it (under TLS 1.3 a resumed
 * handshake issues a fresh ticket).
 *
 * <p>A certificate reload cannot be bypassed by resuming: each reload builds new server contexts
 * (Vert.x's {@code updateSSLOptions}), and a context has its own session cache and its own ticket
 * keys, drawn at random when it is made. A session or ticket from before the reload is unknown to
 * the new context, so the client makes a full handshake and sees the new certificate, and under
 * mutual TLS its certificate is checked against the new client CA.
 */
public final class TlsSessions {

  /** Sessions the server remembers for resumption by id. */
  public static final int CACHE_SIZE = 10_000;
  /** How long a session (or a ticket) can be resumed after the handshake that issued it. */
  public static final int TIMEOUT_SECONDS = 3_600;

  private TlsSessions() {
  }

  /** The OpenSSL engine, with resumption bounded as above. */
  static OpenSSLEngineOptions openSsl() {
    return new OpenSsl();
  }

  /** The JDK's engine, with resumption bounded as above. */
  static JdkSSLEngineOptions jdk() {
    return new Jdk();
  }

  /** Bounds a server context's sessions; a client context (Sluice connecting out) keeps its defaults. */
  static SslContext bounded(SslContext context) {
    if (context.isServer()) {
      SSLSessionContext sessions = context.sessionContext();
      sessions.setSessionCacheSize(CACHE_SIZE);
      sessions.setSessionTimeout(TIMEOUT_SECONDS);
    }
    return context;
  }

  // Subclasses, not wrappers: Vert.x checks an engine's options by their class (OpenSSL's
  // availability, ALPN support), and copies them with copy().

  private static final class OpenSsl extends OpenSSLEngineOptions {
    OpenSsl() {
    }

    OpenSsl(OpenSsl other) {
      super(other);
    }

    @Override
    public OpenSSLEngineOptions copy() {
      return new OpenSsl(this);
    }

    @Override
    public SslContextFactory sslContextFactory() {
      return new Bounded(super.sslContextFactory());
    }
  }

  private static final class Jdk extends JdkSSLEngineOptions {
    Jdk() {
    }

    Jdk(Jdk other) {
      super(other);
    }

    @Override
    public JdkSSLEngineOptions copy() {
      return new Jdk(this);
    }

    @Override
    public SslContextFactory sslContextFactory() {
      return new Bounded(super.sslContextFactory());
    }
  }

  /** The engine's own factory, whose server contexts it bounds once made. */
  private record Bounded(SslContextFactory factory) implements SslContextFactory {

    @Override
    public SslContextFactory useAlpn(boolean useAlpn) {
      factory.useAlpn(useAlpn);
      return this;
    }

    @Override
    public SslContextFactory clientAuth(ClientAuth clientAuth) {
      factory.clientAuth(clientAuth);
      return this;
    }

    @Override
    public SslContextFactory forClient(boolean forClient) {
      factory.forClient(forClient);
      return this;
    }

    @Override
    public SslContextFactory keyMananagerFactory(KeyManagerFactory kmf) {
      factory.keyMananagerFactory(kmf);
      return this;
    }

    @Override
    public SslContextFactory trustManagerFactory(TrustManagerFactory tmf) {
      factory.trustManagerFactory(tmf);
      return this;
    }

    @Override
    public SslContextFactory enabledCipherSuites(Set<String> enabledCipherSuites) {
      factory.enabledCipherSuites(enabledCipherSuites);
      return this;
    }

    @Override
    public SslContextFactory applicationProtocols(List<String> applicationProtocols) {
      factory.applicationProtocols(applicationProtocols);
      return this;
    }

    @Override
    public SslContextFactory serverName(String serverName) {
      factory.serverName(serverName);
      return this;
    }

    @Override
    public SslContext create() throws SSLException {
      return bounded(factory.create());
    }
  }
}
