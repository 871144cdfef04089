package io.sluice.verticles.server.check;

import io.sluice.verticles.server.dispatch.ShardQueries;
import io.sluice.verticles.strategies.Decision;
import io.sluice.verticles.strategies.Result;
import io.sluice.verticles.strategies.policy.Policy;
import io.vertx.core.Future;

import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * A check-API policy applied to the WebSocket bridge's publishes ({@code --ws-publish-rate}): each
 * publish costs 1 against the key its caller names (a user, or a connection). The state lives in
 * the shards under the policy's own records, as a check of {@code /v1/check/POLICY} with that key
 * would keep it, so an operator sees and resets it the same way.
 */
public final class PublishLimits {

  /** @param retryAfterMillis when a denied publisher may try again; -1 when never at this cost */
  public record Verdict(boolean allowed, long retryAfterMillis) {
    static final Verdict ALLOWED = new Verdict(true, 0);
  }

  private final Supplier<io.sluice.verticles.strategies.policy.Policies> policies;
  private final String policyName;

  /** @throws IllegalArgumentException when no policy has that name */
  public PublishLimits(Supplier<io.sluice.verticles.strategies.policy.Policies> policies, String policyName) {
    if (policies.get().get(policyName) == null) {
      throw new IllegalArgumentException("--ws-publish-rate names the policy '" + policyName
          + "', which the config file's policies: section does not define");
    }
    this.policies = policies;
    this.policyName = policyName;
  }

  /**
   * Takes one publish for {@code key}. A policy a reload has removed limits nothing (the reload's
   * log says it went); a shadow policy's denial is allowed, as on the check API.
   */
  public Future<Verdict> take(ShardQueries shards, String key) {
    Policy policy = policies.get().get(policyName);
    if (policy == null) {
      return Future.succeededFuture(Verdict.ALLOWED);
    }
    LimitTask task = LimitTask.allow(LimitKey.of(policy.name(), key), policy.strategy(), 1, policy.onFull());
    return shards.run(task).compose(done -> done.failure() != null
        ? Future.failedFuture(done.failure())
        : Future.succeededFuture(verdict(done.decision(), policy.shadow())));
  }

  private static Verdict verdict(Decision decision, boolean shadow) {
    if (decision.allowed() || shadow) {
      return Verdict.ALLOWED;
    }
    long retryAfterNs = decision.retryAfterNs();
    return new Verdict(false, retryAfterNs == Result.NEVER ? -1 : TimeUnit.NANOSECONDS.toMillis(retryAfterNs + 999_999));
  }
}
