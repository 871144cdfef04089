package io.sluice.verticles.server.grpc;

import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse.Code;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse.DescriptorStatus;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse.RateLimit.Unit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static io.sluice.verticles.server.grpc.RlsFixture.descriptor;
import static io.sluice.verticles.server.grpc.RlsFixture.request;
import static io.sluice.verticles.server.grpc.RlsFixture.withHits;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every config example of envoyproxy/ratelimit's README (its "Examples" section, 1 to 9), loaded
 * as written there, answering over gRPC what the README says it answers. Each test's comment
 * quotes the README's claim in our words. The clock stands still, so every call of a test falls in
 * one window.
 */
class RlsReadmeExamplesTest {

  private static RlsFixture rls;

  @BeforeAll
  static void start() {
    rls = new RlsFixture(
        "example1.yaml", """
            domain: mongo_cps
            descriptors:
              - key: database
                value: users
                rate_limit:
                  unit: second
                  requests_per_unit: 500

              - key: database
                value: default
                rate_limit:
                  unit: second
                  requests_per_unit: 500
            """,
        "example2.yaml", """
            domain: messaging
            descriptors:
              # Only allow 5 marketing messages a day
              - key: message_type
                value: marketing
                descriptors:
                  - key: to_number
                    rate_limit:
                      unit: day
                      requests_per_unit: 5

              # Only allow 100 messages a day to any unique phone number
              - key: to_number
                rate_limit:
                  unit: day
                  requests_per_unit: 100
            """,
        "example3.yaml", """
            domain: edge_proxy_per_ip
            descriptors:
              - key: remote_address
                rate_limit:
                  unit: second
                  requests_per_unit: 10

              # Black list IP
              - key: remote_address
                value: 50.0.0.5
                rate_limit:
                  unit: second
                  requests_per_unit: 0
            """,
        // Example 4 shows two configs of one domain; here they are two domains, one per config.
        "example4-flat.yaml", """
            domain: example4
            descriptors:
              - key: key
                value: value
                rate_limit:
                  requests_per_unit: 300
                  unit: second
            """,
        "example4-nested.yaml", """
            domain: example4_nested
            descriptors:
              - key: key
                value: value
                descriptors:
                  - key: subkey
                    rate_limit:
                      requests_per_unit: 300
                      unit: second
            """,
        "example5.yaml", """
            domain: internal
            descriptors:
              - key: ldap
                rate_limit:
                  unlimited: true

              - key: azure
                rate_limit:
                  unit: minute
                  requests_per_unit: 100
            """,
        "example6.yaml", """
            domain: example6
            descriptors:
              - key: service
                descriptors:
                  - key: user
                    value: user-a
                    rate_limit:
                      requests_per_unit: 10
                      unit: second
                    shadow_mode: true
                  - key: user
                    value: user-b
                    rate_limit:
                      requests_per_unit: 20
                      unit: second
            """,
        "example7.yaml", """
            domain: example7
            descriptors:
              - key: key_1
                value: value_1
                descriptors:
                  - key: user
                    value: bkthomps
                    rate_limit:
                      name: specific_limit
                      requests_per_unit: 5
                      unit: second
              - key: key_2
                value: value_2
                descriptors:
                  - key: user
                    value: bkthomps
                    rate_limit:
                      replaces:
                        - name: specific_limit
                      requests_per_unit: 10
                      unit: second
            """,
        "example8.yaml", """
            domain: example8
            descriptors:
              - key: key1
                detailed_metric: true
                rate_limit:
                  unit: minute
                  requests_per_unit: 10
              - key: key1
                value: value1
                rate_limit:
                  unit: minute
                  requests_per_unit: 20
            """,
        "example9.yaml", """
            domain: example9
            descriptors:
              - key: key1
                value: value*
                rate_limit:
                  unit: minute
                  requests_per_unit: 20
            """);
  }

  @AfterAll
  static void stop() {
    rls.close();
  }

  private static DescriptorStatus only(RateLimitResponse response) {
    assertThat(response.getStatusesCount()).isEqualTo(1);
    return response.getStatuses(0);
  }

  private static void assertLimit(DescriptorStatus status, int requestsPerUnit, Unit unit) {
    assertThat(status.hasCurrentLimit()).as("has a limit: %s", status).isTrue();
    assertThat(status.getCurrentLimit().getRequestsPerUnit()).isEqualTo(requestsPerUnit);
    assertThat(status.getCurrentLimit().getUnit()).isEqualTo(unit);
  }

