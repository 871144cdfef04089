package io.sluice.verticles.server.grpc;

import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.protobuf.ProtoUtils;
import io.grpc.stub.ClientCalls;
import io.sluice.verticles.server.kit.Poll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.time.Duration;
import java.util.Iterator;
import java.util.concurrent.TimeUnit;

import static io.sluice.verticles.server.grpc.RlsFixture.descriptor;
import static io.sluice.verticles.server.grpc.RlsFixture.request;
import static io.sluice.verticles.server.kit.Scrapes.scrape;
import static io.sluice.verticles.server.kit.Scrapes.value;
import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Issue 27's last expectations of envoyproxy/ratelimit (TestServiceHealthStatus,
 * TestServiceHealthStatusAtLeastOneConfigLoaded, the domain_not_found and config_load_* counters),
 * over a real gRPC socket with grpc-java as the client; the health method bound by hand from the
 * generated messages, as {@link RlsFixture} binds ShouldRateLimit.
 */
class RlsHealthTest {

  private static final MethodDescriptor<HealthCheckRequest, HealthCheckResponse> CHECK = method("Check",
      MethodDescriptor.MethodType.UNARY);
  private static final MethodDescriptor<HealthCheckRequest, HealthCheckResponse> WATCH = method("Watch",
      MethodDescriptor.MethodType.SERVER_STREAMING);

  private static final String LIMITS = """
      domain: edge
      descriptors:
        - key: remote_address
          rate_limit:
            unit: minute
            requests_per_unit: 10
      """;

  @Test
  void theServiceAndTheServerAreServingAnUnknownNameIsNotFound() {
    try (RlsFixture rls = new RlsFixture("edge.yaml", LIMITS)) {
      assertThat(check(rls.channel, "ratelimit")).isEqualTo(ServingStatus.SERVING);
      assertThat(check(rls.channel, "")).isEqualTo(ServingStatus.SERVING);
      assertThatThrownBy(() -> check(rls.channel, "envoy.service.ratelimit.v3.Nothing"))
          .isInstanceOfSatisfying(StatusRuntimeException.class,
              refused -> assertThat(refused.getStatus().getCode()).isEqualTo(Status.Code.NOT_FOUND));
      assertThat(watch(rls.channel, "ratelimit").next().getStatus()).isEqualTo(ServingStatus.SERVING);
      assertThat(watch(rls.channel, "nothing").next().getStatus()).as("Watch's answer to an unknown name")
          .isEqualTo(ServingStatus.SERVICE_UNKNOWN);
    }
  }

  @Test
  void bytesThatAreNotARequestAreInvalidArgument() {
    MethodDescriptor<byte[], byte[]> raw = MethodDescriptor.<byte[], byte[]>newBuilder()
        .setType(MethodDescriptor.MethodType.UNARY).setFullMethodName(CHECK.getFullMethodName())
        .setRequestMarshaller(RlsFixture.RawBytes.INSTANCE).setResponseMarshaller(RlsFixture.RawBytes.INSTANCE).build();
    try (RlsFixture rls = new RlsFixture("edge.yaml", LIMITS)) {
      // Field 1 said to be 100 bytes long, with 1 there.
      assertThatThrownBy(() -> ClientCalls.blockingUnaryCall(rls.channel, raw, options(), new byte[] {0x0a, 100, 'x'}))
          .isInstanceOfSatisfying(StatusRuntimeException.class,
              refused -> assertThat(refused.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT));
      assertThat(check(rls.channel, "ratelimit")).as("the connection still serves").isEqualTo(ServingStatus.SERVING);
    }
  }

  @Test
  void drainingToStopIsNotServing() {
    try (RlsFixture rls = new RlsFixture("edge.yaml", LIMITS)) {
      await(rls.sut.server().drain(Duration.ofSeconds(5)));

      assertThat(check(rls.channel, "ratelimit")).isEqualTo(ServingStatus.NOT_SERVING);
      assertThat(check(rls.channel, "")).isEqualTo(ServingStatus.NOT_SERVING);
    }
  }

