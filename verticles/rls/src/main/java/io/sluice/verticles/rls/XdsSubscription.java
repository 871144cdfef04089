package io.sluice.verticles.rls;

import io.envoyproxy.envoy.config.core.v3.Node;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.sluice.protobuf.google.rpc.Status;

/**
 * The client's side of xDS's state-of-the-world protocol for one resource type, {@code
 * RateLimitConfig}, over an ADS stream: what to send first, and how to answer each version the
 * server pushes. Every resource is asked for (no names: a wildcard subscription). A version that
 * reads is ACKed (its version_info and nonce echoed); one that does not is NACKed (the version in
 * force, the nonce, and the reason in error_detail), and the config in force stays. One version
 * is answered at a time (answers in order); the version in force may be read from another thread.
 */
public final class XdsSubscription {

  /** google.rpc.Code INVALID_ARGUMENT: what a refused version's error_detail carries. */
  static final int INVALID_ARGUMENT = 3;

  /**
   * What one pushed version comes to.
   *
   * @param config the config to put in force, or null when the version was refused
   * @param reply  the ACK or NACK to send
   * @param refusal why the version was refused, or null
   */
  public record Answer(RlsConfig config, DiscoveryRequest reply, String refusal) {

    public boolean accepted() {
      return config != null;
    }
  }

  private final Node node;
  private final boolean mergeDomains;
  /** The version in force, "" before the first: what a NACK and a new stream's first request name. */
  private volatile String acceptedVersion = "";

  public XdsSubscription(String nodeId) {
    this(nodeId, false);
  }

  /** @param mergeDomains whether several resources may define one domain ({@code --rls-merge-domains}) */
  public XdsSubscription(String nodeId, boolean mergeDomains) {
    this.node = Node.newBuilder().setId(nodeId).setUserAgentName("sluice").build();
    this.mergeDomains = mergeDomains;
  }

  /** The first request of a stream: the node, the type, and the version in force (none at first). */
  public DiscoveryRequest subscribe() {
    return DiscoveryRequest.newBuilder().setNode(node).setTypeUrl(XdsRateLimitConfigs.TYPE_URL)
        .setVersionInfo(acceptedVersion).build();
  }

  /** Reads one pushed version: the config to put in force and the ACK, or the NACK. */
  public Answer answer(DiscoveryResponse response) {
    if (!XdsRateLimitConfigs.TYPE_URL.equals(response.getTypeUrl())) {
      return refuse(response, "not subscribed to " + response.getTypeUrl() + ", only to " + XdsRateLimitConfigs.TYPE_URL);
    }
    RlsConfig config;
    try {
      config = XdsRateLimitConfigs.read(response.getResourcesList(), mergeDomains);
    } catch (RlsConfigException refused) {
      return refuse(response, refused.getMessage());
    }
    acceptedVersion = response.getVersionInfo();
    DiscoveryRequest ack = DiscoveryRequest.newBuilder().setNode(node).setTypeUrl(response.getTypeUrl())
        .setVersionInfo(acceptedVersion).setResponseNonce(response.getNonce()).build();
    return new Answer(config, ack, null);
  }

  /** The version in force ("" before the first). */
  public String acceptedVersion() {
    return acceptedVersion;
  }

  private Answer refuse(DiscoveryResponse response, String reason) {
    DiscoveryRequest nack = DiscoveryRequest.newBuilder().setNode(node).setTypeUrl(response.getTypeUrl())
        .setVersionInfo(acceptedVersion).setResponseNonce(response.getNonce())
        .setErrorDetail(Status.newBuilder().setCode(INVALID_ARGUMENT).setMessage(reason)).build();
    return new Answer(null, nack, reason);
  }
}
