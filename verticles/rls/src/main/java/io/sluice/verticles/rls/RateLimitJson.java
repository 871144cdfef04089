package io.sluice.verticles.rls;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitRequest;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse;

/**
 * The request and response in protobuf's JSON mapping, as envoyproxy/ratelimit's {@code /json}
 * endpoint reads and writes them: {@code {"domain":…,"descriptors":[{"entries":[{"key":…,"value":…}]}]}}
 * in, {@code {"overallCode":"OK","statuses":[{"code":"OK","currentLimit":{…},"limitRemaining":4,…}]}}
 * out (fields at their default, such as a remaining of 0, are left out). Unknown fields are refused.
 */
public final class RateLimitJson {

  private static final JsonFormat.Parser PARSER = JsonFormat.parser();
  private static final JsonFormat.Printer PRINTER = JsonFormat.printer().omittingInsignificantWhitespace();

  private RateLimitJson() {
  }

  /** @throws InvalidRateLimitRequest when the text is not such a request */
  public static RateLimitRequest request(String json) {
    RateLimitRequest.Builder request = RateLimitRequest.newBuilder();
    try {
      PARSER.merge(json, request);
    } catch (InvalidProtocolBufferException | RuntimeException invalid) {
      throw new InvalidRateLimitRequest("not a rate limit request such as "
          + "{\"domain\":\"d\",\"descriptors\":[{\"entries\":[{\"key\":\"k\",\"value\":\"v\"}]}]}: " + invalid.getMessage());
    }
    return request.build();
  }

  public static String response(RateLimitResponse response) {
    try {
      return PRINTER.print(response);
    } catch (InvalidProtocolBufferException cannotHappen) {
      // Only Any fields with unknown types fail to print; the response has none.
      throw new IllegalStateException(cannotHappen);
    }
  }
}
