package io.sluice.verticles.benchmarks.load;

import io.sluice.verticles.engine.routing.ShardRouter;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A cluster's partition table as {@code GET /api/cluster/partitions} gives it (docs/cluster.md):
 * which node's Throttr listener owns each partition, so that {@code bench --route-by-owner} sends
 * each key straight to its owner.
 *
 * @param throttrByPartition the owner's Throttr {@code host:port} of each partition
 */
record OwnerTable(String version, List<String> throttrByPartition) {

  static final String PATH = "/api/cluster/partitions";

  /**
   * Asks the node at {@code host:httpPort}, with its bearer token when it has one (every {@code /api/}
   * call needs it then); fails with the node's answer when it has no table to give.
   */
  static OwnerTable fetch(String host, int httpPort, Optional<String> token) throws IOException, InterruptedException {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    URI uri = URI.create("http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + httpPort + PATH);
    HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10));
    token.ifPresent(bearer -> request.header("Authorization", "Bearer " + bearer));
    HttpResponse<String> answer = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    if (answer.statusCode() != 200) {
      throw new IllegalStateException("GET " + uri + " answered " + answer.statusCode() + ": " + answer.body());
    }
    return of(new JsonObject(answer.body()));
  }

  static OwnerTable of(JsonObject table) {
    JsonArray owners = table.getJsonArray("owners");
    if (owners.size() != table.getInteger("partitions")) {
      throw new IllegalStateException("the table lists " + owners.size() + " owners for " + table.getInteger("partitions")
          + " partitions");
    }
    String[] throttr = new String[owners.size()];
    for (int p = 0; p < throttr.length; p++) {
      JsonObject owner = owners.getJsonObject(p);
      throttr[p] = owner.getString("throttr");
      if (throttr[p] == null) {
        throw new IllegalStateException("partition " + p + "'s owner " + owner.getString("owner")
            + " has not published its addresses yet (starting?): try again");
      }
    }
    return new OwnerTable(table.getString("version"), List.of(throttr));
  }

  /**
   * The token in {@code file}, read as the server reads its {@code --auth-token-file}: the content
   * without its line end, visible ASCII without spaces; anything else is refused here, with the file's
   * name, rather than sent and answered 401.
   */
  static String tokenFrom(Path file) {
    String token;
    try {
      token = Files.readString(file, StandardCharsets.UTF_8).strip();
    } catch (IOException e) {
      throw new IllegalArgumentException("--auth-token-file " + file + " cannot be read: " + e, e);
    }
    if (token.isEmpty() || !token.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
      throw new IllegalArgumentException("--auth-token-file " + file + " must hold one token: visible ASCII characters,"
          + " no spaces");
    }
    return token;
  }

  /** The Throttr address of the owner of {@code key}, by the documented key hash. */
  String ownerOf(byte[] key) {
    return throttrByPartition.get(ShardRouter.routeOf(key, throttrByPartition.size()));
  }

  /** Every owner's Throttr address, each once, in partition order of first appearance. */
  Set<String> owners() {
    return new LinkedHashSet<>(throttrByPartition);
  }
}
