package io.sluice.verticles.server.check;

import io.sluice.verticles.server.http.JsonBody;
import io.sluice.verticles.server.http.Endpoint;
import io.vertx.core.Future;
import io.vertx.core.http.HttpServerRequest;

/**
 * {@code POST /v1/peek} {@code {"policy":"…","key":"…"}}: what a check of cost 1 would answer,
 * consuming nothing and writing nothing. Always 200; {@code allowed} in the body and the header
 * fields tell the rest.
 */
record PeekHandler(CheckServices services) implements Endpoint.RequestAction {

  @Override
  public Future<Void> serve(HttpServerRequest http) {
    services.decisions().request("peek");
    return JsonBody.read(http, CheckRequest.EXAMPLE).compose(body -> {
      CheckRequest peek = CheckRequest.fromJson(body, CheckRequest.PEEK_FIELDS, http, services.policies());
      return services.run(LimitTask.peek(peek.recordKey(), peek.target().policy().strategy()))
          .map(done -> {
            DecisionResponse.send(http.response(), peek.target(), done.decision(), done.nowNs(), DecisionResponse.PEEKED);
            return null;
          });
    });
  }
}
