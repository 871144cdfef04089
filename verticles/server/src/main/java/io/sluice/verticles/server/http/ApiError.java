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
  private final String reason;

  public ApiError(int status, String message, JsonObject details) {
    this(status, message, details, null);
  }

  /**
   * @param reason a short fixed word saying what went wrong ({@code missing_key}), for metrics and
   *               for proxies that act on it; null to name it after the status
   */
  public ApiError(int status, String message, JsonObject details, String reason) {
    super(message, null, false, false);
    this.status = status;
    this.details = details;
    this.reason = reason;
  }

  public static ApiError badRequest(String message) {
    return new ApiError(400, message, null);
  }

  public int status() {
    return status;
  }

  /** What went wrong in one fixed word: the given reason, else one named after the status. */
  public String reason() {
    if (reason != null) {
      return reason;
    }
    return switch (status) {
      case 400 -> "bad_request";
      case 401 -> "unauthorized";
      case 404 -> "not_found";
      case 405 -> "method_not_allowed";
      case 413 -> "too_large";
      case 415 -> "unsupported_media_type";
      case 429 -> "refused";
      default -> status >= 500 ? "internal" : "client_error";
    };
  }

  /** The response body. */
  public JsonObject body() {
    JsonObject body = new JsonObject().put("error", getMessage());
    return details == null ? body : body.mergeIn(details);
  }
}
