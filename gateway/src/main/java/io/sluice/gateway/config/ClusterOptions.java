package io.sluice.gateway.config;

import java.nio.file.Path;

/**
 * The rows of the option table ({@link Options#ALL}) that make a node a cluster member: how it
 * finds the others, how many copies each key has, and the credentials members prove.
 */
public final class ClusterOptions {

  private ClusterOptions() {
  }

  public static final Option<Boolean> CLUSTER = Option.switchNamed("cluster")
      .yaml("cluster.enabled").environment()
      .describedAs("Join a cluster of Sluice nodes (Hazelcast membership over TCP, no multicast): every node serves every key, each key lives on one owner node and --backups others (docs/cluster.md).");

  public static final Option<String> CLUSTER_HOST = Option.valued("cluster-host", "HOST", ValueType.host())
      .yaml("cluster.host").environment()
      .describedAs("Address the cluster member (and its event bus) binds to and tells the others; unset: the --bind address.");

  public static final Option<Integer> CLUSTER_PORT = Option.valued("cluster-port", "PORT", ValueType.integer(1, 65535))
      .yaml("cluster.port").environment()
      .defaultValue(5701)
      .describedAs("Hazelcast member port of this node.");

  public static final Option<java.util.List<String>> CLUSTER_MEMBERS = Option.valued("cluster-members", "HOST:PORT,...", ValueType.members())
      .yaml("cluster.members").environment()
      .defaultValue(java.util.List::<String>of, "none (a cluster of one until others join it)")
      .describedAs("Members to join over TCP (a port left out means --cluster-port); a member that is down delays startup by at most 10 s.");

  public static final Option<String> CLUSTER_NAME = Option.valued("cluster-name", "NAME", ValueType.simpleName())
      .yaml("cluster.name").environment()
      .defaultValue("sluice")
      .describedAs("Name of the cluster; nodes with another name are refused.");

  public static final Option<Integer> BACKUPS = Option.valued("backups", "N", ValueType.integer(0, 2))
      .yaml("cluster.backups").environment()
      .defaultValue(1)
      .describedAs("Nodes that keep a copy of each partition besides its owner, taking over when it dies.");

  public static final Option<Path> CLUSTER_CONFIG = Option.valued("cluster-config", "FILE", ValueType.path())
      .yaml("cluster.config").environment()
      .describedAs("Hazelcast YAML for other discovery (Kubernetes DNS, say); replaces --cluster-host, --cluster-port and --cluster-members, while --cluster-name still applies.");

  public static final Option<Path> CLUSTER_TLS_CERT = Option.valued("cluster-tls-cert", "FILE", ValueType.path())
      .yaml("cluster.tls.cert").environment()
      .describedAs("This member's certificate chain (PEM, leaf first): with --cluster-tls-key and --cluster-tls-ca, the cluster's event bus speaks mutual TLS and admits only members whose certificate that CA signed (docs/cluster.md). Reloaded when the file changes.");

  public static final Option<Path> CLUSTER_TLS_KEY = Option.valued("cluster-tls-key", "FILE", ValueType.path())
      .yaml("cluster.tls.key").environment()
      .describedAs("Private key of --cluster-tls-cert (PEM, PKCS#8 or PKCS#1). Reloaded when the file changes.");

  public static final Option<Path> CLUSTER_TLS_CA = Option.valued("cluster-tls-ca", "FILE", ValueType.path())
      .yaml("cluster.tls.ca").environment()
      .describedAs("CA certificates (PEM) that sign the members' certificates; a member presenting another gets no partition, record or request. Reloaded when the file changes.");

  public static final Option<Path> CLUSTER_SECRET_FILE = Option.valued("cluster-secret-file", "FILE", ValueType.path())
      .yaml("cluster.secret-file").environment()
      .describedAs("File holding a secret the members share (at least 32 bytes: openssl rand -base64 32), instead of --cluster-tls-*: only its holders are admitted, and member traffic is encrypted (mutual TLS from a CA derived from the secret).");
}
