package io.sluice.verticles.server.http;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;

import java.util.Locale;

/**
 * Reads a request body of at most {@link #MAX_BYTES} as a JSON object. API requests are a few
 * dozen bytes; a bound keeps a client from making the server buffer megabytes. The body must say it
 * is JSON (415 otherwise). Must be called from the route handler itself, before anything
 * asynchronous: the router does not pause requests.
 */
public final class JsonBody {

  public static final int MAX_BYTES = 16 * 1024;

  private JsonBody() {
  }

  /** @param example a valid body, quoted in the error a bad body gets */
  public static Future<JsonObject> read(HttpServerRequest request, String example) {
    if (!declaresJson(request)) {
      // A cross-site page may POST text/plain or a form without asking first, never JSON.
      return Future.failedFuture(new ApiError(415, "the body must be JSON, sent with Content-Type: "
          + Endpoint.JSON, null));
    }
    long declared = declaredLength(request);
    if (declared > MAX_BYTES) {
      return Future.failedFuture(tooLarge());
    }
    Promise<JsonObject> parsed = Promise.promise();
    Buffer body = Buffer.buffer(declared < 0 ? 256 : (int) declared);
    request.handler(chunk -> {
      if (body.length() + chunk.length() > MAX_BYTES) {
        parsed.tryFail(tooLarge());
      } else {
        body.appendBuffer(chunk);
      }
    });
    request.exceptionHandler(parsed::tryFail);
    request.endHandler(end -> {
      if (!parsed.future().isComplete()) {
        try {
          parsed.complete(parse(body, example));
        } catch (ApiError invalid) {
          parsed.fail(invalid);
        }
      }
    });
    return parsed.future();
  }

  /** application/json, or any application/…+json, with or without parameters (charset). */
  private static boolean declaresJson(HttpServerRequest request) {
    String type = request.getHeader(HttpHeaders.CONTENT_TYPE);
    if (type == null) {
      return false;
    }
    int parameters = type.indexOf(';');
    String media = (parameters < 0 ? type : type.substring(0, parameters)).trim().toLowerCase(Locale.ROOT);
    return media.equals(Endpoint.JSON) || (media.startsWith("application/") && media.endsWith("+json"));
  }

  /** The Content-Length, or -1 when there is none (a chunked body). */
  private static long declaredLength(HttpServerRequest request) {
    String declared = request.getHeader(HttpHeaders.CONTENT_LENGTH);
    if (declared == null) {
      return -1;
    }
    try {
      return Long.parseLong(declared.trim());
    } catch (NumberFormatException e) {
      return Long.MAX_VALUE; // the HTTP decoder refuses these first; never buffer on a guess
    }
  }

  public static JsonObject parse(Buffer body, String example) {
    if (body.length() == 0) {
      throw ApiError.badRequest("the body must be a JSON object such as " + example + ", it is empty");
    }
    try {
      JsonObject json = new JsonObject(body);
      if (json.getMap() == null) {
        throw new DecodeException("found null");
      }
      return json;
    } catch (DecodeException | ClassCastException notAnObject) {
      String reason = String.valueOf(notAnObject.getMessage());
      int newline = reason.indexOf('\n');
      throw ApiError.badRequest("the body must be a JSON object such as " + example + ": "
          + (newline < 0 ? reason : reason.substring(0, newline)));
    }
  }

  private static ApiError tooLarge() {
    return new ApiError(413, "the body is larger than " + MAX_BYTES + " bytes", null);
  }
}
