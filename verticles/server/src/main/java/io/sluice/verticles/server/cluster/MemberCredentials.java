package io.sluice.verticles.server.cluster;

import io.sluice.verticles.server.tls.KeyPairCheck;
import io.sluice.verticles.server.tls.SecretAuthority;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.KeyCertOptions;
import io.vertx.core.net.PemKeyCertOptions;
import io.vertx.core.net.PemTrustOptions;
import io.vertx.core.net.TrustOptions;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * What a node proves to the other members, and asks of them, on the clustered event bus: nothing
 * (plain text, anyone who reaches the port is heard), certificates from the operator's CA
 * ({@code --cluster-tls-*}), or a secret shared by the members ({@code --cluster-secret-file}),
 * from which every node derives the same CA ({@link io.sluice.verticles.server.tls.SecretAuthority}).
 * With either of the last two the bus speaks mutual TLS and only a holder of the credentials can
 * send or receive a member's message.
 */
public sealed interface MemberCredentials {

  /** No credentials: the bus is plain text and admits anyone who reaches it. */
  MemberCredentials NONE = new None();

  /** The files to watch: a change reloads the certificates of the bus. */
  List<Path> files();

  /** Whether a member must prove itself (mutual TLS on the event bus). */
  default boolean required() {
    return !files().isEmpty();
  }

  /**
   * This node's certificate and the CAs it trusts, as the files read now; empty without
   * credentials. {@code nodeName} names the certificate a node issues itself (a shared secret's).
   *
   * @throws IllegalArgumentException a secret too short or unreadable
   */
  Optional<Material> material(String nodeName, Instant now);

  /** What the operator should hear at start about these credentials (a secret others may read). */
  default Optional<String> warning() {
    return Optional.empty();
  }

  /** What TLS is configured with: this node's key and chain, and the CAs whose members it accepts. */
  record Material(KeyCertOptions identity, TrustOptions trust) {
  }

  /** Plain text. */
  record None() implements MemberCredentials {
    @Override
    public List<Path> files() {
      return List.of();
    }

    @Override
    public Optional<Material> material(String nodeName, Instant now) {
      return Optional.empty();
    }
  }

  /**
   * PEM files of the operator's PKI: this node's chain (leaf first), its key, and the CAs whose
   * certificates the members present.
   */
  record Certificates(Path certificate, Path key, Path ca) implements MemberCredentials {
    @Override
    public List<Path> files() {
      return List.of(certificate, key, ca);
    }

    @Override
    public Optional<Material> material(String nodeName, Instant now) {
      // Read and checked here, once: a renewal caught half written (a new certificate, the old key)
      // is refused, where installed it would fail every member's handshake with this node.
      return Optional.of(new Material(KeyPairCheck.read(certificate, key), new PemTrustOptions().addCertPath(ca.toString())));
    }
  }

  /** A file holding the members' shared secret. */
  record SharedSecret(Path file) implements MemberCredentials {
    @Override
    public List<Path> files() {
      return List.of(file);
    }

    @Override
    public Optional<String> warning() {
      return SecretAuthority.exposure(file);
    }

    /** A fresh leaf for this node, signed by the CA every holder of the secret derives alike. */
    @Override
    public Optional<Material> material(String nodeName, Instant now) {
      SecretAuthority.Identity issued = SecretAuthority.fromFile(file, now).issue(nodeName, now);
      return Optional.of(new Material(
          new PemKeyCertOptions().setCertValue(Buffer.buffer(issued.chain())).setKeyValue(Buffer.buffer(issued.key())),
          new PemTrustOptions().addCertValue(Buffer.buffer(issued.ca()))));
    }
  }
}
