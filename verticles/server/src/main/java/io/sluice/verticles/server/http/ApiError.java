package io.sluice.verticles.server.http;

import io.vertx.core.json.JsonObject;

/**
 * A request the API answers with an error status and a JSON body {@code {"error": "…"}} (plus
 * details for some). Thrown by parsing and validation, sent by {@link Endpoint}. It carries no stack
 * trace: it is an answer, not a bug.
 */
public final class ApiError extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final int status;
  private final transient JsonObject details;

  public ApiError(int status, String message, JsonObject details) {
    super(message, null, false, false);
    this.status = status;
    this.details = details;
  }

  public static ApiError badRequest(String message) {
    return new ApiError(400, message, null);
  }

  public int status() {
    return status;
  }

  /** The response body. */
  public JsonObject body() {
    JsonObject body = new JsonObject().put("error", getMessage());
    return details == null ? body : body.mergeIn(details);
  }
}
