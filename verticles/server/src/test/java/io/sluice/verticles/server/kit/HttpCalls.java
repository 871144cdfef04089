package io.sluice.verticles.server.kit;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;

/** Plain HTTP/1.1 calls over a real socket, answered as status, headers and body. */
public final class HttpCalls implements AutoCloseable {

  /** One answer. {@link #header} is case-insensitive, as HTTP header names are. */
  public record Answer(int status, MultiMap headers, String body) {
    public String header(String name) {
      return headers.get(name);
    }

    public JsonObject json() {
      return new JsonObject(body);
    }
  }

  private final HttpClient client;
  private final Context context;
  private final int port;

  public HttpCalls(Vertx vertx, int port) {
    this(vertx, port, new HttpClientOptions());
  }

  /** Calls whose connections leave from {@code localAddress}, e.g. another loopback address than 127.0.0.1. */
  public HttpCalls(Vertx vertx, int port, String localAddress) {
    this(vertx, port, new HttpClientOptions().setLocalAddress(localAddress));
  }

  private HttpCalls(Vertx vertx, int port, HttpClientOptions options) {
    this.client = vertx.createHttpClient(options.setDefaultHost("127.0.0.1").setDefaultPort(port));
    this.context = vertx.getOrCreateContext();
    this.port = port;
  }

  /** POST with a JSON body, then headers as name, value pairs. */
  public Answer post(String path, String json, String... headers) {
    return send(HttpMethod.POST, path, json, headers);
  }

  public Answer get(String uri, String... headers) {
    return send(HttpMethod.GET, uri, null, headers);
  }

  /** Blocks the test thread until the whole answer is in. A body is sent as JSON unless a Content-Type is given. */
  /** A GET that must answer 200 with JSON: the JSON. */
  public JsonObject getJson(String uri) {
    Answer answer = get(uri);
    if (answer.status() != 200 || !"application/json".equals(answer.header("Content-Type"))) {
      throw new AssertionError("GET " + uri + " answered " + answer.status() + " " + answer.header("Content-Type")
          + ": " + answer.body());
    }
    return answer.json();
  }

  public Answer send(HttpMethod method, String uri, String body, String... headers) {
    return await(sendAsync(method, uri, body, headers));
  }

  /**
   * Sends from this client's own event-loop context. Called straight from a test thread, the
   * response's callbacks could run on another thread than its body events, and a body that arrived
   * with the headers would be lost now and then: with vertx-core 5.0.10 the call then hung (the
   * 30 s hangs of TokenGuessingTest and AdminApiTest, which had their own copies of such a call);
   * 5.0.11 ends such a body, but a body asked for only after it arrived can still come back empty.
   */
  public Future<Answer> sendAsync(HttpMethod method, String uri, String body, String... headers) {
    RequestOptions options = new RequestOptions().setMethod(method).setPort(port).setHost("127.0.0.1").setURI(uri);
    for (int i = 0; i + 1 < headers.length; i += 2) {
      options.addHeader(headers[i], headers[i + 1]);
    }
    if (body != null && (options.getHeaders() == null || !options.getHeaders().contains("Content-Type"))) {
      options.putHeader("Content-Type", "application/json");
    }
    Promise<Answer> answer = Promise.promise();
    context.runOnContext(v -> client.request(options)
        .compose(request -> body == null ? request.send() : request.send(Buffer.buffer(body)))
        .compose(response -> response.body().map(b -> new Answer(response.statusCode(), response.headers(), b.toString())))
        .onComplete(answer));
    return answer.future();
  }

  @Override
  public void close() {
    await(client.close());
  }
}
