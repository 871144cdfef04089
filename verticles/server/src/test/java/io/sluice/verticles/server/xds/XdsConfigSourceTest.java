package io.sluice.verticles.server.xds;

import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse.DescriptorStatus;
import io.envoyproxy.ratelimit.config.ratelimit.v3.RateLimitConfig;
import io.envoyproxy.ratelimit.config.ratelimit.v3.RateLimitDescriptor;
import io.envoyproxy.ratelimit.config.ratelimit.v3.RateLimitPolicy;
import io.envoyproxy.ratelimit.config.ratelimit.v3.RateLimitUnit;
import io.grpc.ManagedChannel;
import io.sluice.verticles.rls.RlsConfigSource;
import io.sluice.verticles.rls.XdsRateLimitConfigs;
import io.sluice.verticles.server.grpc.RlsFixture;
import io.sluice.verticles.server.grpc.RlsSettings;
import io.sluice.verticles.server.kit.HttpCalls;
import io.sluice.verticles.server.kit.Poll;
import io.sluice.verticles.server.kit.Scrapes;
import io.sluice.verticles.server.kit.SluiceUnderTest;
import io.sluice.verticles.server.kit.TestCertificates;
import io.sluice.verticles.server.tls.TlsEngine;
import io.sluice.verticles.server.tls.TlsSettings;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import static io.sluice.verticles.server.grpc.RlsFixture.descriptor;
import static io.sluice.verticles.server.grpc.RlsFixture.request;
import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The rate limit config from an xDS server (--rls-xds-server), against a small ADS server on
 * grpc-java, over real sockets: the first version opens the gRPC listener and makes /ready 200;
 * an update applies with the counters kept; a bad version is NACKed with its reason and the one
 * before stays; a server that goes away and comes back gets a new stream, which says the version in
 * force, and its next push applies.
 */
class XdsConfigSourceTest {

  private final Vertx vertx = Vertx.vertx();
  private final AdsServer ads = new AdsServer();
  private SluiceUnderTest sut;
  private HttpCalls http;
  private ManagedChannel channel;

  @AfterEach
  void close() throws InterruptedException {
    if (channel != null) {
      channel.shutdownNow();
    }
    if (http != null) {
      http.close();
    }
    if (sut != null) {
      sut.close();
    }
    ads.close();
    await(vertx.close());
  }

  /** One domain, {@code user} limited to {@code perMinute}. */
  private static RateLimitConfig edge(int perMinute) {
    return config(RateLimitPolicy.newBuilder().setUnit(RateLimitUnit.MINUTE).setRequestsPerUnit(perMinute).build());
  }

  private static RateLimitConfig config(RateLimitPolicy policy) {
    return RateLimitConfig.newBuilder().setName("edge").setDomain("edge")
        .addDescriptors(RateLimitDescriptor.newBuilder().setKey("user").setRateLimit(policy)).build();
  }

  /** Sluice subscribed to {@code server} as node gateway-1, reconnecting after 50 ms to 500 ms. */
  private static XdsSettings of(AdsServer server) {
    return XdsSettings.of("127.0.0.1", server.port()).withNodeId("gateway-1")
        .withBackoff(Duration.ofMillis(50), Duration.ofMillis(500));
  }

  private void startSluice() {
    startSluice(of(ads));
  }

  private void startSluice(XdsSettings xds) {
    sut = new SluiceUnderTest(vertx, SluiceUnderTest.defaults()
        .withRls(new RlsSettings("127.0.0.1", 0, RlsConfigSource.none(), false).withXds(xds)));
    http = new HttpCalls(vertx, sut.httpPort());
  }

  private DescriptorStatus hit(String user) {
    if (channel == null) {
      channel = RlsFixture.channel(sut.grpcPort());
    }
    return RlsFixture.call(channel, request("edge", descriptor("user", user))).getStatuses(0);
  }

  private static void assertAck(DiscoveryRequest ack, String version, String nonce) {
    assertThat(ack.getVersionInfo()).isEqualTo(version);
    assertThat(ack.getResponseNonce()).isEqualTo(nonce);
    assertThat(ack.hasErrorDetail()).as("an ACK: " + ack.getErrorDetail()).isFalse();
  }

