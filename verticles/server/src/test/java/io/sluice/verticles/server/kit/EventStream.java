package io.sluice.verticles.server.kit;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;

import java.util.ArrayDeque;
import java.util.function.Predicate;

/** A Server-Sent Events client: the events of one stream, parsed, in order. */
public final class EventStream implements AutoCloseable {

  /** One event: its name and its data parsed as JSON. */
  public record Event(String name, JsonObject data) {
  }

  private final HttpClient client;
  private final Context context;
  private final StringBuilder unparsed = new StringBuilder();
  private final ArrayDeque<Event> events = new ArrayDeque<>();
  private final ArrayDeque<Promise<Event>> waiting = new ArrayDeque<>();
  private HttpClientResponse response;

  private EventStream(Vertx vertx) {
    this.client = vertx.createHttpClient();
    this.context = vertx.getOrCreateContext();
  }

  /** Opens the stream at {@code uri}; headers as name, value pairs. Completes with the response status known. */
  public static Future<EventStream> open(Vertx vertx, int port, String uri, String... headers) {
    EventStream stream = new EventStream(vertx);
    RequestOptions options = new RequestOptions().setMethod(HttpMethod.GET).setHost("127.0.0.1").setPort(port)
        .setURI(uri);
    for (int i = 0; i + 1 < headers.length; i += 2) {
      options.addHeader(headers[i], headers[i + 1]);
    }
    Promise<EventStream> opened = Promise.promise();
    stream.context.runOnContext(v -> stream.client.request(options).compose(request -> request.send())
        .onSuccess(response -> {
          stream.response = response;
          response.handler(chunk -> stream.feed(chunk.toString()));
          opened.complete(stream);
        })
        .onFailure(opened::fail));
    return opened.future();
  }

  public int status() {
    return response.statusCode();
  }

  public String contentType() {
    return response.getHeader("Content-Type");
  }

  /** The next event. */
  public Future<Event> next() {
    Promise<Event> next = Promise.promise();
    context.runOnContext(v -> {
      if (events.isEmpty()) {
        waiting.add(next);
      } else {
        next.complete(events.poll());
      }
    });
    return next.future();
  }

  /** The first event from now on whose data satisfies {@code condition}; earlier ones are skipped. */
  public Future<Event> until(Predicate<JsonObject> condition) {
    return next().compose(event -> condition.test(event.data()) ? Future.succeededFuture(event) : until(condition));
  }

  private void feed(String text) {
    unparsed.append(text);
    int end;
    while ((end = unparsed.indexOf("\n\n")) >= 0) {
      String block = unparsed.substring(0, end);
      unparsed.delete(0, end + 2);
      String name = "message";
      StringBuilder data = new StringBuilder();
      for (String line : block.split("\n")) {
        if (line.startsWith("event: ")) {
          name = line.substring(7);
        } else if (line.startsWith("data: ")) {
          data.append(line.substring(6));
        }
      }
      Event event = new Event(name, new JsonObject(data.toString()));
      Promise<Event> first = waiting.poll();
      if (first != null) {
        first.complete(event);
      } else {
        events.add(event);
      }
    }
  }

  @Override
  public void close() {
    SluiceUnderTest.await(client.close());
  }
}
