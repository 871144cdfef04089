package io.sluice.verticles.server.listener;

import io.sluice.verticles.server.tls.TlsEngine;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.verticles.engine.time.ManualClock;
import io.sluice.verticles.server.kit.TestCertificates;
import io.sluice.verticles.server.settings.Defences;
import io.sluice.verticles.server.tls.TlsSettings;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.ClientSSLOptions;
import io.vertx.core.net.ConnectOptions;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetServerOptions;
import io.vertx.core.net.PemTrustOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static io.sluice.verticles.server.kit.SluiceUnderTest.awaitFailure;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The one start and stop of a port: a Throttr (TCP) and an HTTP server bound through
 * {@link Listener} both take a renewed certificate without a restart, and a closed listener takes
 * no more reloads.
 */
class ListenerTest {

  @TempDir
  Path folder;

  private final Vertx vertx = Vertx.vertx();
  private TestCertificates certificates;
  private TlsReloads reloads;
  private ListenerGuards guards;

  @AfterEach
  void stop() {
    await(vertx.close());
  }

  private void startTls() {
    certificates = new TestCertificates(folder, "sluice");
    TestCertificates.Issued server = certificates.server("server");
    TlsSettings tls = new TlsSettings(server.certificateFile(), server.keyFile(), Optional.empty(), TlsEngine.AUTO);
    reloads = new TlsReloads(vertx, tls, new SimpleMeterRegistry());
    ManualClock clock = new ManualClock();
    guards = new ListenerGuards(Defences.defaults().withTls(tls), Optional.of(reloads),
        new ConnectionGate(100, new SimpleMeterRegistry(), clock), clock);
  }

  private static ClientSSLOptions trusting(Path ca) {
    return new ClientSSLOptions().setHostnameVerificationAlgorithm("HTTPS")
        .setTrustOptions(new PemTrustOptions().addCertPath(ca.toString()));
  }

  /**
   * Completes once a TLS handshake trusting {@code ca} succeeds on the port. The client is closed
   * at the end, and the callbacks hold it until then: Vert.x closes a client that became
   * unreachable, which could fail the handshake under way ("Pool closed").
   */
  private Future<?> tcpHandshake(int port, Path ca) {
    NetClient client = vertx.createNetClient();
    return client
        .connect(new ConnectOptions().setHost("127.0.0.1").setPort(port).setSsl(true).setSslOptions(trusting(ca)))
        .compose(socket -> socket.close())
        .eventually(() -> client.close());
  }

  /**
   * The status of a GET over a new connection (a client of its own: no pooled connection) trusting
   * {@code ca}; the client is held and closed as in {@link #tcpHandshake}.
   */
  private Future<Integer> httpsStatus(int port, Path ca) {
    HttpClient client = vertx.createHttpClient();
    return client
        .request(new RequestOptions().setMethod(HttpMethod.GET).setHost("127.0.0.1").setPort(port).setURI("/")
            .setSsl(true).setSslOptions(trusting(ca)))
        .compose(request -> request.send())
        .map(response -> response.statusCode())
        .eventually(() -> client.close());
  }

  @Test
  void aRenewedCertificateReachesTheThrottrAndTheHttpListener() {
    startTls();
    NetServer tcpServer = vertx.createNetServer(guards.configure(new NetServerOptions()))
        .connectHandler(socket -> socket.write("hello"));
    Listener tcp = Listener.bind(tcpServer, guards, "127.0.0.1", 0);
    HttpServer httpServer = vertx.createHttpServer(guards.configure(new HttpServerOptions()))
        .requestHandler(request -> request.response().setStatusCode(204).end());
    Listener http = Listener.bind(httpServer, guards, "127.0.0.1", 0);
    await(tcp.bound());
    await(http.bound());
    Path firstCa = certificates.caFile();
    await(tcpHandshake(tcp.port(), firstCa));
    assertThat(await(httpsStatus(http.port(), firstCa))).isEqualTo(204);

    // A renewal by a new CA, written over the same files.
    TestCertificates renewed = new TestCertificates(folder, "renewed");
    renewed.server("server");
    await(reloads.reload());

    await(tcpHandshake(tcp.port(), renewed.caFile()));
    assertThat(await(httpsStatus(http.port(), renewed.caFile()))).isEqualTo(204);
    assertThat(awaitFailure(tcpHandshake(tcp.port(), firstCa))).as("the old CA's certificate is gone").isNotNull();

    await(tcp.close());
    await(http.close());
    assertThat(awaitFailure(tcpHandshake(tcp.port(), renewed.caFile()))).as("the closed port").isNotNull();
  }

  @Test
  void aClosedListenerTakesNoMoreReloads() {
    startTls();
    AtomicInteger updates = new AtomicInteger();
    NetServer server = countingUpdates(vertx.createNetServer(guards.configure(new NetServerOptions()))
        .connectHandler(socket -> socket.close()), updates);
    Listener listener = Listener.bind(server, guards, "127.0.0.1", 0);
    await(listener.bound());

    await(reloads.reload());
    assertThat(updates).hasValue(1);

    await(listener.close());
    await(reloads.reload());
    assertThat(updates).as("reloads after the close").hasValue(1);
  }

  /** {@code server}, counting the certificate updates it is given. */
  private static NetServer countingUpdates(NetServer server, AtomicInteger updates) {
    return (NetServer) Proxy.newProxyInstance(NetServer.class.getClassLoader(), new Class<?>[] {NetServer.class},
        (proxy, method, args) -> {
          if (method.getName().equals("updateSSLOptions")) {
            updates.incrementAndGet();
          }
          try {
            return method.invoke(server, args);
          } catch (InvocationTargetException thrown) {
            throw thrown.getCause();
          }
        });
  }
}