  @Test
  void versionsApplyAsPushedAndABadOneIsNackedWhileTheOneBeforeStays() throws Exception {
    startSluice();
    DiscoveryRequest subscription = ads.nextRequest();
    assertThat(subscription.getNode().getId()).isEqualTo("gateway-1");
    assertThat(subscription.getTypeUrl()).isEqualTo(XdsRateLimitConfigs.TYPE_URL);
    assertThat(subscription.getResourceNamesList()).as("every resource: no names").isEmpty();
    assertThat(subscription.getVersionInfo()).isEmpty();
    assertThat(sut.grpcPort()).as("no gRPC listener before a config").isEqualTo(-1);
    HttpCalls.Answer waiting = http.get("/ready");
    assertThat(waiting.status()).isEqualTo(503);
    assertThat(waiting.json().getString("reason")).contains("no rate limit config from the xDS server 127.0.0.1:" + ads.port());

    ads.push("v1", "n1", List.of(edge(3)));
    assertAck(ads.nextRequest(), "v1", "n1");
    Poll.until("the gRPC listener opens", () -> sut.grpcPort() > 0);
    assertThat(http.get("/ready").status()).isEqualTo(200);
    assertThat(hit("a").getLimitRemaining()).isEqualTo(2);
    assertThat(hit("a").getLimitRemaining()).isEqualTo(1);

    ads.push("v2", "n2", List.of(edge(10)));
    assertAck(ads.nextRequest(), "v2", "n2");
    DescriptorStatus raised = hit("a");
    assertThat(raised.getCurrentLimit().getRequestsPerUnit()).isEqualTo(10);
    assertThat(raised.getLimitRemaining()).as("the 3 hits of before are kept").isEqualTo(7);

    ads.push("v3", "n3", List.of(config(RateLimitPolicy.newBuilder().setRequestsPerUnit(5).build())));
    DiscoveryRequest nack = ads.nextRequest();
    assertThat(nack.getVersionInfo()).as("a NACK names the version in force").isEqualTo("v2");
    assertThat(nack.getResponseNonce()).isEqualTo("n3");
    assertThat(nack.getErrorDetail().getCode()).isEqualTo(3);
    assertThat(nack.getErrorDetail().getMessage())
        .isEqualTo("xds resource 'edge':5: descriptors[0].rate_limit.unit: must be one of second, minute, hour, day, "
            + "month, year, week, found 'unknown'");
    assertThat(hit("a").getLimitRemaining()).as("v2 still in force").isEqualTo(6);
    String scraped = Scrapes.scrape(http);
    assertThat(Scrapes.value(scraped, "sluice_rls_config_loads_total{result=\"success\"}")).isEqualTo(2);
    assertThat(Scrapes.value(scraped, "sluice_rls_config_loads_total{result=\"error\"}")).isEqualTo(1);
  }

  @Test
  void withHealthyWithConfigAVersionWithoutDomainsMakesTheInstanceNotReady() throws Exception {
    sut = new SluiceUnderTest(vertx, SluiceUnderTest.defaults().withRls(new RlsSettings("127.0.0.1", 0,
        RlsConfigSource.none(), false).withXds(of(ads)).withHealthyWithConfig(true)));
    http = new HttpCalls(vertx, sut.httpPort());
    ads.nextRequest();
    ads.push("v1", "n1", List.of(edge(3)));
    // answerTo: each request says which response it answers. (A full run once read a second ACK of
    // v1 where v2's was expected: the push had met the subscription in AdsServer, which sent v1 to
    // both; AdsServer now records a subscription only once it has answered it.)
    assertAck(ads.answerTo("n1"), "v1", "n1");
    Poll.until("ready with a domain", () -> http.get("/ready").status() == 200);

    ads.push("v2", "n2", List.of());
    assertAck(ads.answerTo("n2"), "v2", "n2");
    HttpCalls.Answer empty = http.get("/healthcheck");
    assertThat(empty.status()).isEqualTo(500);
    assertThat(empty.body()).contains("no rate limit config with a domain in force");
  }

