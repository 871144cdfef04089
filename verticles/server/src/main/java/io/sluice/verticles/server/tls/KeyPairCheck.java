package io.sluice.verticles.server.tls;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.PemKeyCertOptions;

import javax.net.ssl.KeyManager;
import javax.net.ssl.X509KeyManager;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.util.Collections;
import java.util.Locale;
import java.util.Optional;

/**
 * Whether a private key belongs to the certificate it is to be served with, before a listener is
 * given the pair. Loading a key that does not match succeeds; only handshakes fail after it
 * (OpenSSL: KEY_VALUES_MISMATCH), all of them, on every listener. So the key signs a probe and the
 * certificate's public key must verify it.
 */
public final class KeyPairCheck {

  private static final byte[] PROBE = "sluice: does this key match its certificate?".getBytes(StandardCharsets.US_ASCII);

  private KeyPairCheck() {
  }

  /**
   * Reads a certificate chain (leaf first) and its key, each file once, and checks the key against
   * the chain's first certificate. What it returns holds the bytes read, not the paths: the pair a
   * listener is given is the pair checked, even when a renewal rewrites the files in between.
   *
   * @throws IllegalArgumentException naming both files, when they do not load or do not match
   */
  public static PemKeyCertOptions read(Path certificate, Path key) {
    PemKeyCertOptions pair;
    try {
      pair = new PemKeyCertOptions().setCertValue(Buffer.buffer(Files.readAllBytes(certificate)))
          .setKeyValue(Buffer.buffer(Files.readAllBytes(key)));
    } catch (IOException | RuntimeException unreadable) {
      throw new IllegalArgumentException(certificate + " and " + key + " do not load: " + unreadable, unreadable);
    }
    verify(pair, certificate, key);
    return pair;
  }

  private static void verify(PemKeyCertOptions pair, Path certificate, Path key) {
    boolean checked = false;
    try {
      // No Vert.x: the pair holds its bytes, and Vert.x needs one only to read paths.
      KeyStore store = pair.loadKeyStore(null);
      X509KeyManager keys = x509(pair.getKeyManagerFactory(null).getKeyManagers());
      for (String alias : Collections.list(store.aliases())) {
        PrivateKey privateKey = keys.getPrivateKey(alias);
        X509Certificate[] chain = keys.getCertificateChain(alias);
        if (privateKey != null && chain != null && chain.length > 0) {
          checked = true;
          if (!matches(privateKey, chain[0].getPublicKey())) {
            throw new IllegalArgumentException("the private key in " + key + " does not match the certificate in "
                + certificate);
          }
        }
      }
    } catch (IllegalArgumentException mismatch) {
      throw mismatch;
    } catch (Exception unreadable) {
      throw new IllegalArgumentException(certificate + " and " + key + " do not load: " + unreadable.getMessage(),
          unreadable);
    }
    if (!checked) {
      throw new IllegalArgumentException("no private key and certificate found in " + key + " and " + certificate);
    }
  }

  private static X509KeyManager x509(KeyManager[] managers) {
    for (KeyManager manager : managers) {
      if (manager instanceof X509KeyManager x509) {
        return x509;
      }
    }
    throw new IllegalStateException("no X.509 key manager for the key and certificate");
  }

  /** True when {@code publicKey} verifies what {@code key} signs; true too for a key type not known here. */
  static boolean matches(PrivateKey key, PublicKey publicKey) throws GeneralSecurityException {
    if (!key.getAlgorithm().equalsIgnoreCase(publicKey.getAlgorithm())) {
      return false;
    }
    Optional<String> algorithm = signatureAlgorithm(key.getAlgorithm());
    if (algorithm.isEmpty()) {
      return true;
    }
    Signature signer = Signature.getInstance(algorithm.get());
    signer.initSign(key);
    signer.update(PROBE);
    byte[] signature = signer.sign();
    Signature verifier = Signature.getInstance(algorithm.get());
    verifier.initVerify(publicKey);
    verifier.update(PROBE);
    return verifier.verify(signature);
  }

  /** The signature a TLS server key of this type makes; empty for one this check cannot try (RSASSA-PSS keys). */
  private static Optional<String> signatureAlgorithm(String keyAlgorithm) {
    return switch (keyAlgorithm.toUpperCase(Locale.ROOT)) {
      case "RSA" -> Optional.of("SHA256withRSA");
      case "EC" -> Optional.of("SHA256withECDSA");
      case "DSA" -> Optional.of("SHA256withDSA");
      case "ED25519", "ED448", "EDDSA" -> Optional.of(keyAlgorithm);
      default -> Optional.empty();
    };
  }
}
