package io.sluice.verticles.server.tls;

import io.vertx.core.Vertx;
import io.vertx.core.net.PemKeyCertOptions;

import javax.net.ssl.KeyManager;
import javax.net.ssl.X509KeyManager;
import java.nio.charset.StandardCharsets;
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
   * Reads {@code settings}' certificate and key files (blocking) and checks each key against the
   * first certificate of its chain.
   *
   * @throws IllegalArgumentException naming both files, when they do not load or do not match
   */
  public static void verify(Vertx vertx, TlsSettings settings) {
    PemKeyCertOptions files = new PemKeyCertOptions().setCertPath(settings.certificate().toString())
        .setKeyPath(settings.key().toString());
    boolean checked = false;
    try {
      KeyStore store = files.loadKeyStore(vertx);
      X509KeyManager keys = x509(files.getKeyManagerFactory(vertx).getKeyManagers());
      for (String alias : Collections.list(store.aliases())) {
        PrivateKey key = keys.getPrivateKey(alias);
        X509Certificate[] chain = keys.getCertificateChain(alias);
        if (key != null && chain != null && chain.length > 0) {
          checked = true;
          if (!matches(key, chain[0].getPublicKey())) {
            throw new IllegalArgumentException("the private key in " + settings.key()
                + " does not match the certificate in " + settings.certificate());
          }
        }
      }
    } catch (IllegalArgumentException mismatch) {
      throw mismatch;
    } catch (Exception unreadable) {
      throw new IllegalArgumentException(settings.certificate() + " and " + settings.key() + " do not load: "
          + unreadable.getMessage(), unreadable);
    }
    if (!checked) {
      throw new IllegalArgumentException("no private key and certificate found in " + settings.key() + " and "
          + settings.certificate());
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