  @Test
  void aServerThatGoesAwayAndComesBackIsSubscribedToAgain() throws Exception {
    ads.push("v1", "n1", List.of(edge(3)));
    startSluice();
    ads.nextRequest();
    assertAck(ads.nextRequest(), "v1", "n1");
    Poll.until("the gRPC listener opens", () -> sut.grpcPort() > 0);
    assertThat(hit("b").getLimitRemaining()).isEqualTo(2);

    ads.stop();
    assertThat(hit("b").getLimitRemaining()).as("v1 stays in force while the server is away").isEqualTo(1);
    assertThat(http.get("/ready").status()).as("ready: a config was received").isEqualTo(200);

    ads.push("v2", "n2", List.of(edge(10)));
    ads.restart();
    DiscoveryRequest again = ads.nextRequest();
    assertThat(again.getVersionInfo()).as("a new stream says the version in force").isEqualTo("v1");
    assertThat(again.getResponseNonce()).isEmpty();
    assertAck(ads.nextRequest(), "v2", "n2");
    assertThat(hit("b").getLimitRemaining()).as("v2, counters kept").isEqualTo(7);
  }

  @Test
  void aVersionOverTheMessageBoundDropsTheStreamAndTheVersionBeforeStays() throws Exception {
    ads.push("v1", "n1", List.of(edge(3)));
    startSluice();
    assertAck(ads.answerTo("n1"), "v1", "n1");
    Poll.until("the gRPC listener opens", () -> sut.grpcPort() > 0);

    RateLimitConfig huge = edge(5).toBuilder().addDescriptors(RateLimitDescriptor.newBuilder()
        .setKey("k".repeat((int) XdsConfigClient.MAX_MESSAGE_BYTES))).build();
    ads.push("v2", "n2", List.of(huge));
    DiscoveryRequest again = ads.nextRequest();
    assertThat(again.getResponseNonce()).as("no answer to n2: the stream was dropped, a new one opened").isEmpty();
    assertThat(again.getVersionInfo()).isEqualTo("v1");
    assertThat(hit("c").getCurrentLimit().getRequestsPerUnit()).as("v1 in force").isEqualTo(3);

    ads.push("v3", "n3", List.of(edge(10)));
    assertAck(ads.answerTo("n3"), "v3", "n3");
    assertThat(hit("c").getCurrentLimit().getRequestsPerUnit()).isEqualTo(10);
  }

  @Test
  void overMutualTlsTheServerIsVerifiedAndSluicePresentsItsCertificate(@TempDir Path folder) throws Exception {
    TestCertificates certificates = new TestCertificates(folder, "mesh");
    TestCertificates.Issued sluice = certificates.server("sluice");
    try (AdsServer secure = AdsServer.overMutualTls(certificates.server("ads"), certificates.caFile())) {
      secure.push("v1", "n1", List.of(edge(3)));
      startSluice(of(secure).withTls(new TlsSettings(sluice.certificateFile(), sluice.keyFile(),
          Optional.of(certificates.caFile()), TlsEngine.JDK)));
      assertAck(secure.answerTo("n1"), "v1", "n1");
      Poll.until("the gRPC listener opens", () -> sut.grpcPort() > 0);
      assertThat(hit("d").getLimitRemaining()).isEqualTo(2);
    }
  }

  @Test
  void aServerWhoseCertificateAnotherCaSignedIsNotTalkedTo(@TempDir Path folder) throws Exception {
    TestCertificates certificates = new TestCertificates(folder, "mesh");
    TestCertificates.Issued sluice = certificates.server("sluice");
    TestCertificates stranger = new TestCertificates(folder, "stranger");
    try (AdsServer impostor = AdsServer.overMutualTls(stranger.server("impostor"), certificates.caFile())) {
      impostor.push("v1", "n1", List.of(edge(3)));
      startSluice(of(impostor).withTls(new TlsSettings(sluice.certificateFile(), sluice.keyFile(),
          Optional.of(certificates.caFile()), TlsEngine.JDK)));
      Poll.until("a failed connection is the reason /ready gives", () -> {
        String reason = http.get("/ready").json().getString("reason");
        return reason.contains("cannot connect") || reason.contains("connection closed");
      });
      assertThat(sut.grpcPort()).isEqualTo(-1);
    }
  }
}
