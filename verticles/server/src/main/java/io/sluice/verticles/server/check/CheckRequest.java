package io.sluice.verticles.server.check;

import io.sluice.verticles.server.http.ApiError;
import io.sluice.verticles.strategies.policy.Policy;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;

import java.math.BigInteger;
import java.util.List;
import java.util.regex.Pattern;

/**
 * What a check or peek asks: a policy, the key its extractor built from the request, the state
 * record that key lives in, and the cost. Built from a JSON body ({@code POST /v1/check},
 * {@code POST /v1/peek}) or from a proxy's forwarded request ({@code /v1/check/{policy}/…}), and
 * validated the same way for both.
 */
record CheckRequest(RateLimitFields target, String key, byte[] recordKey, long cost) {

  /** A valid body, quoted when a body is not JSON. */
  static final String EXAMPLE = "{\"policy\":\"…\",\"key\":\"…\",\"cost\":1}";

  /** Fields of a JSON check; a peek takes the same but {@code cost}. */
  static final List<String> CHECK_FIELDS = List.of("policy", "key", "cost", "path");
  static final List<String> PEEK_FIELDS = List.of("policy", "key", "path");

  /**
   * The path of the original request, as nginx is usually told to send it
   * ({@code proxy_set_header X-Original-URI $request_uri}).
   */
  static final String ORIGINAL_URI = "X-Original-URI";

  /** The reason of a check that names no key, which proxies answer as the client's fault. */
  static final String MISSING_KEY = "missing_key";

  private static final Pattern DIGITS = Pattern.compile("[0-9]{1,19}");

  /** From a JSON body; unknown fields are refused, so a misspelt {@code cost} is not silently 1. */
  static CheckRequest fromJson(JsonObject body, List<String> fields, HttpServerRequest http, CheckPolicies policies) {
    for (String field : body.fieldNames()) {
      if (!fields.contains(field)) {
        throw ApiError.badRequest("unknown field '" + field + "' (fields: " + String.join(", ", fields) + ")");
      }
    }
    RateLimitFields target = policies.get(string(body, "policy"));
    String key = string(body, "key");
    String path = string(body, "path");
    long cost = fields.contains("cost") ? jsonCost(body.getValue("cost"), target.policy()) : 1;
    return build(target, key, cost, new HttpFacts(http, key, path != null ? path : originalPath(http, null)));
  }

  /**
   * From a request a proxy forwarded: the policy from the URL, {@code ?key=} and {@code ?cost=}
   * from the query, the limited path from {@code X-Original-URI} or else from what follows the
   * policy in the URL (Envoy appends the original path to its {@code path_prefix}).
   */
  static CheckRequest forwarded(HttpServerRequest http, String policy, String pathAfterPolicy, CheckPolicies policies) {
    RateLimitFields target = policies.get(policy);
    // Envoy appends the original query: a ?key= there is the client's, not a choice of key, unless
    // the policy says keys come from param. (A POST naming a key such a policy ignores is refused.)
    String key = target.policy().key().acceptsParam() ? QueryParam.of(http, "key") : null;
    String costText = QueryParam.of(http, "cost");
    long cost = costText == null ? 1 : queryCost(costText, target.policy());
    return build(target, key, cost, new HttpFacts(http, key, originalPath(http, pathAfterPolicy)));
  }

  private static CheckRequest build(RateLimitFields target, String explicitKey, long cost, HttpFacts facts) {
    Policy policy = target.policy();
    if (explicitKey != null && !policy.key().acceptsParam()) {
      throw ApiError.badRequest("policy '" + policy.name() + "' builds its key from " + policy.key().spelling()
          + "; it takes no explicit 'key'");
    }
    String key = policy.key().keyOf(facts);
    if (key == null) {
      throw new ApiError(400, "missing key: policy '" + policy.name() + "' takes it from "
          + policy.key().spelling() + ", which this request does not carry", null, MISSING_KEY);
    }
    return new CheckRequest(target, key, LimitKey.of(policy.name(), key), cost);
  }

  private static String originalPath(HttpServerRequest http, String fallback) {
    String uri = http.getHeader(ORIGINAL_URI);
    if (uri == null) {
      return fallback;
    }
    int query = uri.indexOf('?');
    return query < 0 ? uri : uri.substring(0, query);
  }

  private static String string(JsonObject body, String field) {
    Object value = body.getValue(field);
    if (value == null) {
      return null;
    }
    if (!(value instanceof String text)) {
      throw ApiError.badRequest("'" + field + "' must be a string, was " + value);
    }
    if (text.isEmpty()) {
      throw ApiError.badRequest("'" + field + "' must not be empty");
    }
    return text;
  }

  private static long jsonCost(Object value, Policy policy) {
    if (value == null) {
      return 1;
    }
    if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte) {
      return bounded(((Number) value).longValue(), value, policy);
    }
    if (value instanceof BigInteger big) {
      return bounded(big.signum() < 0 ? -1 : Long.MAX_VALUE, value, policy);
    }
    throw notWhole(value, policy);
  }

  private static long queryCost(String text, Policy policy) {
    if (!DIGITS.matcher(text).matches()) {
      throw notWhole(text, policy);
    }
    try {
      return bounded(Long.parseLong(text), text, policy);
    } catch (NumberFormatException tooLarge) {
      return bounded(Long.MAX_VALUE, text, policy);
    }
  }

  private static long bounded(long cost, Object given, Policy policy) {
    if (cost < 1) {
      throw ApiError.badRequest("'cost' must be at least 1, was " + given);
    }
    if (cost > policy.maxCost()) {
      throw ApiError.badRequest("'cost' " + given + " is more than policy '" + policy.name()
          + "' can ever admit (its smallest limit is " + policy.maxCost() + ")");
    }
    return cost;
  }

  private static ApiError notWhole(Object given, Policy policy) {
    return ApiError.badRequest("'cost' must be a whole number from 1 to " + policy.maxCost() + ", was " + given);
  }
}
