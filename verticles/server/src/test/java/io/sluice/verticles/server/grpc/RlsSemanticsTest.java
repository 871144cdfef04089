package io.sluice.verticles.server.grpc;

import io.envoyproxy.envoy.config.core.v3.HeaderValue;
import io.envoyproxy.envoy.extensions.common.ratelimit.v3.RateLimitDescriptor;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitRequest;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse.Code;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse.DescriptorStatus;
import io.envoyproxy.envoy.type.v3.RateLimitUnit;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.sluice.verticles.server.kit.HttpCalls;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.sluice.verticles.server.grpc.RlsFixture.T0_SECONDS;
import static io.sluice.verticles.server.grpc.RlsFixture.descriptor;
import static io.sluice.verticles.server.grpc.RlsFixture.request;
import static io.sluice.verticles.server.grpc.RlsFixture.withHits;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The decision's rules over gRPC, beyond the README's examples: hits_addend on the request and per
 * descriptor, several descriptors, unknown domains, fixed windows aligned to the unit and their
 * reset (on the hand-moved clock), the counter record a Throttr GET shows, the response headers,
 * refused requests, {@code /json}, and exactly the limit granted to 16 concurrent clients. Each test
 * uses a domain of its own, so the shared server's counters never meet.
 */
class RlsSemanticsTest {

  private static final String CONFIG = """
      domain: %s
      descriptors:
        - key: user
          rate_limit:
            unit: minute
            requests_per_unit: 10
        - key: plan
          value: gold
          rate_limit:
            unit: hour
            requests_per_unit: 1000
      """;

  private static RlsFixture rls;

  @BeforeAll
  static void start() {
    List<String> files = new ArrayList<>();
    for (String domain : List.of("hits", "several", "windows", "record", "headers", "json", "concurrent", "metrics", "corrupt", "dashboard")) {
      files.add(domain + ".yaml");
      files.add(CONFIG.formatted(domain));
    }
    rls = new RlsFixture(true, files.toArray(String[]::new));
  }

  @AfterAll
  static void stop() {
    rls.close();
  }

  @Test
  void hitsAddendOfTheRequestAppliesToEveryDescriptorUnlessOneHasItsOwn() {
    RateLimitResponse response = rls.call(request("hits", descriptor("user", "a"), withHits(descriptor("user", "b"), 1))
        .toBuilder().setHitsAddend(3).build());
    assertThat(response.getStatuses(0).getLimitRemaining()).isEqualTo(7);
    assertThat(response.getStatuses(1).getLimitRemaining()).isEqualTo(9);

    RateLimitResponse over = rls.call(request("hits", withHits(descriptor("user", "a"), 8)));
    assertThat(over.getOverallCode()).as("3 + 8 > 10").isEqualTo(Code.OVER_LIMIT);
    // Counting goes on past the limit, as envoyproxy/ratelimit's: a zero-hit look still says over.
    RateLimitResponse look = rls.call(request("hits", withHits(descriptor("user", "a"), 0)));
    assertThat(look.getOverallCode()).isEqualTo(Code.OVER_LIMIT);
    assertThat(rls.record("rls:hits:user_a:" + (T0_SECONDS - T0_SECONDS % 60))).isEqualTo("11");
  }

  @Test
  void severalDescriptorsAnswerInRequestOrderAndAnyOverMakesTheWholeOver() {
    RateLimitResponse response = rls.call(request("several",
        descriptor("plan", "gold"), descriptor("unknown", "x"), withHits(descriptor("user", "c"), 11),
        descriptor("user", "d")));
    assertThat(response.getOverallCode()).isEqualTo(Code.OVER_LIMIT);
    List<DescriptorStatus> statuses = response.getStatusesList();
    assertThat(statuses).extracting(DescriptorStatus::getCode)
        .containsExactly(Code.OK, Code.OK, Code.OVER_LIMIT, Code.OK);
    assertThat(statuses.get(0).getCurrentLimit().getRequestsPerUnit()).isEqualTo(1000);
    assertThat(statuses.get(0).getLimitRemaining()).isEqualTo(999);
    assertThat(statuses.get(1).hasCurrentLimit()).as("no match: OK without a limit").isFalse();
    assertThat(statuses.get(2).getLimitRemaining()).isZero();
    assertThat(statuses.get(3).getLimitRemaining()).isEqualTo(9);
  }

