package io.sluice.verticles.server.cluster;

import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;

import java.util.Optional;

/**
 * Where clients reach a node: its Throttr, HTTP and gRPC listeners as {@code host:port}. Each node
 * tells its own to the members over the event bus once its listeners are bound, so that any node
 * can tell a client the owner of each partition ({@code GET /api/cluster/partitions}).
 *
 * @param grpc null when the node has no gRPC listener
 */
public record ClientAddresses(String throttr, String http, String grpc) {

  /** A listener's address as clients reach it: the cluster host stands in for a wildcard bind. */
  public static String of(String bind, int port, String clusterHost) {
    boolean wildcard = bind.equals("0.0.0.0") || bind.equals("::") || bind.equals("[::]") || bind.isEmpty();
    String host = wildcard ? clusterHost : bind;
    return (host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host) + ":" + port;
  }

  JsonObject toJson() {
    return new JsonObject().put("throttr", throttr).put("http", http).put("grpc", grpc);
  }

  /**
   * The addresses a member told, or empty when it told none (the member has not bound
   * its listeners yet, or is a version that published only "ready").
   */
  static Optional<ClientAddresses> parse(String value) {
    if (value == null || !value.startsWith("{")) {
      return Optional.empty();
    }
    try {
      JsonObject json = new JsonObject(value);
      return Optional.of(new ClientAddresses(json.getString("throttr"), json.getString("http"), json.getString("grpc")));
    } catch (DecodeException | ClassCastException unreadable) {
      return Optional.empty();
    }
  }
}
