package io.sluice.verticles.server.grpc;

import io.sluice.verticles.rls.InvalidRateLimitRequest;
import io.sluice.verticles.rls.RateLimitJson;
import io.sluice.verticles.rls.RateLimitService;
import io.sluice.verticles.server.http.ApiError;
import io.sluice.verticles.server.tracing.DecisionSpan;
import io.sluice.verticles.server.http.Endpoint;
import io.sluice.verticles.server.http.JsonBody;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitRequest;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse;
import io.vertx.core.Future;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.RoutingContext;

import java.util.function.Supplier;

/**
 * {@code POST /json}: a RateLimitRequest in protobuf's JSON mapping, answered with the
 * RateLimitResponse the same way, 200 when the overall code is OK and 429 when it is OVER_LIMIT
 * (envoyproxy/ratelimit's HTTP endpoint). A body that is not such a request is a 400.
 */
final class JsonHandler implements Endpoint.Action {

  static final String PATH = "/json";
  private static final String EXAMPLE = "{\"domain\":\"d\",\"descriptors\":[{\"entries\":[{\"key\":\"k\",\"value\":\"v\"}]}]}";

  private final Supplier<RateLimitService> service;

  JsonHandler(Supplier<RateLimitService> service) {
    this.service = service;
  }

  @Override
  public Future<Void> serve(RoutingContext context) {
    DecisionSpan span = DecisionSpan.current("POST " + PATH);
    return JsonBody.read(context.request(), EXAMPLE).compose(body -> {
      RateLimitRequest request;
      try {
        request = RateLimitJson.request(body.encode());
      } catch (InvalidRateLimitRequest invalid) {
        return Future.failedFuture(ApiError.badRequest(invalid.getMessage()));
      }
      return Future.fromCompletionStage(service.get().shouldRateLimit(request))
          .recover(failure -> Future.failedFuture(ServiceFailures.cause(failure) instanceof InvalidRateLimitRequest invalid
              ? ApiError.badRequest(invalid.getMessage()) : ServiceFailures.cause(failure)))
          .compose(response -> {
            span.rateLimited(request.getDomain(), response.getOverallCode().name());
            return context.response()
              .setStatusCode(response.getOverallCode() == RateLimitResponse.Code.OVER_LIMIT ? 429 : 200)
              .putHeader(HttpHeaders.CONTENT_TYPE, Endpoint.JSON)
              .end(RateLimitJson.response(response));
          });
    });
  }
}
