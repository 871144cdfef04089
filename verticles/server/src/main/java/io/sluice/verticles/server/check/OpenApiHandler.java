package io.sluice.verticles.server.check;

import io.sluice.verticles.server.http.Endpoint;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/** {@code GET /openapi.json}: the OpenAPI 3 description of the check API, a resource of this package. */
final class OpenApiHandler implements Endpoint.RequestAction {

  static final String RESOURCE = "openapi.json";

  private final Buffer document = load();

  @Override
  public Future<Void> serve(HttpServerRequest request) {
    return request.response().putHeader(HttpHeaders.CONTENT_TYPE, Endpoint.JSON).end(document);
  }

  private static Buffer load() {
    try (InputStream in = OpenApiHandler.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(RESOURCE + " is missing from the jar");
      }
      return Buffer.buffer(in.readAllBytes());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
