package io.sluice.verticles.rls;

import com.google.protobuf.Any;
import com.google.protobuf.UnknownFieldSet;
import io.envoyproxy.envoy.extensions.common.ratelimit.v3.RateLimitDescriptor.Entry;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.envoyproxy.ratelimit.config.ratelimit.v3.RateLimitConfig;
import io.envoyproxy.ratelimit.config.ratelimit.v3.RateLimitDescriptor;
import io.envoyproxy.ratelimit.config.ratelimit.v3.RateLimitPolicy;
import io.envoyproxy.ratelimit.config.ratelimit.v3.RateLimitReplace;
import io.envoyproxy.ratelimit.config.ratelimit.v3.RateLimitUnit;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Pushed RateLimitConfig resources read as the files they stand for: every field of a file comes
 * through, and what a file would be refused for is refused with the file's message.
 */
class XdsRateLimitConfigsTest {

  private static RateLimitPolicy perMinute(int requests) {
    return RateLimitPolicy.newBuilder().setUnit(RateLimitUnit.MINUTE).setRequestsPerUnit(requests).build();
  }

  private static RateLimitConfig domain(String name, RateLimitDescriptor... descriptors) {
    return RateLimitConfig.newBuilder().setName(name).setDomain(name).addAllDescriptors(List.of(descriptors)).build();
  }

