package io.sluice.verticles.server.dashboard;

import io.sluice.verticles.engine.udprate.rate.RateState;
import io.sluice.verticles.engine.udprate.rate.UdpState;
import io.sluice.verticles.engine.udprate.rate.WindowState;
import io.sluice.verticles.server.check.LimitKey;
import io.sluice.verticles.server.udp.UdpRateRecords;
import io.sluice.verticles.strategies.Decision;
import io.sluice.verticles.strategies.MalformedStateException;
import io.sluice.verticles.strategies.Result;
import io.sluice.verticles.strategies.policy.AdvertisedLimit;
import io.sluice.verticles.strategies.policy.Policies;
import io.sluice.verticles.strategies.policy.Policy;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The state records of the rate limits, decoded for the key page instead of shown as raw text or
 * bytes. An {@code rl:<policy>:<key>} record is read by its policy's strategy as a peek would (per
 * limit: remaining, used, reset; nothing consumed); a {@code udp:<key>} record is the UDP endpoint's
 * decaying rate and when it was last computed. Anything else is not decoded.
 */
final class KeyStates {

  private final Supplier<Policies> policies;

  /** @param policies the policies in service, read at each decode: a reload may replace them */
  KeyStates(Supplier<Policies> policies) {
    this.policies = policies;
  }

  /** The decoded state of a buffer record, or null when it is no rate-limit state this server knows. */
  JsonObject decode(byte[] key, byte[] value, long nowNs) {
    String name = new String(key, StandardCharsets.UTF_8);
    if (name.startsWith(LimitKey.PREFIX)) {
      return decodeLimit(name, value, nowNs);
    }
    if (name.startsWith(UdpRateRecords.PREFIX)) {
      return decodeUdp(name.substring(UdpRateRecords.PREFIX.length()), value);
    }
    return null;
  }

  private JsonObject decodeLimit(String name, byte[] value, long nowNs) {
    int colon = name.indexOf(':', LimitKey.PREFIX.length());
    Policy policy = colon < 0 ? null : policies.get().get(name.substring(LimitKey.PREFIX.length(), colon));
    if (policy == null) {
      return null;
    }
    // ISO-8859-1 as the check API reads it: a stray byte stays visible and fails decoding.
    String state = new String(value, StandardCharsets.ISO_8859_1);
    JsonObject decoded = new JsonObject().put("kind", "rate-limit").put("policy", policy.name())
        .put("strategy", policy.strategy().name()).put("key", name.substring(colon + 1))
        .put("shadow", policy.shadow()).put("state", state);
    Decision decision;
    try {
      decision = policy.strategy().peek(state, nowNs);
    } catch (MalformedStateException malformed) {
      return decoded.put("error", "the state does not decode: " + malformed.getMessage());
    }
    JsonArray limits = new JsonArray();
    for (Result result : decision.results()) {
      JsonObject limit = new JsonObject().put("name", result.name()).put("limit", result.limit())
          .put("remaining", result.remaining()).put("used", Math.max(0, result.limit() - result.remaining()))
          .put("resetInSeconds", Math.max(0, (long) Math.ceil((result.resetNs() - nowNs) / 1e9)))
          .put("resetAtMillis", TimeUnit.NANOSECONDS.toMillis(result.resetNs()));
      for (AdvertisedLimit advertised : policy.limits()) {
        if (advertised.result().equals(result.name())) {
          limit.put("windowSeconds", advertised.windowSeconds());
        }
      }
      limits.add(limit);
    }
    return decoded.put("allowedNow", decision.allowed()).put("limits", limits);
  }

  private static JsonObject decodeUdp(String key, byte[] value) {
    UdpState state;
    try {
      state = UdpRateRecords.decode(value);
    } catch (IllegalStateException malformed) {
      return new JsonObject().put("kind", "udp-rate").put("key", key).put("error", malformed.getMessage());
    }
    if (state instanceof WindowState window) {
      return new JsonObject().put("kind", "udp-window").put("key", key).put("state", window.text());
    }
    RateState rate = (RateState) state;
    return new JsonObject().put("kind", "udp-rate").put("key", key)
        .put("rate", rate.rate()).put("lastSeenMillis", Math.round(rate.tLastSeconds() * 1000));
  }
}