  @Test
  void withHealthyWithConfigNotServingUntilAConfigHasADomainNorAfterAReloadLeavesNone() throws Exception {
    try (RlsFixture rls = new RlsFixture(settings -> settings.withHealthyWithConfig(true))) {
      Iterator<HealthCheckResponse> watched = watch(rls.channel, "ratelimit");
      assertThat(watched.next().getStatus()).isEqualTo(ServingStatus.NOT_SERVING);
      assertThat(check(rls.channel, "ratelimit")).isEqualTo(ServingStatus.NOT_SERVING);
      assertThat(check(rls.channel, "")).isEqualTo(ServingStatus.SERVING);
      io.sluice.verticles.server.kit.HttpCalls.Answer before = rls.http().get("/healthcheck");
      assertThat(before.status()).isEqualTo(500);
      assertThat(before.body()).contains("--rls-healthy-with-config");

      rls.write("edge.yaml", LIMITS);
      Poll.until("a config with a domain is in force and the service SERVING",
          () -> check(rls.channel, "ratelimit") == ServingStatus.SERVING);
      assertThat(rls.http().get("/healthcheck").body()).isEqualTo("OK");
      assertThat(watched.next().getStatus()).as("the change, as Watch sends it").isEqualTo(ServingStatus.SERVING);
      assertThat(rls.http().get("/ready").status()).isEqualTo(200);

      Files.delete(rls.configDir.resolve("edge.yaml"));
      Poll.until("the reload that left no domain makes the service NOT_SERVING",
          () -> check(rls.channel, "ratelimit") == ServingStatus.NOT_SERVING);
      assertThat(rls.http().get("/ready").status()).isEqualTo(503);
      assertThat(watched.next().getStatus()).isEqualTo(ServingStatus.NOT_SERVING);
    }
  }

  @Test
  void withoutTheOptionAConfigWithoutDomainsIsServing() {
    try (RlsFixture rls = new RlsFixture()) {
      assertThat(check(rls.channel, "ratelimit")).isEqualTo(ServingStatus.SERVING);
    }
  }

  @Test
  void domainsNotFoundAndConfigLoadsAreCounted() {
    try (RlsFixture rls = new RlsFixture("edge.yaml", LIMITS)) {
      rls.call(request("nowhere", descriptor("remote_address", "10.0.0.1"), descriptor("user", "u")));
      rls.call(request("edge", descriptor("remote_address", "10.0.0.1")));
      String scraped = scrape(rls.http());
      assertThat(value(scraped, "sluice_rls_domain_not_found_total{domain=\"nowhere\"}")).isEqualTo(2);
      assertThat(scraped).doesNotContain("sluice_rls_domain_not_found_total{domain=\"edge\"}");
      assertThat(loads(rls, "success")).as("the config read at startup").isEqualTo(1);
      assertThat(loads(rls, "error")).isEqualTo(0);

      rls.write("more.yaml", LIMITS.replace("edge", "more"));
      Poll.until("the added file's reload is counted a success", () -> loads(rls, "success") == 2);
      rls.write("broken.yaml", "domain: [");
      Poll.until("the broken file's reload is counted an error", () -> loads(rls, "error") == 1);
      assertThat(loads(rls, "success")).isEqualTo(2);
    }
  }

  private static double loads(RlsFixture rls, String result) {
    return value(scrape(rls.http()), "sluice_rls_config_loads_total{result=\"" + result + "\"}");
  }

  private static ServingStatus check(ManagedChannel channel, String service) {
    return ClientCalls.blockingUnaryCall(channel, CHECK, options(),
        HealthCheckRequest.newBuilder().setService(service).build()).getStatus();
  }

  /** The statuses Watch sends, as they come (each next() waits for one, up to the call's deadline). */
  private static Iterator<HealthCheckResponse> watch(ManagedChannel channel, String service) {
    return ClientCalls.blockingServerStreamingCall(channel, WATCH, options(),
        HealthCheckRequest.newBuilder().setService(service).build());
  }

  private static CallOptions options() {
    return CallOptions.DEFAULT.withDeadlineAfter(30, TimeUnit.SECONDS);
  }

  private static MethodDescriptor<HealthCheckRequest, HealthCheckResponse> method(String name,
                                                                                  MethodDescriptor.MethodType type) {
    return MethodDescriptor.<HealthCheckRequest, HealthCheckResponse>newBuilder()
        .setType(type)
        .setFullMethodName(MethodDescriptor.generateFullMethodName("grpc.health.v1.Health", name))
        .setRequestMarshaller(ProtoUtils.marshaller(HealthCheckRequest.getDefaultInstance()))
        .setResponseMarshaller(ProtoUtils.marshaller(HealthCheckResponse.getDefaultInstance()))
        .build();
  }
}