  private static List<Entry> entries(String... keysAndValues) {
    List<Entry> entries = new java.util.ArrayList<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      entries.add(Entry.newBuilder().setKey(keysAndValues[i]).setValue(keysAndValues[i + 1]).build());
    }
    return entries;
  }

  @Test
  void everyFieldOfAFileComesThrough() throws RlsConfigException {
    RlsConfig config = XdsRateLimitConfigs.read(List.of(Any.pack(domain("api",
        RateLimitDescriptor.newBuilder().setKey("plan").setValue("free")
            .addDescriptors(RateLimitDescriptor.newBuilder().setKey("user").setDetailedMetric(true)
                .setRateLimit(RateLimitPolicy.newBuilder().setUnit(RateLimitUnit.HOUR).setRequestsPerUnit((int) 4_000_000_000L)
                    .setName("free_user").addReplaces(RateLimitReplace.newBuilder().setName("per_user")))).build(),
        RateLimitDescriptor.newBuilder().setKey("user").setShadowMode(true).setRateLimit(perMinute(0)).build(),
        RateLimitDescriptor.newBuilder().setKey("admin")
            .setRateLimit(RateLimitPolicy.newBuilder().setUnlimited(true)).build())),
        Any.pack(domain("edge", RateLimitDescriptor.newBuilder().setKey("ip").setValue("10.*")
            .setRateLimit(perMinute(5)).build()))));

    assertThat(config.domains()).containsOnlyKeys("api", "edge");
    assertThat(config.sources()).containsExactly("xds resource 'api'", "xds resource 'edge'");
    RateLimit nested = config.limitFor("api", entries("plan", "free", "user", "u1"));
    assertThat(nested.unit()).isEqualTo(WindowUnit.HOUR);
    assertThat(nested.requestsPerUnit()).as("a uint32 above 2^31").isEqualTo(4_000_000_000L);
    assertThat(nested.name()).isEqualTo("free_user");
    assertThat(nested.replaces()).containsExactly("per_user");
    assertThat(nested.detailedMetric()).isTrue();
    RateLimit shadow = config.limitFor("api", entries("user", "u1"));
    assertThat(shadow.shadowMode()).isTrue();
    assertThat(shadow.requestsPerUnit()).as("0 refuses everything").isZero();
    assertThat(config.limitFor("api", entries("admin", "x")).unlimited()).isTrue();
    assertThat(config.limitFor("edge", entries("ip", "10.0.0.1")).requestsPerUnit()).isEqualTo(5);
  }

  @Test
  void whatAFileIsRefusedForIsRefusedWithItsMessage() {
    RateLimitConfig unlimitedWithAUnit = domain("api", RateLimitDescriptor.newBuilder().setKey("user")
        .setRateLimit(RateLimitPolicy.newBuilder().setUnlimited(true).setUnit(RateLimitUnit.SECOND)).build());
    RateLimitConfig sameDomain = domain("api", RateLimitDescriptor.newBuilder().setKey("ip").build()).toBuilder()
        .setName("other").build();
    assertThatThrownBy(() -> XdsRateLimitConfigs.read(List.of(Any.pack(unlimitedWithAUnit), Any.pack(sameDomain))))
        .isInstanceOf(RlsConfigException.class)
        .hasMessageContaining("xds resource 'api':")
        .hasMessageContaining("descriptors[0].rate_limit.unit: an unlimited limit has no unit")
        .hasMessageContaining("domain 'api' is also defined in xds resource 'api'");
  }

  @Test
  void resourcesOfOneDomainMergeOnlyWhenAsked() throws Exception {
    RateLimitConfig users = domain("api", RateLimitDescriptor.newBuilder().setKey("user").setRateLimit(perMinute(3))
        .setQuotaMode(true).build());
    RateLimitConfig addresses = domain("api", RateLimitDescriptor.newBuilder().setKey("ip").setRateLimit(perMinute(7))
        .build()).toBuilder().setName("api-addresses").build();
    List<Any> both = List.of(Any.pack(users), Any.pack(addresses));
    assertThatThrownBy(() -> XdsRateLimitConfigs.read(both)).hasMessageContaining("domain 'api' is also defined in");
    RlsConfig merged = XdsRateLimitConfigs.read(both, true);
    assertThat(merged.limitFor("api", entries("user", "u1")).quotaMode()).isTrue();
    assertThat(merged.limitFor("api", entries("ip", "10.0.0.1")).requestsPerUnit()).isEqualTo(7);
  }

  @Test
  void aFieldTheseProtosDoNotKnowAndAResourceOfAnotherTypeAreRefused() {
    RateLimitDescriptor withMetadata = RateLimitDescriptor.newBuilder().setKey("user").setRateLimit(perMinute(1))
        .setUnknownFields(UnknownFieldSet.newBuilder()
            .addField(8, UnknownFieldSet.Field.newBuilder().addLengthDelimited(com.google.protobuf.ByteString.EMPTY).build())
            .build()).build();
    assertThatThrownBy(() -> XdsRateLimitConfigs.read(List.of(Any.pack(domain("api", withMetadata)))))
        .hasMessage("xds resource 'api': descriptors[0]: RateLimitDescriptor field 8 is not supported by Sluice");
    assertThatThrownBy(() -> XdsRateLimitConfigs.read(List.of(Any.pack(DiscoveryRequest.getDefaultInstance()))))
        .hasMessage("xds resource #0: a type.googleapis.com/envoy.service.discovery.v3.DiscoveryRequest, not a "
            + XdsRateLimitConfigs.TYPE_URL);
  }

  @Test
  void aVersionIsAckedOrNackedAndANackNamesTheVersionInForce() {
    XdsSubscription subscription = new XdsSubscription("node-1");
    assertThat(subscription.subscribe().getNode().getId()).isEqualTo("node-1");
    assertThat(subscription.subscribe().getResourceNamesList()).isEmpty();

    XdsSubscription.Answer good = subscription.answer(DiscoveryResponse.newBuilder().setVersionInfo("1").setNonce("a")
        .setTypeUrl(XdsRateLimitConfigs.TYPE_URL)
        .addResources(Any.pack(domain("api", RateLimitDescriptor.newBuilder().setKey("k").setRateLimit(perMinute(1)).build())))
        .build());
    assertThat(good.accepted()).isTrue();
    assertThat(good.reply().getVersionInfo()).isEqualTo("1");
    assertThat(good.reply().getResponseNonce()).isEqualTo("a");

    XdsSubscription.Answer otherType = subscription.answer(DiscoveryResponse.newBuilder().setVersionInfo("2").setNonce("b")
        .setTypeUrl("type.googleapis.com/envoy.config.cluster.v3.Cluster").build());
    assertThat(otherType.accepted()).isFalse();
    assertThat(otherType.reply().getVersionInfo()).isEqualTo("1");
    assertThat(otherType.reply().getResponseNonce()).isEqualTo("b");
    assertThat(otherType.reply().getErrorDetail().getMessage()).startsWith("not subscribed to type.googleapis.com/envoy.config.cluster.v3.Cluster");
    assertThat(subscription.subscribe().getVersionInfo()).as("a new stream names the version in force").isEqualTo("1");
  }
}
