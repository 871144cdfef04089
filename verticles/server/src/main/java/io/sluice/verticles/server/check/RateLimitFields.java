package io.sluice.verticles.server.check;

import io.sluice.verticles.strategies.Decision;
import io.sluice.verticles.strategies.Result;
import io.sluice.verticles.strategies.policy.AdvertisedLimit;
import io.sluice.verticles.strategies.policy.Policy;
import io.netty.util.AsciiString;

import java.util.HashMap;
import java.util.Map;

/**
 * The rate-limit header fields of one policy, as draft-ietf-httpapi-ratelimit-headers-10 spells
 * them: Structured Field lists of string items with integer parameters.
 *
 * <pre>
 * RateLimit-Policy: "per-key-5-per-10s";q=5;w=10
 * RateLimit: "per-key-5-per-10s";r=4;t=10
 * </pre>
 *
 * A policy with one limit is one item named after the policy; a policy with several (fixed-window
 * quotas, the two sides of a composite) has one item per limit, named {@code <policy>:<result>}
 * ({@code "api:minute"}, {@code "login:secondary_default"}). RateLimit lists the limits the
 * strategy reported: a composite denied by its primary reports no secondary.
 *
 * <p>{@code t} counts whole seconds, rounded up, to the strategy's reset instant, whose meaning is
 * the strategy's (spec §4: a bucket reports "now" when it admits). The policy field never changes,
 * so it is built once; the RateLimit field's item names are prepared as bytes once, and only its
 * numbers are written per answer.
 */
final class RateLimitFields {

  private static final byte[] ITEM_SEPARATOR = AsciiText.ascii(", ");
  private static final byte[] RESET_PARAMETER = AsciiText.ascii(";t=");

  private final Policy policy;
  private final AsciiString policyField;
  /** Result name → the quoted item name, with its leading quote and trailing {@code ";r="}, in ASCII. */
  private final Map<String, byte[]> itemStarts = new HashMap<>();

  RateLimitFields(Policy policy) {
    this.policy = policy;
    boolean single = policy.limits().size() == 1;
    StringBuilder field = new StringBuilder();
    for (AdvertisedLimit limit : policy.limits()) {
      // Policy and quota names are drawn from [A-Za-z0-9_-:.@+]: nothing to escape in an sf-string.
      String item = '"' + (single ? policy.name() : policy.name() + ':' + limit.result()) + '"';
      itemStarts.put(limit.result(), AsciiText.ascii(item + ";r="));
      if (field.length() > 0) {
        field.append(", ");
      }
      field.append(item).append(";q=").append(limit.quota()).append(";w=").append(limit.windowSeconds());
    }
    this.policyField = new AsciiString(field);
  }

  Policy policy() {
    return policy;
  }

  /** The RateLimit-Policy value. */
  AsciiString policyField() {
    return policyField;
  }

  /** The RateLimit value for a decision taken at {@code nowNs}, written into {@code field} (cleared first). */
  AsciiString limitField(Decision decision, long nowNs, AsciiText field) {
    field.clear();
    for (Result result : decision.results()) {
      if (field.length() > 0) {
        field.append(ITEM_SEPARATOR);
      }
      field.append(itemStarts.get(result.name())).append(result.remaining())
          .append(RESET_PARAMETER).append(secondsUntil(result.resetNs(), nowNs));
    }
    return field.toAsciiString();
  }

  /** Whole seconds from now to an instant, rounded up; 0 for the past. */
  static long secondsUntil(long instantNs, long nowNs) {
    return ceilSeconds(Math.max(0, instantNs - nowNs));
  }

  /** Nanoseconds as whole seconds, rounded up so that a client waiting that long is never early. */
  static long ceilSeconds(long nanos) {
    return nanos / 1_000_000_000L + (nanos % 1_000_000_000L == 0 ? 0 : 1);
  }
}
