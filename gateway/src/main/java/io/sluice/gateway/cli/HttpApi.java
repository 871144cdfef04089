package io.sluice.gateway.cli;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;

/**
 * The server's HTTP port as {@code sluice cli} uses it: JSON requests to the check API ({@code /v1})
 * and the dashboard API ({@code /api}), with the token as a bearer when there is one.
 */
final class HttpApi {

  /** A JSON answer and its status. */
  record Reply(int status, JsonObject body) {

    /**
     * This reply when its status is one of {@code expected}; otherwise a failure with the server's
     * {@code error} text, such as {@code HTTP 401: missing or wrong bearer token}.
     */
    Reply expect(int... expected) {
      if (Arrays.stream(expected).anyMatch(code -> code == status)) {
        return this;
      }
      throw new IllegalStateException("HTTP " + status + ": " + body.getString("error", body.encode()));
    }
  }

  private final HttpClient client;
  private final Context context;
  private final URI base;
  private final Optional<String> token;

  HttpApi(Vertx vertx, URI base, Optional<String> token, CliTls tls) {
    this.client = vertx.createHttpClient(tls.forHttp(base.getScheme()));
    this.context = vertx.getOrCreateContext();
    this.base = base;
    this.token = token;
  }

  Future<Reply> get(String path) {
    return send(HttpMethod.GET, path, null);
  }

  Future<Reply> post(String path, JsonObject body) {
    return send(HttpMethod.POST, path, body);
  }

  Future<Reply> delete(String path) {
    return send(HttpMethod.DELETE, path, null);
  }

  private Future<Reply> send(HttpMethod method, String path, JsonObject body) {
    boolean https = base.getScheme().equals("https");
    RequestOptions request = new RequestOptions().setMethod(method).setHost(base.getHost())
        .setPort(base.getPort() > 0 ? base.getPort() : https ? 443 : 80).setSsl(https)
        .setURI(prefix() + path);
    token.ifPresent(secret -> request.putHeader(HttpHeaders.AUTHORIZATION, "Bearer " + secret));
    if (body != null) {
      request.putHeader(HttpHeaders.CONTENT_TYPE, "application/json");
    }
    // On the client's own context: driven from the CLI's main thread, a body that arrives with the
    // response's head can be lost, and the answer then reads as empty (seen once in CliCheckApiTest).
    Promise<Answer> answered = Promise.promise();
    context.runOnContext(v -> client.request(request)
        .compose(sent -> body == null ? sent.send() : sent.send(body.toBuffer()))
        .compose(response -> response.body().map(content -> new Answer(response.statusCode(), content)))
        .onComplete(answered));
    return answered.future()
        .recover(failed -> Future.failedFuture(new IllegalStateException("cannot reach " + base + ": " + Cli.message(failed))))
        .map(answer -> new Reply(answer.status(), json(answer, path)));
  }

  /** A whole response, before its body is read as JSON. */
  private record Answer(int status, Buffer content) {
  }

  /** A URL such as {@code https://gateway/sluice} puts every path under {@code /sluice}. */
  private String prefix() {
    String path = base.getRawPath() == null ? "" : base.getRawPath();
    return path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
  }

  private JsonObject json(Answer answer, String path) {
    try {
      return new JsonObject(answer.content());
    } catch (DecodeException | ClassCastException notJson) {
      String start = answer.content().toString(StandardCharsets.UTF_8);
      throw new IllegalStateException("HTTP " + answer.status() + " from " + base + path + " is not a JSON object: "
          + (start.length() > 80 ? start.substring(0, 80) + "…" : start));
    }
  }

  /** Percent-encodes one path segment: every byte outside the unreserved characters of RFC 3986. */
  static String segment(String text) {
    StringBuilder encoded = new StringBuilder();
    for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
      char c = (char) (b & 0xff);
      if (Character.isLetterOrDigit(c) && c < 128 || "-._~".indexOf(c) >= 0) {
        encoded.append(c);
      } else {
        encoded.append('%').append(String.format("%02X", b & 0xff));
      }
    }
    return encoded.toString();
  }

  Future<Void> close() {
    return client.close();
  }
}