  /** Example 1: two limits of 500 per second, one per database, each with its own count. */
  @Test
  void example1TwoDatabasesHaveFiveHundredPerSecondEach() {
    DescriptorStatus users = only(rls.call(request("mongo_cps", descriptor("database", "users"))));
    assertThat(users.getCode()).isEqualTo(Code.OK);
    assertLimit(users, 500, Unit.SECOND);
    assertThat(users.getLimitRemaining()).isEqualTo(499);

    RateLimitResponse rest = rls.call(request("mongo_cps", withHits(descriptor("database", "users"), 499)));
    assertThat(rest.getOverallCode()).isEqualTo(Code.OK);
    assertThat(only(rest).getLimitRemaining()).isZero();
    RateLimitResponse over = rls.call(request("mongo_cps", descriptor("database", "users")));
    assertThat(over.getOverallCode()).isEqualTo(Code.OVER_LIMIT);
    assertThat(only(over).getCode()).isEqualTo(Code.OVER_LIMIT);

    DescriptorStatus other = only(rls.call(request("mongo_cps", descriptor("database", "default"))));
    assertThat(other.getCode()).isEqualTo(Code.OK);
    assertThat(other.getLimitRemaining()).as("database default counts apart").isEqualTo(499);
  }

  /**
   * Example 2: marketing messages to one number, 5 a day (the key-only to_number below
   * message_type marketing: each number gets its own 5); any message to one number, 100 a day;
   * both in one request, limited on all and answered as one.
   */
  @Test
  void example2MarketingFivePerNumberAndAHundredPerNumberInOneRequest() {
    for (int i = 1; i <= 5; i++) {
      RateLimitResponse response = rls.call(request("messaging",
          descriptor("message_type", "marketing", "to_number", "2061111111"), descriptor("to_number", "2061111111")));
      assertThat(response.getOverallCode()).isEqualTo(Code.OK);
      assertLimit(response.getStatuses(0), 5, Unit.DAY);
      assertThat(response.getStatuses(0).getLimitRemaining()).isEqualTo(5 - i);
      assertLimit(response.getStatuses(1), 100, Unit.DAY);
      assertThat(response.getStatuses(1).getLimitRemaining()).isEqualTo(100 - i);
    }
    RateLimitResponse sixth = rls.call(request("messaging",
        descriptor("message_type", "marketing", "to_number", "2061111111"), descriptor("to_number", "2061111111")));
    assertThat(sixth.getOverallCode()).isEqualTo(Code.OVER_LIMIT);
    assertThat(sixth.getStatuses(0).getCode()).isEqualTo(Code.OVER_LIMIT);
    assertThat(sixth.getStatuses(1).getCode()).isEqualTo(Code.OK);
    assertThat(sixth.getStatuses(1).getLimitRemaining()).isEqualTo(94);

    RateLimitResponse otherNumber = rls.call(request("messaging",
        descriptor("message_type", "marketing", "to_number", "2062222222")));
    assertThat(otherNumber.getOverallCode()).isEqualTo(Code.OK);
    assertThat(only(otherNumber).getLimitRemaining()).as("each number gets 5").isEqualTo(4);
  }

  /** Example 3: 10 per second for any address, but the exact 50.0.0.5 is matched first: 0, refused. */
  @Test
  void example3ExactValueIsMatchedBeforeTheKeyAlone() {
    DescriptorStatus any = only(rls.call(request("edge_proxy_per_ip", descriptor("remote_address", "50.0.0.1"))));
    assertThat(any.getCode()).isEqualTo(Code.OK);
    assertLimit(any, 10, Unit.SECOND);
    assertThat(any.getLimitRemaining()).isEqualTo(9);

    RateLimitResponse banned = rls.call(request("edge_proxy_per_ip", descriptor("remote_address", "50.0.0.5")));
    assertThat(banned.getOverallCode()).isEqualTo(Code.OVER_LIMIT);
    assertLimit(only(banned), 0, Unit.SECOND);
  }

  /** Example 4: a two-entry descriptor does not match a one-level config, and matches a two-level one. */
  @Test
  void example4EntriesMatchLevelForLevel() {
    DescriptorStatus flat = only(rls.call(request("example4", descriptor("key", "value", "subkey", "subvalue"))));
    assertThat(flat.getCode()).isEqualTo(Code.OK);
    assertThat(flat.hasCurrentLimit()).as("no match, no limit").isFalse();

    DescriptorStatus nested = only(rls.call(request("example4_nested", descriptor("key", "value", "subkey", "subvalue"))));
    assertLimit(nested, 300, Unit.SECOND);
    assertThat(nested.getLimitRemaining()).isEqualTo(299);
  }

