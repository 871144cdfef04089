package io.sluice.protocol.binary.client;

import io.sluice.protocol.binary.codec.ValueSize;

import io.vertx.core.net.ClientSSLOptions;

import java.util.Objects;

/** Where a {@link ThrottrClient} connects and how much it keeps in flight. */
public class ThrottrClientOptions {

  public static final String DEFAULT_HOST = "127.0.0.1";
  public static final int DEFAULT_PORT = 9000;
  public static final ValueSize DEFAULT_VALUE_SIZE = ValueSize.UINT16;
  public static final int DEFAULT_MAX_PENDING = 1024;

  private String host = DEFAULT_HOST;
  private int port = DEFAULT_PORT;
  private ValueSize valueSize = DEFAULT_VALUE_SIZE;
  private int maxPending = DEFAULT_MAX_PENDING;
  private ClientSSLOptions tls;

  public ThrottrClientOptions() {
  }

  public ThrottrClientOptions(ThrottrClientOptions other) {
    this.host = other.host;
    this.port = other.port;
    this.valueSize = other.valueSize;
    this.maxPending = other.maxPending;
    this.tls = other.tls == null ? null : new ClientSSLOptions(other.tls);
  }

  public String getHost() {
    return host;
  }

  public ThrottrClientOptions setHost(String host) {
    this.host = Objects.requireNonNull(host, "host");
    return this;
  }

  public int getPort() {
    return port;
  }

  public ThrottrClientOptions setPort(int port) {
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException("port must be 1..65535, not " + port);
    }
    this.port = port;
    return this;
  }

  /** N, which nothing on the wire reveals: it must match the server's build (spec §1.2). */
  public ValueSize getValueSize() {
    return valueSize;
  }

  public ThrottrClientOptions setValueSize(ValueSize valueSize) {
    this.valueSize = Objects.requireNonNull(valueSize, "valueSize");
    return this;
  }

  public int getMaxPending() {
    return maxPending;
  }

  /**
   * How many requests may wait for their reply at once. A request that would go past this bound is
   * not sent: its future fails at once with {@link PendingQueueFullException} (a batch fails as a
   * whole), so memory stays bounded however fast the caller sends.
   */
  public ThrottrClientOptions setMaxPending(int maxPending) {
    if (maxPending < 1) {
      throw new IllegalArgumentException("maxPending must be at least 1, not " + maxPending);
    }
    this.maxPending = maxPending;
    return this;
  }

  /** TLS settings (trusted CAs, a client certificate for mTLS); null for plain TCP. */
  public ClientSSLOptions getTls() {
    return tls;
  }

  /**
   * Connects over TLS with these settings: {@code setTrustOptions} for the server's CA, and
   * {@code setKeyCertOptions} for a client certificate when the server asks for one; null for
   * plain TCP (the default). {@code setHostnameVerificationAlgorithm("HTTPS")} checks that the
   * certificate names the host connected to.
   */
  public ThrottrClientOptions setTls(ClientSSLOptions tls) {
    this.tls = tls;
    return this;
  }
}
