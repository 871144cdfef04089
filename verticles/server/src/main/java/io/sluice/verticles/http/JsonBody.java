package io.sluice.verticles.http;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;

/**
 * Reads a request body of at most {@link #MAX_BYTES} as a JSON object. API requests are a few
 * dozen bytes; a bound keeps a client from making the server buffer megabytes. Must be called from
 * the route handler itself, before anything asynchronous: the router does not pause requests.
 */
public final class JsonBody {

  public static final int MAX_BYTES = 16 * 1024;

  private JsonBody() {
  }

  /** @param example a valid body, quoted in the error a bad body gets */
  public static Future<JsonObject> read(HttpServerRequest request, String example) {
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
