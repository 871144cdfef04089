package io.sluice.verticles.server.tls;

import io.sluice.verticles.server.listener.TlsReloads;
import io.sluice.protocol.binary.client.ThrottrClient;
import io.sluice.protocol.binary.client.ThrottrClientOptions;
import io.sluice.protocol.binary.codec.TtlUnit;
import io.sluice.verticles.server.settings.Defences;
import io.sluice.verticles.server.kit.LogCapture;
import io.sluice.verticles.server.kit.LogLines;
import io.sluice.verticles.server.kit.Poll;
import io.sluice.verticles.server.kit.SluiceUnderTest;
import io.sluice.verticles.server.kit.TestCertificates;
import io.vertx.core.Vertx;
import io.vertx.core.net.ClientSSLOptions;
import io.vertx.core.net.PemKeyCertOptions;
import io.vertx.core.net.PemTrustOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSession;
import javax.net.ssl.SSLSocket;
import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static io.sluice.verticles.server.kit.SluiceUnderTest.awaitFailure;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * TLS on the Throttr port and the HTTP port, with throwaway certificates: the project's client,
 * the JDK's HTTP and WebSocket clients, mutual TLS, a plain-text client refused, and certificates
 * replaced on disk while the server runs.
 */
class TlsTest {

  @TempDir
  Path folder;

  private final Vertx vertx = Vertx.vertx();
  private final List<AutoCloseable> opened = new ArrayList<>();
  private TestCertificates certificates;
  private TestCertificates.Issued serverCertificate;

  @AfterEach
  void stop() throws Exception {
    for (int i = opened.size() - 1; i >= 0; i--) {
      opened.get(i).close();
    }
    await(vertx.close());
  }

  private SluiceUnderTest start(boolean mutual, TlsEngine engine) {
    certificates = new TestCertificates(folder, "sluice");
    serverCertificate = certificates.server("server");
    SluiceUnderTest sut = new SluiceUnderTest(vertx, SluiceUnderTest.defaults().withDefences(Defences.defaults()
        .withTls(new TlsSettings(serverCertificate.certificateFile(), serverCertificate.keyFile(),
            mutual ? Optional.of(certificates.caFile()) : Optional.empty(), engine))));
    opened.add(sut);
    return sut;
  }

  private ThrottrClient connect(int port, ClientSSLOptions tls) {
    ThrottrClient client = await(ThrottrClient.connect(vertx, new ThrottrClientOptions().setPort(port).setTls(tls)));
    opened.add(() -> await(client.close()));
    return client;
  }

  private static ClientSSLOptions trusting(Path ca) {
    return new ClientSSLOptions().setHostnameVerificationAlgorithm("HTTPS")
        .setTrustOptions(new PemTrustOptions().addCertPath(ca.toString()));
  }

  private static void assertServed(ThrottrClient client, String key) {
    assertThat(await(client.insert(key, 10, TtlUnit.SECONDS, 60))).isTrue();
    assertThat(await(client.query(key)).quota()).isEqualTo(10);
  }

  @ParameterizedTest
  @EnumSource(value = TlsEngine.class, names = {"OPENSSL", "JDK"})
  void theThrottrPortServesTlsClientsWithEitherEngine(TlsEngine engine) {
    SluiceUnderTest sut = start(false, engine);
    assertServed(connect(sut.tcpPort(), trusting(certificates.caFile())), "over-tls");
  }

  @Test
  void aClientThatDoesNotTrustTheCertificateIsNotConnected() {
    SluiceUnderTest sut = start(false, TlsEngine.AUTO);
    TestCertificates stranger = new TestCertificates(folder, "stranger");
    Throwable failure = awaitFailure(ThrottrClient.connect(vertx,
        new ThrottrClientOptions().setPort(sut.tcpPort()).setTls(trusting(stranger.caFile()))));
    assertThat(failure).isInstanceOf(javax.net.ssl.SSLException.class);
  }

