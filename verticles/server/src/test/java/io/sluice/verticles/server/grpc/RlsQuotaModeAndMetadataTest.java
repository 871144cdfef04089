package io.sluice.verticles.server.grpc;

import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse.Code;
import io.sluice.verticles.rls.RlsBehaviour;
import org.junit.jupiter.api.Test;

import static io.sluice.verticles.server.grpc.RlsFixture.descriptor;
import static io.sluice.verticles.server.grpc.RlsFixture.request;
import static io.sluice.verticles.server.grpc.RlsFixture.withHits;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * envoyproxy/ratelimit's QUOTA_MODE and RESPONSE_DYNAMIC_METADATA, as its service tests expect them
 * (TestServiceGlobalQuotaMode, TestMetadataReturnedForPassedDescriptors,
 * TestMetadataReturnedForAllPassedDescriptors, TestOverlappingMetadataReturnsTheFirstValue), over a
 * real gRPC socket.
 */
class RlsQuotaModeAndMetadataTest {

  private static final String QUOTA = """
      domain: quota-domain
      descriptors:
        - key: regular
          rate_limit: {unit: minute, requests_per_unit: 2}
          metadata: {name: service_1, tier: {plan: gold}}
        - key: quota
          quota_mode: true
          rate_limit: {unit: minute, requests_per_unit: 1}
          metadata: {name: service_2, other: 7, tier: {region: eu, plan: silver}}
        - key: plain
          rate_limit: {unit: minute, requests_per_unit: 5}
      """;

  private static RlsBehaviour behaviour(boolean globalQuotaMode, boolean dynamicMetadata) {
    return new RlsBehaviour(false, RlsBehaviour.LIMIT_HEADER, RlsBehaviour.REMAINING_HEADER, RlsBehaviour.RESET_HEADER,
        RlsBehaviour.NEAR_LIMIT_RATIO, false, false, globalQuotaMode, dynamicMetadata);
  }

  /** TestServiceGlobalQuotaMode: one limit over is not enough; all of them over is OVER_LIMIT. */
  @Test
  void theGlobalQuotaModeRefusesOnlyWhenEveryLimitIsOver() {
    try (RlsFixture quota = new RlsFixture(behaviour(true, false), false, "q.yaml", QUOTA)) {
      quota.call(request("quota-domain", descriptor("regular", "a"), descriptor("plain", "a")));
      quota.call(request("quota-domain", descriptor("regular", "a"), descriptor("plain", "a")));
      RateLimitResponse oneOver = quota.call(request("quota-domain", descriptor("regular", "a"), descriptor("plain", "a")));
      assertThat(oneOver.getStatuses(0).getCode()).isEqualTo(Code.OVER_LIMIT);
      assertThat(oneOver.getOverallCode()).as("plain is still within its limit").isEqualTo(Code.OK);
      RateLimitResponse allOver = quota.call(request("quota-domain", descriptor("regular", "a"),
          withHits(descriptor("plain", "a"), 5)));
      assertThat(allOver.getStatusesList()).extracting(RateLimitResponse.DescriptorStatus::getCode)
          .containsExactly(Code.OVER_LIMIT, Code.OVER_LIMIT);
      assertThat(allOver.getOverallCode()).isEqualTo(Code.OVER_LIMIT);
    }
    try (RlsFixture perDescriptor = new RlsFixture(behaviour(false, false), false, "q.yaml", QUOTA)) {
      for (int i = 0; i < 2; i++) {
        perDescriptor.call(request("quota-domain", descriptor("regular", "b")));
      }
      assertThat(perDescriptor.call(request("quota-domain", descriptor("regular", "b"), descriptor("plain", "b")))
          .getOverallCode()).as("without it, a regular limit over refuses").isEqualTo(Code.OVER_LIMIT);
    }
  }

  /** TestMetadataReturnedForPassedDescriptors: a limit over gives no metadata; the one that passed does. */
  @Test
  void theMetadataOfTheLimitsThatPassedIsSent() {
    try (RlsFixture metadata = new RlsFixture(behaviour(true, true), false, "q.yaml", QUOTA)) {
      metadata.call(request("quota-domain", descriptor("quota", "c")));
      RateLimitResponse response = metadata.call(request("quota-domain", descriptor("regular", "c"),
          descriptor("quota", "c")));
      assertThat(response.getOverallCode()).isEqualTo(Code.OK);
      Struct sent = response.getDynamicMetadata();
      assertThat(sent.getFieldsOrThrow("domain").getStringValue()).isEqualTo("quota-domain");
      assertThat(sent.getFieldsOrThrow("descriptors").getListValue().getValuesList())
          .extracting(d -> d.getStructValue().getFieldsOrThrow("entries").getListValue().getValues(0).getStringValue())
          .containsExactly("regular=c", "quota=c");
      Struct passed = sent.getFieldsOrThrow("metadata").getStructValue();
      assertThat(passed.getFieldsOrThrow("name").getStringValue()).isEqualTo("service_1");
      assertThat(passed.getFieldsMap()).doesNotContainKey("other");
    }
  }

  /**
   * TestMetadataReturnedForAllPassedDescriptors and TestOverlappingMetadataReturnsTheFirstValue:
   * every passed limit's fields, the first value of a field winning, mappings merged; the hits kept.
   */
  @Test
  void theMetadataOfSeveralLimitsMergesAndTheFirstValueWins() {
    try (RlsFixture metadata = new RlsFixture(behaviour(false, true), false, "q.yaml", QUOTA)) {
      RateLimitResponse response = metadata.call(request("quota-domain", descriptor("regular", "d"),
          withHits(descriptor("quota", "d"), 1), descriptor("plain", "d")));
      Struct sent = response.getDynamicMetadata();
      Struct passed = sent.getFieldsOrThrow("metadata").getStructValue();
      assertThat(passed.getFieldsOrThrow("name").getStringValue()).isEqualTo("service_1");
      assertThat(passed.getFieldsOrThrow("other")).as("scalars are sent as text")
          .isEqualTo(Value.newBuilder().setStringValue("7").build());
      Struct tier = passed.getFieldsOrThrow("tier").getStructValue();
      assertThat(tier.getFieldsOrThrow("plan").getStringValue()).isEqualTo("gold");
      assertThat(tier.getFieldsOrThrow("region").getStringValue()).isEqualTo("eu");
      Struct second = sent.getFieldsOrThrow("descriptors").getListValue().getValues(1).getStructValue();
      assertThat(second.getFieldsOrThrow("hitsAddend").getNumberValue()).isEqualTo(1);
    }
  }

  /** Without the setting, no dynamic metadata is sent. */
  @Test
  void noMetadataIsSentWithoutTheSetting() {
    try (RlsFixture plain = new RlsFixture(behaviour(false, false), false, "q.yaml", QUOTA)) {
      assertThat(plain.call(request("quota-domain", descriptor("regular", "e"))).hasDynamicMetadata()).isFalse();
    }
  }
}