  /** Example 5: an unlimited descriptor is OK with LimitRemaining MaxUint32; azure has 100 a minute. */
  @Test
  void example5UnlimitedAnswersOkWithTheLargestRemaining() {
    for (int i = 0; i < 3; i++) {
      DescriptorStatus ldap = only(rls.call(request("internal", descriptor("ldap", "anything"))));
      assertThat(ldap.getCode()).isEqualTo(Code.OK);
      assertThat(Integer.toUnsignedLong(ldap.getLimitRemaining())).isEqualTo(4_294_967_295L);
      assertThat(ldap.hasCurrentLimit()).isFalse();
    }
    DescriptorStatus azure = only(rls.call(request("internal", descriptor("azure", "x"))));
    assertLimit(azure, 100, Unit.MINUTE);
    assertThat(azure.getLimitRemaining()).isEqualTo(99);
  }

  /** Example 6: user-a is in shadow mode, never limited beyond its 10/s (but counted); user-b is limited at 20/s. */
  @Test
  void example6ShadowModeNeverLimits() {
    RateLimitResponse a = rls.call(request("example6",
        withHits(descriptor("service", "auth-service", "user", "user-a"), 15)));
    assertThat(a.getOverallCode()).isEqualTo(Code.OK);
    assertThat(only(a).getCode()).isEqualTo(Code.OK);
    assertLimit(only(a), 10, Unit.SECOND);

    RateLimitResponse b = rls.call(request("example6",
        withHits(descriptor("service", "auth-service", "user", "user-b"), 21)));
    assertThat(b.getOverallCode()).isEqualTo(Code.OVER_LIMIT);
    assertLimit(only(b), 20, Unit.SECOND);

    assertThat(rls.rls().stats().all()).anySatisfy(counts -> {
      assertThat(counts.domain()).isEqualTo("example6");
      assertThat(counts.descriptor()).isEqualTo("service.user_user-a");
      assertThat(counts.shadowMode()).as("as upstream: the hits past the limit only").isEqualTo(5);
      assertThat(counts.overLimit()).isEqualTo(5);
    });
  }

  /**
   * Example 7: (key_1, value_1), (user, bkthomps) is 5/s; (key_2, value_2), (user, bkthomps) is
   * 10/s; both in one request, the 10/s replaces the 5/s, whose count is left untouched.
   */
  @Test
  void example7ReplacesDropsTheReplacedLimit() {
    RateLimitResponse both = rls.call(request("example7",
        descriptor("key_1", "value_1", "user", "bkthomps"), descriptor("key_2", "value_2", "user", "bkthomps")));
    assertThat(both.getStatuses(0).hasCurrentLimit()).as("replaced").isFalse();
    assertThat(both.getStatuses(0).getCode()).isEqualTo(Code.OK);
    assertLimit(both.getStatuses(1), 10, Unit.SECOND);
    assertThat(both.getStatuses(1).getLimitRemaining()).isEqualTo(9);

    DescriptorStatus alone = only(rls.call(request("example7", descriptor("key_1", "value_1", "user", "bkthomps"))));
    assertLimit(alone, 5, Unit.SECOND);
    assertThat(alone.getLimitRemaining()).as("the replaced limit was not counted").isEqualTo(4);
  }

  /** Example 8: any key1 value has 10/min, each counted apart; value1 has 20/min; metrics per value. */
  @Test
  void example8DetailedMetricCountsEachValue() {
    DescriptorStatus first = only(rls.call(request("example8", descriptor("key1", "unspecified_value"))));
    assertLimit(first, 10, Unit.MINUTE);
    assertThat(first.getLimitRemaining()).isEqualTo(9);
    DescriptorStatus second = only(rls.call(request("example8", descriptor("key1", "unspecified_value2"))));
    assertThat(second.getLimitRemaining()).isEqualTo(9);
    DescriptorStatus specific = only(rls.call(request("example8", descriptor("key1", "value1"))));
    assertLimit(specific, 20, Unit.MINUTE);

    assertThat(rls.rls().stats().all().stream().filter(counts -> counts.domain().equals("example8"))
        .map(counts -> counts.descriptor()))
        .containsExactlyInAnyOrder("key1_unspecified_value", "key1_unspecified_value2", "key1_value1");
  }

  /** Example 9: value* matches value_1 and value_2, each with its own 20 a minute. */
  @Test
  void example9WildcardMatchesByPrefix() {
    DescriptorStatus one = only(rls.call(request("example9", descriptor("key1", "value_1"))));
    assertLimit(one, 20, Unit.MINUTE);
    assertThat(one.getLimitRemaining()).isEqualTo(19);
    DescriptorStatus two = only(rls.call(request("example9", withHits(descriptor("key1", "value_2"), 2))));
    assertThat(two.getLimitRemaining()).isEqualTo(18);
    DescriptorStatus other = only(rls.call(request("example9", descriptor("key1", "other"))));
    assertThat(other.hasCurrentLimit()).isFalse();
  }
}