  @Test
  void mutualTlsAdmitsOnlyClientsWithACertificateFromTheClientCa() {
    SluiceUnderTest sut = start(true, TlsEngine.AUTO);
    TestCertificates.Issued known = certificates.client("known-worker");
    ClientSSLOptions withCertificate = trusting(certificates.caFile())
        .setKeyCertOptions(new PemKeyCertOptions().setCertPath(known.certificateFile().toString())
            .setKeyPath(known.keyFile().toString()));
    assertServed(connect(sut.tcpPort(), withCertificate), "known");

    // With TLS 1.3 the client learns of the refusal only when it reads: the request never gets an answer.
    assertRefused(sut.tcpPort(), trusting(certificates.caFile()));
    TestCertificates.Issued foreign = new TestCertificates(folder, "other").client("foreign-worker");
    assertRefused(sut.tcpPort(), trusting(certificates.caFile())
        .setKeyCertOptions(new PemKeyCertOptions().setCertPath(foreign.certificateFile().toString())
            .setKeyPath(foreign.keyFile().toString())));
  }

  private void assertRefused(int port, ClientSSLOptions tls) {
    var attempt = ThrottrClient.connect(vertx, new ThrottrClientOptions().setPort(port).setTls(tls))
        .compose(client -> client.query("anything").eventually(client::close));
    assertThat(awaitFailure(attempt)).isNotNull();
  }

  @Test
  void aPlainTextClientOnATlsPortIsClosedWithOneLogLine() throws Exception {
    SluiceUnderTest sut = start(false, TlsEngine.AUTO);
    try (LogLines log = new LogLines(); Socket plain = new Socket("127.0.0.1", sut.tcpPort())) {
      plain.setSoTimeout(10_000);
      // An INSERT of key "k" (uint16), as a Throttr client without TLS would send it.
      plain.getOutputStream().write(new byte[] {0x01, 10, 0, 3, 60, 0, 1, 'k'});
      InputStream in = plain.getInputStream();
      assertThat(in.readAllBytes()).as("what a TLS server answers a plain record with, then the close").hasSizeLessThan(16);
      Poll.until("the plain client is logged", () -> !log.containing("not a TLS client").isEmpty());
      assertThat(log.lines()).containsExactly(
          "WARNING " + HandshakeFailures.class.getName()
              + ": closing Throttr connection: not a TLS client (plain text on a TLS port)");
    }
    assertServed(connect(sut.tcpPort(), trusting(certificates.caFile())), "after-plain");
  }

  @Test
  void onlyTls12And13AreSpoken() throws Exception {
    SluiceUnderTest sut = start(false, TlsEngine.AUTO);
    SSLContext context = TestCertificates.jdkTrusting(certificates.caFile());
    for (String protocol : List.of("TLSv1.2", "TLSv1.3")) {
      try (SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket("127.0.0.1", sut.tcpPort())) {
        socket.setEnabledProtocols(new String[] {protocol});
        socket.startHandshake();
        assertThat(socket.getSession().getProtocol()).isEqualTo(protocol);
      }
    }
    assertThat(TlsSettings.PROTOCOLS).containsExactlyInAnyOrder("TLSv1.2", "TLSv1.3");
  }

  @Test
  void theHttpPortServesHttpsAndWss() throws Exception {
    SluiceUnderTest sut = start(false, TlsEngine.AUTO);
    HttpClient https = HttpClient.newBuilder().sslContext(TestCertificates.jdkTrusting(certificates.caFile())).build();
    HttpResponse<String> health = https.send(HttpRequest.newBuilder(
        URI.create("https://localhost:" + sut.httpPort() + "/health")).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(health.statusCode()).isEqualTo(200);
    assertThat(health.body()).contains("UP");

    CompletableFuture<String> reply = new CompletableFuture<>();
    WebSocket socket = https.newWebSocketBuilder().buildAsync(URI.create("wss://localhost:" + sut.httpPort() + "/ws"),
        new WebSocket.Listener() {
          @Override
          public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            reply.complete(data.toString());
            return null;
          }
        }).get(30, TimeUnit.SECONDS);
    socket.sendText("{\"op\":\"subscribe\",\"channel\":\"news\"}", true).get(30, TimeUnit.SECONDS);
    assertThat(reply.get(30, TimeUnit.SECONDS)).contains("\"event\":\"ack\"").contains("\"status\":1");
    socket.sendClose(WebSocket.NORMAL_CLOSURE, "done").get(30, TimeUnit.SECONDS);
  }

