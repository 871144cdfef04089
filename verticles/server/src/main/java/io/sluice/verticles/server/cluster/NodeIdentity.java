package io.sluice.verticles.server.cluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;
import java.util.UUID;

/**
 * The id a node takes in the partition table. Hazelcast gives a member a new UUID at every start,
 * so a node with a data directory keeps its own id there ({@code DIR/node-id}, made at its first
 * start): a cluster restarted on the same directories computes the same table, and every node owns
 * again the partitions its files hold. Without a data directory a node is new at every start.
 */
public final class NodeIdentity {

  /** The file, in the data directory, that holds the id. */
  public static final String FILE = "node-id";

  private NodeIdentity() {
  }

  /** The id kept in {@code dataDir} (made now if missing), or a new one without a directory. */
  public static String of(Optional<Path> dataDir) throws IOException {
    if (dataDir.isEmpty()) {
      return UUID.randomUUID().toString();
    }
    Path file = dataDir.get().resolve(FILE);
    if (Files.exists(file)) {
      String id = Files.readString(file, StandardCharsets.US_ASCII).trim();
      if (!id.matches("[0-9A-Za-z._-]{1,64}")) {
        throw new IOException(file + " does not hold a node id (1 to 64 letters, digits, '.', '_' or '-'): delete it"
            + " to make a new one, which gives this node's partitions to others");
      }
      return id;
    }
    Files.createDirectories(dataDir.get());
    String id = UUID.randomUUID().toString();
    Path temporary = dataDir.get().resolve(FILE + ".tmp");
    Files.writeString(temporary, id + "\n", StandardCharsets.US_ASCII);
    try {
      Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING);
    }
    return id;
  }
}
