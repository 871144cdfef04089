package io.sluice.verticles.server.cluster;

import io.sluice.verticles.engine.routing.PartitionTable;
import io.sluice.verticles.engine.storage.KeyHash;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Optional;

/**
 * The partition table as a client needs it to send each key to its owner
 * ({@code GET /api/cluster/partitions}): the key hash, and per partition its owner and the
 * addresses the owner published. The version is a digest of the owners and addresses, so it
 * changes whenever either does, and two nodes with the same view give the same version.
 */
final class PartitionOwners {

  /** The key hash, named and parameterised so that a client can compute it (docs/cluster.md). */
  static final JsonObject KEY_HASH = new JsonObject()
      .put("function", "murmur3_x86_32")
      .put("seed", KeyHash.SEED & 0xffffffffL)
      .put("input", "the key's bytes")
      .put("partition", "((hash >>> 16) * partitions) >>> 16");

  private final ClusterNode node;

  PartitionOwners(ClusterNode node) {
    this.node = node;
  }

  JsonObject describe() {
    PartitionTable table = node.table();
    JsonArray owners = new JsonArray();
    for (int p = 0; p < PartitionTable.PARTITIONS; p++) {
      String owner = table.owner(p);
      Optional<ClientAddresses> addresses = owner == null ? Optional.empty() : node.addressesOf(owner);
      owners.add(new JsonObject().put("owner", owner)
          .put("throttr", addresses.map(ClientAddresses::throttr).orElse(null))
          .put("http", addresses.map(ClientAddresses::http).orElse(null))
          .put("grpc", addresses.map(ClientAddresses::grpc).orElse(null)));
    }
    return new JsonObject()
        .put("version", version(owners))
        .put("self", node.self())
        .put("partitions", PartitionTable.PARTITIONS)
        .put("keyHash", KEY_HASH.copy())
        .put("owners", owners);
  }

  /** The first 16 hex digits of the SHA-256 of the owners as encoded. */
  private static String version(JsonArray owners) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(owners.encode().getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest, 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }
}
