package io.sluice.verticles.server.kit;

import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntSupplier;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;

/**
 * The JSON clients a test opens on a server's WebSocket bridge, each kept to be closed when the
 * test is done: the test's {@code @AfterEach} closes them before it stops the server.
 */
public final class BridgeClients implements AutoCloseable {

  private final Vertx vertx;
  private final IntSupplier httpPort;
  private final List<JsonWebSocket> opened = new ArrayList<>();

  /** @param httpPort the server's HTTP port, asked at each open (a test may start its server late) */
  public BridgeClients(Vertx vertx, IntSupplier httpPort) {
    this.vertx = vertx;
    this.httpPort = httpPort;
  }

  /** A client of the bridge at {@code uri}: {@code /ws}, or with a query such as {@code /ws?token=…}. */
  public JsonWebSocket open(String uri) {
    JsonWebSocket client = await(JsonWebSocket.open(vertx, JsonWebSocket.options(httpPort.getAsInt()).setURI(uri)));
    opened.add(client);
    return client;
  }

  /** A user's client: its token, HS256 with {@link Jwts#SECRET}, names {@code subject} and {@code grants}. */
  public JsonWebSocket user(String subject, JsonObject grants) {
    return open("/ws?token=" + Jwts.hs256(Jwts.SECRET, Jwts.claims(subject, grants)));
  }

  @Override
  public void close() {
    opened.forEach(JsonWebSocket::close);
    opened.clear();
  }
}