  @Test
  void unknownDomainsAnswerOkWithoutLimits() {
    RateLimitResponse response = rls.call(request("nobody-configured-this", descriptor("user", "a"), descriptor("plan", "gold")));
    assertThat(response.getOverallCode()).isEqualTo(Code.OK);
    assertThat(response.getStatusesList()).hasSize(2).allSatisfy(status -> {
      assertThat(status.getCode()).isEqualTo(Code.OK);
      assertThat(status.hasCurrentLimit()).isFalse();
    });
    assertThat(response.getResponseHeadersToAddList()).as("no limit, no headers").isEmpty();
  }

  @Test
  void windowsAreAlignedToTheUnitAndResetAtItsEnd() {
    // The clock stands at a whole minute, T0; 45 s into it, the minute's window has 15 s left.
    rls.sut.advance(Duration.ofSeconds(45));
    try {
      DescriptorStatus first = rls.call(request("windows", withHits(descriptor("user", "w"), 10))).getStatuses(0);
      assertThat(first.getLimitRemaining()).isZero();
      assertThat(first.getDurationUntilReset().getSeconds()).isEqualTo(15);
      DescriptorStatus gold = rls.call(request("windows", descriptor("plan", "gold"))).getStatuses(0);
      assertThat(gold.getDurationUntilReset().getSeconds()).as("the hour's window").isEqualTo(3600 - 45);
      assertThat(rls.call(request("windows", descriptor("user", "w"))).getOverallCode()).isEqualTo(Code.OVER_LIMIT);

      rls.sut.advance(Duration.ofSeconds(14));
      assertThat(rls.call(request("windows", descriptor("user", "w"))).getStatuses(0).getDurationUntilReset().getSeconds())
          .isEqualTo(1);
      rls.sut.advance(Duration.ofSeconds(1));
      DescriptorStatus next = rls.call(request("windows", descriptor("user", "w"))).getStatuses(0);
      assertThat(next.getCode()).as("a new minute, a new count").isEqualTo(Code.OK);
      assertThat(next.getLimitRemaining()).isEqualTo(9);
      assertThat(next.getDurationUntilReset().getSeconds()).isEqualTo(60);
    } finally {
      rls.sut.advance(Duration.ofSeconds(-60));
    }
  }

  @Test
  void theCounterIsARecordThatThrottrGetShowsUnderADocumentedKey() {
    rls.call(request("record", withHits(descriptor("user", "r"), 4)));
    rls.call(request("record", descriptor("plan", "gold")));
    long minute = T0_SECONDS - T0_SECONDS % 60;
    long hour = T0_SECONDS - T0_SECONDS % 3600;
    assertThat(rls.record("rls:record:user_r:" + minute)).isEqualTo("4");
    assertThat(rls.record("rls:record:plan_gold:" + hour)).isEqualTo("1");
    assertThat(rls.record("rls:record:user_unseen:" + minute)).isNull();
  }

