package io.sluice.verticles.server.tls;

import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.crypto.digests.SHA256Digest;
import org.bouncycastle.crypto.generators.HKDFBytesGenerator;
import org.bouncycastle.crypto.params.HKDFParameters;
import org.bouncycastle.jce.ECNamedCurveTable;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.jce.spec.ECNamedCurveParameterSpec;
import org.bouncycastle.jce.spec.ECPrivateKeySpec;
import org.bouncycastle.jce.spec.ECPublicKeySpec;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

import java.io.IOException;
import java.io.StringWriter;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Provider;
import java.security.SecureRandom;
import java.security.spec.ECGenParameterSpec;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.Date;
import java.util.Optional;
import java.util.Set;

/**
 * A CA that every holder of one secret derives alike, for members that run no PKI
 * ({@code --cluster-secret-file}): the CA's private key is HKDF-SHA256 of the secret, taken as a
 * P-256 scalar, so its public key (and so the trust anchor) is the same on every node, and only
 * a holder of the secret can sign a certificate the others accept. Each node issues itself a
 * fresh leaf at start; the secret never travels, and a captured handshake does not reveal it
 * (it is ECDSA's private key, never a password sent).
 */
public final class SecretAuthority {

  /** 32 bytes: 256 bits when random, as {@code openssl rand -base64 32} gives (44 characters). */
  public static final int MIN_SECRET_BYTES = 32;
  private static final String CURVE = "secp256r1";
  private static final byte[] SALT = "sluice cluster secret CA".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] INFO = "P-256 private key v1".getBytes(StandardCharsets.US_ASCII);
  private static final Provider BC = new BouncyCastleProvider();
  private static final X500Name CA_NAME = new X500Name("CN=Sluice cluster (shared secret)");

  /** PEM texts a TLS endpoint is configured with: its chain (leaf, CA), its key, the CA to trust. */
  public record Identity(String chain, String key, String ca) {
  }

  private final KeyPair ca;
  private final X509CertificateHolder caCertificate;

  private SecretAuthority(byte[] secret, Instant now) {
    this.ca = derive(secret);
    try {
      this.caCertificate = new JcaX509v3CertificateBuilder(CA_NAME, serial(), Date.from(now.minus(1, ChronoUnit.DAYS)),
          Date.from(now.plus(36_500, ChronoUnit.DAYS)), CA_NAME, ca.getPublic())
          .addExtension(Extension.basicConstraints, true, new BasicConstraints(true))
          .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign))
          .build(signer(ca));
    } catch (IOException | OperatorCreationException e) {
      throw new IllegalStateException("cannot make the cluster's CA certificate: " + e.getMessage(), e);
    }
  }

  /**
   * The authority of the secret in {@code file} (its bytes, trailing white space and line breaks
   * left out).
   *
   * @throws IllegalArgumentException the file cannot be read, or holds fewer than {@link #MIN_SECRET_BYTES}
   */
  public static SecretAuthority fromFile(Path file, Instant now) {
    byte[] secret;
    try {
      secret = trimmed(Files.readAllBytes(file));
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read the cluster secret " + file + ": " + e, e);
    }
    if (secret.length < MIN_SECRET_BYTES) {
      throw new IllegalArgumentException("the cluster secret in " + file + " has " + secret.length + " bytes; it needs at"
          + " least " + MIN_SECRET_BYTES + " (make one with: openssl rand -base64 32 > " + file + ")");
    }
    try {
      return new SecretAuthority(secret, now);
    } finally {
      Arrays.fill(secret, (byte) 0);
    }
  }

  /** A warning when others than the owner may read {@code file}, as ssh says of a private key. */
  public static Optional<String> exposure(Path file) {
    try {
      Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(file);
      boolean exposed = permissions.contains(PosixFilePermission.GROUP_READ)
          || permissions.contains(PosixFilePermission.OTHERS_READ);
      return exposed ? Optional.of("the cluster secret " + file + " can be read by other users than its owner ("
          + java.nio.file.attribute.PosixFilePermissions.toString(permissions) + "): whoever reads it can join the"
          + " cluster; chmod 600 it") : Optional.empty();
    } catch (UnsupportedOperationException | IOException notPosix) {
      return Optional.empty();
    }
  }

  /** A fresh key pair for this node and its certificate, signed by the secret's CA. */
  public Identity issue(String nodeName, Instant now) {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
      generator.initialize(new ECGenParameterSpec(CURVE));
      KeyPair leaf = generator.generateKeyPair();
      X509CertificateHolder certificate = new JcaX509v3CertificateBuilder(CA_NAME, serial(),
          Date.from(now.minus(1, ChronoUnit.DAYS)), Date.from(now.plus(36_500, ChronoUnit.DAYS)),
          new X500Name("CN=" + nodeName.replaceAll("[^A-Za-z0-9.:_-]", "_")), leaf.getPublic())
          .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
          .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature))
          .addExtension(Extension.extendedKeyUsage, false,
              new ExtendedKeyUsage(new KeyPurposeId[] {KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth}))
          .build(signer(ca));
      return new Identity(pem(certificate) + pem(caCertificate), pem(new JcaPKCS8Generator(leaf.getPrivate(), null)),
          pem(caCertificate));
    } catch (GeneralSecurityException | IOException | OperatorCreationException e) {
      throw new IllegalStateException("cannot issue this node's cluster certificate: " + e.getMessage(), e);
    }
  }

  /** The CA's public key, the same for every holder of the secret. */
  public java.security.PublicKey publicKey() {
    return ca.getPublic();
  }

  private static KeyPair derive(byte[] secret) {
    ECNamedCurveParameterSpec curve = ECNamedCurveTable.getParameterSpec(CURVE);
    HKDFBytesGenerator hkdf = new HKDFBytesGenerator(new SHA256Digest());
    hkdf.init(new HKDFParameters(secret, SALT, INFO));
    // 48 bytes reduced modulo n - 1: the bias is below 2^-128 (FIPS 186-4, B.4.1).
    byte[] material = new byte[48];
    hkdf.generateBytes(material, 0, material.length);
    BigInteger scalar = new BigInteger(1, material).mod(curve.getN().subtract(BigInteger.ONE)).add(BigInteger.ONE);
    Arrays.fill(material, (byte) 0);
    try {
      KeyFactory factory = KeyFactory.getInstance("EC", BC);
      return new KeyPair(factory.generatePublic(new ECPublicKeySpec(curve.getG().multiply(scalar).normalize(), curve)),
          factory.generatePrivate(new ECPrivateKeySpec(scalar, curve)));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot derive the cluster's CA key: " + e.getMessage(), e);
    }
  }

  private static org.bouncycastle.operator.ContentSigner signer(KeyPair keys) throws OperatorCreationException {
    return new JcaContentSignerBuilder("SHA256withECDSA").setProvider(BC).build(keys.getPrivate());
  }

  private static BigInteger serial() {
    return new BigInteger(64, new SecureRandom()).add(BigInteger.ONE);
  }

  private static String pem(Object object) throws IOException {
    StringWriter text = new StringWriter();
    try (JcaPEMWriter writer = new JcaPEMWriter(text)) {
      writer.writeObject(object);
    }
    return text.toString();
  }

  private static byte[] trimmed(byte[] bytes) {
    int end = bytes.length;
    while (end > 0 && Character.isWhitespace(bytes[end - 1])) {
      end--;
    }
    return Arrays.copyOf(bytes, end);
  }

}
