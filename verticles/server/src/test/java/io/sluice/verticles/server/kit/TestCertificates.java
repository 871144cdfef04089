package io.sluice.verticles.server.kit;

import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.KeyPair;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.security.KeyPairGenerator;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Throwaway certificates made by the test, written as PEM files in a folder it owns: a CA, the
 * server's certificate for 127.0.0.1 and localhost signed by it, and client certificates. Nothing
 * is checked in, and nothing outlives the test.
 */
public final class TestCertificates {

  private static final AtomicLong SERIAL = new AtomicLong(System.nanoTime());

  /** A key pair, its certificate, and the files they were written to. */
  public record Issued(KeyPair keys, X509CertificateHolder certificate, Path certificateFile, Path keyFile) {
  }

  private final Path folder;
  private final Issued ca;

  /** A fresh CA, its certificate in {@code folder}/{@code name}-ca.pem. */
  public TestCertificates(Path folder, String name) {
    this.folder = folder;
    KeyPair keys = keyPair();
    X500Name subject = new X500Name("CN=" + name + " test CA");
    try {
      org.bouncycastle.cert.X509v3CertificateBuilder builder = builder(subject, subject, keys)
          .addExtension(Extension.basicConstraints, true, new BasicConstraints(true))
          .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
      X509CertificateHolder certificate = builder.build(signer(keys));
      this.ca = write(name + "-ca", keys, certificate);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  public Path caFile() {
    return ca.certificateFile();
  }

  /**
   * A JDK client context that trusts the CAs in {@code caFiles} only. One context is one client
   * session cache: connections made through the same context may resume each other's sessions.
   */
  public static SSLContext jdkTrusting(Path... caFiles) throws Exception {
    KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
    trusted.load(null, null);
    for (int i = 0; i < caFiles.length; i++) {
      try (InputStream in = Files.newInputStream(caFiles[i])) {
        trusted.setCertificateEntry("ca" + i, CertificateFactory.getInstance("X.509").generateCertificate(in));
      }
    }
    TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trust.init(trusted);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, trust.getTrustManagers(), null);
    return context;
  }

  /** A server certificate for 127.0.0.1 and localhost, in {@code name}.pem and {@code name}-key.pem. */
  public Issued server(String name) {
    return issue(name, new GeneralNames(new GeneralName[] {
        new GeneralName(GeneralName.iPAddress, "127.0.0.1"), new GeneralName(GeneralName.dNSName, "localhost")}));
  }

  /** A client certificate. */
  public Issued client(String name) {
    return issue(name, null);
  }

  private Issued issue(String name, GeneralNames subjectAltNames) {
    KeyPair keys = keyPair();
    try {
      org.bouncycastle.cert.X509v3CertificateBuilder builder = builder(ca.certificate().getSubject(), new X500Name("CN=" + name), keys)
          .addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
      if (subjectAltNames != null) {
        builder.addExtension(Extension.subjectAlternativeName, false, subjectAltNames);
      }
      return write(name, keys, builder.build(signer(ca.keys())));
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static JcaX509v3CertificateBuilder builder(X500Name issuer, X500Name subject, KeyPair keys) {
    Instant now = Instant.now();
    return new JcaX509v3CertificateBuilder(issuer, BigInteger.valueOf(SERIAL.incrementAndGet()),
        Date.from(now.minus(Duration.ofHours(1))), Date.from(now.plus(Duration.ofDays(1))), subject, keys.getPublic());
  }

  private static org.bouncycastle.operator.ContentSigner signer(KeyPair keys) throws Exception {
    return new JcaContentSignerBuilder("SHA256withECDSA").build(keys.getPrivate());
  }

  private static KeyPair keyPair() {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
      generator.initialize(new ECGenParameterSpec("secp256r1"));
      return generator.generateKeyPair();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /** Written beside and moved into place, as a certificate manager renews files. */
  private Issued write(String name, KeyPair keys, X509CertificateHolder certificate) throws IOException {
    Path certificateFile = folder.resolve(name + ".pem");
    Path keyFile = folder.resolve(name + "-key.pem");
    replace(certificateFile, pem(certificate));
    replace(keyFile, pem(new JcaPKCS8Generator(keys.getPrivate(), null)));
    return new Issued(keys, certificate, certificateFile, keyFile);
  }

  private static void replace(Path file, String text) {
    try {
      Path temporary = Files.createTempFile(file.getParent(), file.getFileName().toString(), ".tmp");
      Files.writeString(temporary, text);
      Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String pem(Object object) throws IOException {
    StringWriter text = new StringWriter();
    try (JcaPEMWriter writer = new JcaPEMWriter(text)) {
      writer.writeObject(object);
    }
    return text.toString();
  }
}