  @Test
  void newCertificateFilesAreServedWithoutARestart() throws Exception {
    SluiceUnderTest sut = start(false, TlsEngine.AUTO);
    ThrottrClient before = connect(sut.tcpPort(), trusting(certificates.caFile()));
    Path oldCa = Files.copy(certificates.caFile(), folder.resolve("old-ca.pem"));

    // A renewal by a new CA, written over the same files: only clients trusting the new CA connect.
    TestCertificates renewed = new TestCertificates(folder, "renewed");
    TestCertificates.Issued next = renewed.server("server");
    assertThat(next.certificateFile()).isEqualTo(serverCertificate.certificateFile());
    Poll.until("the renewed certificate is served", () -> ThrottrClient.connect(vertx, new ThrottrClientOptions().setPort(sut.tcpPort())
            .setTls(trusting(renewed.caFile())))
        .compose(client -> client.close().map(true))
        .otherwise(false).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS));
    assertThat(awaitFailure(ThrottrClient.connect(vertx,
        new ThrottrClientOptions().setPort(sut.tcpPort()).setTls(trusting(oldCa))))).isNotNull();
    assertServed(before, "kept-its-connection");

    // Files that do not load leave the certificate in use.
    Files.writeString(next.keyFile(), "not a key");
    await(sut.server().reload().otherwise((Void) null));
    assertServed(connect(sut.tcpPort(), trusting(renewed.caFile())), "still-renewed");
  }

  /**
   * Issue 30, item 6: a key that does not match the certificate used to be loaded, after which
   * every handshake failed (KEY_VALUES_MISMATCH). It is refused with a WARNING naming both files,
   * counted, and the pair in use stays.
   */
  @Test
  void aKeyThatDoesNotMatchTheCertificateIsRefusedAndHandshakesGoOn() throws Exception {
    SluiceUnderTest sut = start(false, TlsEngine.AUTO);
    try (LogCapture log = new LogCapture(TlsReloads.class.getName())) {
      Path strangerKey = certificates.server("stranger").keyFile();
      Path swap = Files.copy(strangerKey, folder.resolve("swap.tmp"));
      Files.move(swap, serverCertificate.keyFile(), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);

      Poll.until("the watcher refuses the key", () -> log.records().stream().anyMatch(r -> r.getLevel() == Level.WARNING));
      assertThat(awaitFailure(sut.server().reload())).hasMessageContaining("does not match");
      List<String> warnings = log.records().stream().filter(r -> r.getLevel() == Level.WARNING)
          .map(java.util.logging.LogRecord::getMessage).toList();
      assertThat(warnings).hasSize(2).allSatisfy(warning -> assertThat(warning)
          .contains("the private key in " + serverCertificate.keyFile() + " does not match the certificate in "
              + serverCertificate.certificateFile())
          .contains("the previous one stays in use"));
      assertThat(log.records()).noneMatch(r -> r.getMessage().contains("TLS certificate reloaded"));
    }

    assertServed(connect(sut.tcpPort(), trusting(certificates.caFile())), "after-mismatch");
    HttpClient https = HttpClient.newBuilder().sslContext(TestCertificates.jdkTrusting(certificates.caFile())).build();
    HttpResponse<String> metrics = https.send(HttpRequest.newBuilder(
        URI.create("https://localhost:" + sut.httpPort() + "/metrics")).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(metrics.statusCode()).isEqualTo(200);
    assertThat(metrics.body()).contains("sluice_tls_reloads_total{result=\"refused\"} 2.0",
        "sluice_tls_reloads_total{result=\"ok\"} 0.0");
  }

  @Test
  void aKeyThatDoesNotMatchTheCertificateStopsTheStart() {
    TestCertificates ca = new TestCertificates(folder, "sluice");
    TestCertificates.Issued server = ca.server("server");
    TestCertificates.Issued stranger = ca.server("stranger");
    assertThatThrownBy(() -> new SluiceUnderTest(vertx, SluiceUnderTest.defaults().withDefences(Defences.defaults()
        .withTls(new TlsSettings(server.certificateFile(), stranger.keyFile(), Optional.empty(), TlsEngine.AUTO)))))
        .rootCause().hasMessage("the private key in " + stranger.keyFile() + " does not match the certificate in "
            + server.certificateFile());
  }

  /**
   * A client that reconnects with its session cache makes an abbreviated handshake: the session it
   * gets is the first one resumed, made at the first one's time (TLS 1.3 gives it a new id).
   */
  @ParameterizedTest
  @EnumSource(value = TlsEngine.class, names = {"OPENSSL", "JDK"})
  void aClientThatReconnectsResumesItsSession(TlsEngine engine) throws Exception {
    SluiceUnderTest sut = start(false, engine);
    for (String protocol : List.of("TLSv1.2", "TLSv1.3")) {
      SSLContext client = TestCertificates.jdkTrusting(certificates.caFile());
      SSLSession first = served(client, sut.tcpPort(), protocol);
      SSLSession second = served(client, sut.tcpPort(), protocol);
      assertThat(second.getCreationTime()).as(protocol + " resumed: made by the first handshake")
          .isEqualTo(first.getCreationTime());
      assertThat(second.getProtocol()).isEqualTo(protocol);

      SSLSession stranger = served(TestCertificates.jdkTrusting(certificates.caFile()), sut.tcpPort(), protocol);
      assertThat(stranger.getCreationTime()).as(protocol + ": a client without the session makes a full handshake")
          .isNotEqualTo(first.getCreationTime());
    }
  }

  /**
   * A reload starts the listeners' session caches and ticket keys anew: a client that trusts both
   * the old and the new CA, and holds a session from before, makes a full handshake and is shown
   * the new certificate, where resuming would have kept it on the old one.
   */
  @ParameterizedTest
  @EnumSource(value = TlsEngine.class, names = {"OPENSSL", "JDK"})
  void aReloadedCertificateIsNotBypassedByResumingAnOldSession(TlsEngine engine) throws Exception {
    SluiceUnderTest sut = start(false, engine);
    Path oldCa = Files.copy(certificates.caFile(), folder.resolve("old-ca.pem"));
    TestCertificates renewed = new TestCertificates(folder, "renewed");
    SSLContext client = TestCertificates.jdkTrusting(oldCa, renewed.caFile());
    List<String> protocols = List.of("TLSv1.2", "TLSv1.3");
    List<SSLSession> before = new ArrayList<>();
    for (String protocol : protocols) {
      before.add(served(client, sut.tcpPort(), protocol));
      assertThat(issuer(before.get(before.size() - 1))).contains("sluice test CA");
    }

    renewed.server("server");
    await(sut.server().reload());
    for (int i = 0; i < protocols.size(); i++) {
      SSLSession after = served(client, sut.tcpPort(), protocols.get(i));
      assertThat(issuer(after)).as(protocols.get(i) + ": the renewed certificate, by a full handshake")
          .contains("renewed test CA");
      assertThat(after.getCreationTime()).isNotEqualTo(before.get(i).getCreationTime());
    }
  }

  private static String issuer(SSLSession session) throws Exception {
    return ((X509Certificate) session.getPeerCertificates()[0]).getIssuerX500Principal().getName();
  }

  /**
   * A full exchange over a fresh connection through {@code client}, and the session it ran on; it
   * returns once the clock has passed the session's creation, so that a later full handshake is
   * told from a resumed one by its creation time.
   */
  private static SSLSession served(SSLContext client, int port, String protocol) throws Exception {
    SSLSession session;
    try (SSLSocket socket = (SSLSocket) client.getSocketFactory().createSocket("127.0.0.1", port)) {
      socket.setSoTimeout(10_000);
      socket.setEnabledProtocols(new String[] {protocol});
      // A QUERY of key "k": its answer comes after the server's session ticket, which the read takes in.
      socket.getOutputStream().write(new byte[] {0x02, 1, 'k'});
      assertThat(socket.getInputStream().read()).as("the first byte of the answer").isNotNegative();
      session = socket.getSession();
    }
    long created = session.getCreationTime();
    Poll.until("the clock passes the session's creation", () -> System.currentTimeMillis() > created);
    return session;
  }
}
