package io.sluice.verticles.server.check;

import io.sluice.verticles.server.http.ApiError;
import io.sluice.verticles.server.http.Endpoint;
import io.sluice.verticles.server.http.JsonBody;
import io.sluice.verticles.server.metrics.Callers;
import io.sluice.verticles.server.tracing.DecisionSpan;
import io.sluice.verticles.strategies.policy.Policy;
import io.micrometer.core.instrument.Timer;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;

import java.util.function.BiFunction;

/**
 * A check: consumes the request's cost from the key's limit if it has it; 200 when allowed, 429
 * when not, with the RateLimit header fields and the same JSON body either way. Two ways in, one
 * enforcement:
 *
 * <ul>
 *   <li>{@code POST /v1/check} {@code {"policy":"…","key":"…","cost":1}} ({@link #json});
 *   <li>{@code /v1/check/{policy}[/original/path]?key=…&cost=…}, any method ({@link #forwarded}):
 *       for proxies that forward a request rather than compose one — nginx {@code auth_request}
 *       (a GET subrequest) and Envoy {@code ext_authz} (the original method, its path appended to
 *       the configured prefix). The key comes from the policy's extractor: {@code ?key=}, the
 *       forwarded headers, the client address, or segments of the original path
 *       ({@code X-Original-URI}, else what follows the policy in the URL).
 * </ul>
 */
final class CheckHandler implements Endpoint.RequestAction {

  static final String FORWARDED_PREFIX = "/v1/check/";
  /** The request header a proxy sets to have denials answered 403 instead of 429. */
  static final String DENY_STATUS = "Sluice-Deny-Status";
  /**
   * The response header of a refused check naming its reason in one word ({@code missing_key},
   * {@code unknown_policy}, …), which a proxy can act on without reading the body.
   */
  static final CharSequence ERROR_REASON = HttpHeaders.createOptimized("Sluice-Error");

  private final CheckServices services;
  private final String spanName;
  private final BiFunction<HttpServerRequest, CheckPolicies, Future<CheckRequest>> reader;

  private CheckHandler(CheckServices services, String spanName,
                       BiFunction<HttpServerRequest, CheckPolicies, Future<CheckRequest>> reader) {
    this.services = services;
    this.spanName = spanName;
    this.reader = reader;
  }

  /** {@code POST /v1/check} with a JSON body. */
  static CheckHandler json(CheckServices services) {
    return new CheckHandler(services, "POST /v1/check", (http, policies) -> JsonBody.read(http, CheckRequest.EXAMPLE)
        .map(body -> CheckRequest.fromJson(body, CheckRequest.CHECK_FIELDS, http, policies)));
  }

  /** {@code /v1/check/{policy}[/original/path]}, as a proxy forwards it. */
  static CheckHandler forwarded(CheckServices services) {
    return new CheckHandler(services, FORWARDED_PREFIX + "{policy}", (http, policies) -> {
      PathText.Split path = PathText.split(http.path(), FORWARDED_PREFIX);
      return Future.succeededFuture(CheckRequest.forwarded(http, path.policy(), path.rest(), policies));
    });
  }

  @Override
  public Future<Void> serve(HttpServerRequest request) {
    CheckDecisions decisions = services.decisions();
    decisions.request("check");
    Timer.Sample timing = decisions.start();
    DecisionSpan span = DecisionSpan.current(spanName);
    HttpServerResponse response = request.response();
    // One promise per check, and callbacks rather than a chain of futures: this is every gateway request's path.
    Promise<Void> answered = Promise.promise();
    Future<CheckRequest> read;
    try {
      read = reader.apply(request, services.policies());
    } catch (RuntimeException refused) {
      read = Future.failedFuture(refused);
    }
    read.onComplete(check -> {
      if (check.failed()) {
        answered.fail(check.cause());
      } else {
        decide(request, check.result(), span, answered);
      }
    });
    answered.future().onComplete(done -> {
      decisions.answered(timing);
      // host(): the IP text Vert.x keeps for the connection (hostAddress() would format it per request).
      services.callers().answered(request.remoteAddress().host(), outcome(done.failed(), response),
          request.bytesRead(), response.bytesWritten());
      if (done.failed()) {
        String reason = done.cause() instanceof ApiError error ? error.reason() : "internal";
        decisions.error(reason);
        if (!response.headWritten()) {
          response.putHeader(ERROR_REASON, reason);
        }
      }
    });
    return answered.future();
  }

  /** Runs the check on the key's shard and answers it. */
  private void decide(HttpServerRequest request, CheckRequest check, DecisionSpan span, Promise<Void> answered) {
    int deniedStatus;
    try {
      deniedStatus = deniedStatus(request);
    } catch (ApiError refused) {
      answered.fail(refused);
      return;
    }
    Policy policy = check.target().policy();
    services.shards().send(LimitTask.allow(check.recordKey(), policy.strategy(), check.cost(), policy.onFull()),
        done -> {
          if (done.failure() != null) {
            answered.fail(done.failure());
            return;
          }
          try {
            services.decisions().record(policy, check.key(), done.decision(), done.nowNs());
            span.checked(policy.name(), done.decision().allowed());
            DecisionResponse.send(request.response(), check.target(), done.decision(), done.nowNs(), deniedStatus);
            answered.complete();
          } catch (RuntimeException failed) {
            // As a future's map would: the request is answered (500), never left hanging.
            answered.tryFail(failed);
          }
        },
        answered::fail);
  }

  /** What the caller was answered: a refused check is neither allowed nor denied, a shadow denial is allowed. */
  private static Callers.Outcome outcome(boolean failed, HttpServerResponse response) {
    if (failed) {
      return Callers.Outcome.REFUSED;
    }
    return response.getStatusCode() == 200 ? Callers.Outcome.ALLOWED : Callers.Outcome.DENIED;
  }

  /** 429, or 403 when the proxy asks for it ({@code Sluice-Deny-Status: 403}). */
  private static int deniedStatus(HttpServerRequest request) {
    String asked = request.getHeader(DENY_STATUS);
    if (asked == null || asked.equals("429")) {
      return DecisionResponse.DENIED;
    }
    if (asked.equals("403")) {
      return DecisionResponse.QUIET_DENIAL;
    }
    throw ApiError.badRequest(DENY_STATUS + " must be 403 or 429, was '" + asked + "'");
  }
}
