package io.sluice.verticles.server.cluster;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * How this node joins a cluster (the {@code --cluster*} and {@code --backups} options).
 *
 * @param enabled    false: a single node, nothing of the cluster runs
 * @param host       the address the Hazelcast member and the clustered event bus bind to
 * @param port       the Hazelcast member port
 * @param members    {@code host[:port]} of members to join over TCP
 * @param name       the cluster's name
 * @param backups    copies of each partition besides its owner, 0 to 2
 * @param configFile a Hazelcast YAML replacing host, port and members (other discovery)
 * @param credentials what members prove to each other on the event bus ({@code --cluster-tls-*},
 *                    {@code --cluster-secret-file})
 */
public record ClusterSettings(boolean enabled, String host, int port, List<String> members, String name, int backups,
                              Optional<Path> configFile, MemberCredentials credentials) {

  /** A single node. */
  public static final ClusterSettings NONE = new ClusterSettings(false, "127.0.0.1", 5701, List.of(), "sluice", 1,
      Optional.empty());

  public ClusterSettings {
    members = List.copyOf(members);
  }

  /** A cluster whose members prove nothing: {@link MemberCredentials#NONE}. */
  public ClusterSettings(boolean enabled, String host, int port, List<String> members, String name, int backups,
                         Optional<Path> configFile) {
    this(enabled, host, port, members, name, backups, configFile, MemberCredentials.NONE);
  }

  public ClusterSettings withCredentials(MemberCredentials credentials) {
    return new ClusterSettings(enabled, host, port, members, name, backups, configFile, credentials);
  }
}