  @Test
  void responseHeadersDescribeTheDescriptorWithTheFewestRemaining() {
    RateLimitResponse response = rls.call(request("headers", withHits(descriptor("user", "h"), 7), descriptor("plan", "gold")));
    assertThat(response.getResponseHeadersToAddList()).extracting(HeaderValue::getKey, HeaderValue::getValue)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("RateLimit-Limit", "10"),
            org.assertj.core.groups.Tuple.tuple("RateLimit-Remaining", "3"),
            org.assertj.core.groups.Tuple.tuple("RateLimit-Reset", "60"));
  }

  @Test
  void refusedRequestsAreInvalidArgumentWithTheReason() {
    assertThatThrownBy(() -> rls.call(request("", descriptor("user", "a"))))
        .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
          assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
          assertThat(e.getStatus().getDescription()).contains("domain must not be empty");
        });
    assertThatThrownBy(() -> rls.call(RateLimitRequest.newBuilder().setDomain("hits").build()))
        .isInstanceOfSatisfying(StatusRuntimeException.class,
            e -> assertThat(e.getStatus().getDescription()).contains("descriptor list must not be empty"));
    assertThatThrownBy(() -> rls.call(request("hits", withHits(descriptor("user", "a"), 2_000_000_000L))))
        .isInstanceOfSatisfying(StatusRuntimeException.class,
            e -> assertThat(e.getStatus().getDescription()).contains("hits_addend 2000000000 is above 1000000000"));
    RateLimitDescriptor badOverride = descriptor("user", "a").toBuilder()
        .setLimit(RateLimitDescriptor.RateLimitOverride.newBuilder().setRequestsPerUnit(3).setUnit(RateLimitUnit.UNKNOWN))
        .build();
    assertThatThrownBy(() -> rls.call(request("hits", badOverride)))
        .isInstanceOfSatisfying(StatusRuntimeException.class,
            e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT));
    // Over 64 KiB: refused before it is decoded, and the connection goes on serving.
    assertThatThrownBy(() -> rls.call(request("hits", descriptor("user", "x".repeat(70_000)))))
        .isInstanceOfSatisfying(StatusRuntimeException.class,
            e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED));
    assertThat(rls.call(request("hits", withHits(descriptor("user", "after"), 0))).getOverallCode()).isEqualTo(Code.OK);
  }

  /** What a client that is not Envoy may send: bytes that are no request, or no request at all. */
  @Test
  void malformedCallsAreInvalidArgumentAndTheConnectionGoesOn() throws Exception {
    io.grpc.MethodDescriptor<byte[], byte[]> raw = io.grpc.MethodDescriptor.<byte[], byte[]>newBuilder()
        .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
        .setFullMethodName(RlsFixture.SHOULD_RATE_LIMIT.getFullMethodName())
        .setRequestMarshaller(RlsFixture.RawBytes.INSTANCE).setResponseMarshaller(RlsFixture.RawBytes.INSTANCE).build();
    assertThatThrownBy(() -> io.grpc.stub.ClientCalls.blockingUnaryCall(rls.channel, raw,
        io.grpc.CallOptions.DEFAULT.withDeadlineAfter(30, TimeUnit.SECONDS), new byte[] {0x0a, (byte) 0xff, (byte) 0xff}))
        .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
          assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
          assertThat(e.getStatus().getDescription()).startsWith("not a RateLimitRequest: ");
        });

    // A call that half-closes without its request.
    java.util.concurrent.CompletableFuture<Status> closed = new java.util.concurrent.CompletableFuture<>();
    io.grpc.ClientCall<byte[], byte[]> empty = rls.channel.newCall(raw,
        io.grpc.CallOptions.DEFAULT.withDeadlineAfter(30, TimeUnit.SECONDS));
    empty.start(new io.grpc.ClientCall.Listener<>() {
      @Override
      public void onClose(Status status, io.grpc.Metadata trailers) {
        closed.complete(status);
      }
    }, new io.grpc.Metadata());
    empty.request(1);
    empty.halfClose();
    Status status = closed.get(30, TimeUnit.SECONDS);
    assertThat(status.getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
    assertThat(status.getDescription()).contains("carried none");

    assertThat(rls.call(request("hits", withHits(descriptor("user", "after-bad-input"), 0))).getOverallCode())
        .isEqualTo(Code.OK);
  }

  /** Bytes as they are, to send what a RateLimitRequest marshaller never would. */
  @Test
  void jsonEndpointAnswersTheSameDecisionAsJson() {
    String body = "{\"domain\":\"json\",\"descriptors\":[{\"entries\":[{\"key\":\"user\",\"value\":\"j\"}],"
        + "\"hitsAddend\":\"10\"},{\"entries\":[{\"key\":\"plan\",\"value\":\"gold\"}]}]}";
    HttpCalls.Answer allowed = rls.http().post("/json", body);
    assertThat(allowed.status()).isEqualTo(200);
    assertThat(allowed.json().getString("overallCode")).isEqualTo("OK");
    assertThat(allowed.json().getJsonArray("statuses").getJsonObject(0).encode())
        .isEqualTo("{\"code\":\"OK\",\"currentLimit\":{\"requestsPerUnit\":10,\"unit\":\"MINUTE\"},"
            + "\"durationUntilReset\":\"60s\"}");
    assertThat(allowed.json().getJsonArray("statuses").getJsonObject(1).getInteger("limitRemaining")).isEqualTo(999);

    HttpCalls.Answer over = rls.http().post("/json", "{\"domain\":\"json\",\"descriptors\":[{\"entries\":[{\"key\":\"user\",\"value\":\"j\"}]}]}");
    assertThat(over.status()).isEqualTo(429);
    assertThat(over.json().getString("overallCode")).isEqualTo("OVER_LIMIT");
    assertThat(rls.call(request("json", withHits(descriptor("user", "j"), 0))).getOverallCode())
        .as("gRPC and /json share the counter").isEqualTo(Code.OVER_LIMIT);

    HttpCalls.Answer unknownField = rls.http().post("/json", "{\"domian\":\"json\"}");
    assertThat(unknownField.status()).isEqualTo(400);
    assertThat(unknownField.json().getString("error")).contains("domian");
    assertThat(rls.http().post("/json", "{\"domain\":\"\",\"descriptors\":[]}").status()).isEqualTo(400);
  }

  @Test
  void statisticsArePrometheusSeriesByDomainAndConfiguredDescriptor() {
    rls.call(request("metrics", withHits(descriptor("user", "m1"), 9)));  // 9 > 8 (80 %): 1 near
    rls.call(request("metrics", withHits(descriptor("user", "m1"), 3)));  // 12 > 10: 1 near, 2 over
    rls.call(request("metrics", descriptor("user", "m2")));               // another value, same series
    String scraped = rls.http().get("/metrics").body();
    assertThat(scraped)
        .contains("sluice_rls_total_hits_total{descriptor=\"user\",domain=\"metrics\"} 13.0")
        .contains("sluice_rls_near_limit_total{descriptor=\"user\",domain=\"metrics\"} 2.0")
        .contains("sluice_rls_over_limit_total{descriptor=\"user\",domain=\"metrics\"} 2.0")
        .contains("sluice_rls_within_limit_total{descriptor=\"user\",domain=\"metrics\"} 10.0")
        .contains("sluice_rls_shadow_mode_total{descriptor=\"user\",domain=\"metrics\"} 0.0")
        .doesNotContain("m1").doesNotContain("m2");
  }

  @Test
  void theDashboardListsDomainsAndDescriptorsWithTheirHits() {
    rls.call(request("dashboard", withHits(descriptor("plan", "gold"), 6)));
    io.vertx.core.json.JsonObject overview = rls.http().get("/api/rls").json();
    io.vertx.core.json.JsonObject domain = overview.getJsonArray("domains").stream()
        .map(io.vertx.core.json.JsonObject.class::cast).filter(d -> d.getString("domain").equals("dashboard"))
        .findFirst().orElseThrow();
    assertThat(domain.getBoolean("configured")).isTrue();
    assertThat(domain.getJsonArray("descriptors").encode()).isEqualTo("["
        + "{\"descriptor\":\"user\",\"total_hits\":0,\"over_limit\":0,\"near_limit\":0,\"within_limit\":0,"
        + "\"shadow_mode_hits\":0,\"limit\":\"10 per minute\",\"shadow_mode\":false},"
        + "{\"descriptor\":\"plan_gold\",\"total_hits\":6,\"over_limit\":0,\"near_limit\":0,\"within_limit\":6,"
        + "\"shadow_mode_hits\":0,\"limit\":\"1000 per hour\",\"shadow_mode\":false}]");
  }

  @Test
  void aRecordThatIsNotACountAnswersInternalAndIsLeftAsItIs() {
    String key = "rls:corrupt:user_x:" + (T0_SECONDS - T0_SECONDS % 60);
    rls.setRecord(key, "not a number");
    assertThatThrownBy(() -> rls.call(request("corrupt", descriptor("user", "x"))))
        .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
          assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INTERNAL);
          assertThat(e.getStatus().getDescription()).contains(key).contains("'not a number', not a count");
        });
    assertThat(rls.record(key)).isEqualTo("not a number");
    assertThat(rls.call(request("corrupt", descriptor("user", "y"))).getOverallCode()).isEqualTo(Code.OK);
  }

  /** 16 clients, each on its own connection, 20 calls each at once: exactly the 10 of the limit are OK. */
  @Test
  void exactlyTheLimitIsGrantedToSixteenConcurrentClients() throws Exception {
    assertThat(rls.grantedToConcurrentClients(16, 20, request("concurrent", descriptor("user", "shared")))).isEqualTo(10);
    assertThat(rls.record("rls:concurrent:user_shared:" + (T0_SECONDS - T0_SECONDS % 60))).isEqualTo("320");
  }
}
