package io.sluice.verticles.server;

import io.sluice.protocol.udp.rules.RuleSet;
import io.sluice.verticles.server.listener.ListenerGuards;
import io.sluice.verticles.server.grpc.EnvoyRateLimit;
import io.sluice.verticles.server.grpc.GrpcFrontVerticle;
import io.sluice.verticles.server.health.Readiness;
import io.sluice.verticles.server.dispatch.ShardDirectory;
import io.sluice.verticles.server.tcp.ThrottrTcpVerticle;
import io.sluice.verticles.server.udp.UdpVerticle;
import io.sluice.verticles.server.xds.XdsConfigClient;
import io.vertx.core.Future;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The listeners a server opens, in this order: Throttr over TCP, HTTP, UDP, and Envoy's rate limit
 * service over gRPC; the ports they bound; their drain.
 */
final class Listeners {

  private final ServerWide wide;
  private final ServerSettings settings;
  private final ListenerGuards guards;
  private final HttpListener http;
  private final List<ThrottrTcpVerticle> tcpFronts = new ArrayList<>();
  private int tcpPort;
  private int udpPort;
  private UdpVerticle udpFront;
  private volatile int grpcPort = -1;
  private Readiness readiness;

  Listeners(ServerWide wide, ServerSettings settings, ListenerGuards guards) {
    this.wide = wide;
    this.settings = settings;
    this.guards = guards;
    this.http = new HttpListener(wide, settings, guards);
  }

  Future<Void> start(StorageDeployment storage, EnvoyRateLimit rls, FileReloads files) {
    ShardDirectory directory = storage.directory();
    readiness = new Readiness(directory, () -> storage.notReady().or(rls::notReady));
    return listener("Throttr TCP", settings.tcp().bind(), settings.tcp().port(), deployTcp(directory))
        .compose(v -> listener("HTTP", settings.http().bind(), settings.http().port(),
            http.start(storage, rls, files, readiness)))
        .compose(v -> listener("UDP", settings.udp().bind(), settings.udp().port(), deployUdp(directory)))
        .compose(v -> listener("gRPC", settings.rls().bind(), settings.rls().port(), deployGrpc(rls)));
  }

  /**
   * A listener that could not start says which one and where: "Address already in use" alone does
   * not tell an operator which of three ports is taken.
   */
  private static Future<Void> listener(String name, String host, int port, Future<Void> deployed) {
    return deployed.recover(failure -> Future.failedFuture(new IllegalStateException(
        "the " + name + " listener could not start on " + host + ":" + port + ": " + failure.getMessage())));
  }

  /**
   * Every instance listens on the configured port; Vert.x shares one bound socket among them and
   * spreads accepted connections. Port 0 becomes -1: Vert.x's way of sharing ONE random port.
   */
  private Future<Void> deployTcp(ShardDirectory directory) {
    int port = settings.tcp().port() == 0 ? -1 : settings.tcp().port();
    List<ThrottrTcpVerticle> fronts = new ArrayList<>();
    List<Future<String>> deployed = new ArrayList<>();
    for (int i = 0; i < settings.frontInstances(); i++) {
      ThrottrTcpVerticle front = new ThrottrTcpVerticle(wide.instance(), directory, settings.tcp().bind(), port,
          settings.limits(), guards, wide.metrics().durations(), wide.closers());
      fronts.add(front);
      deployed.add(wide.deployments().deploy(front));
    }
    tcpFronts.addAll(fronts);
    return Future.all(deployed).compose(v -> {
      tcpPort = fronts.get(0).actualPort();
      for (ThrottrTcpVerticle front : fronts) {
        if (front.actualPort() != tcpPort) {
          return Future.failedFuture("TCP fronts bound different ports: " + tcpPort + " and " + front.actualPort());
        }
      }
      return Future.succeededFuture();
    });
  }

  /** One UDP socket; its rate state lives in the shards. */
  private Future<Void> deployUdp(ShardDirectory directory) {
    UdpVerticle udp = new UdpVerticle(settings.udp(), directory, wide.instance().clock(), wide.metrics().meters(),
        wide.instance().udpPeers(), wide.limitActivity(), wide.metrics().durations());
    return wide.deployments().deploy(udp).map(id -> {
      udpPort = udp.actualPort();
      udpFront = udp;
      return null;
    });
  }

  /**
   * Envoy's rate limit service over gRPC (h2c), one instance per front event loop sharing the port;
   * then the watch of its config files. No listener when the port is -1. With an xDS server, its
   * client first, and the listener once the first config is in force, as envoyproxy/ratelimit
   * does: the server's start does not wait for it, and /ready says what is missing.
   */
  private Future<Void> deployGrpc(EnvoyRateLimit rls) {
    rls.watch();
    Optional<XdsConfigClient> xds = rls.xdsClient();
    if (xds.isEmpty()) {
      return deployGrpcFronts(rls);
    }
    return wide.deployments().deploy(xds.get()).map(id -> {
      xds.get().firstConfig().compose(configured -> listener("gRPC", settings.rls().bind(), settings.rls().port(),
          deployGrpcFronts(rls))).onFailure(failure -> rls.listenerFailed(failure.getMessage()));
      return null;
    });
  }

  private Future<Void> deployGrpcFronts(EnvoyRateLimit rls) {
    if (settings.rls().port() < 0) {
      return Future.succeededFuture();
    }
    // -3: one random port shared by these servers, apart from the HTTP front's -2.
    int port = settings.rls().port() == 0 ? -3 : settings.rls().port();
    List<GrpcFrontVerticle> fronts = new ArrayList<>();
    List<Future<String>> deployed = new ArrayList<>();
    for (int i = 0; i < settings.frontInstances(); i++) {
      GrpcFrontVerticle front = new GrpcFrontVerticle(settings.rls().bind(), port, rls, guards,
          settings.limits().maxPendingBytes(), readiness);
      fronts.add(front);
      deployed.add(wide.deployments().deploy(front));
    }
    return Future.all(deployed).map(v -> {
      grpcPort = fronts.get(0).actualPort();
      return null;
    });
  }

  int tcpPort() {
    return tcpPort;
  }

  int httpPort() {
    return http.port();
  }

  int udpPort() {
    return udpPort;
  }

  int grpcPort() {
    return grpcPort;
  }

  /** Replaces the UDP rule table (a reload); rate state and statistics stay. */
  void replaceUdpRules(RuleSet rules) {
    udpFront.replaceRules(rules);
  }

  /**
   * The Throttr and HTTP listeners stop accepting, every connection answers the requests it has
   * read and closes, and whatever is still open after {@code timeout} is closed. The probes say
   * so from now on: not ready, and the gRPC health service NOT_SERVING.
   */
  Future<Void> drain(Duration timeout) {
    if (readiness != null) {
      readiness.draining();
    }
    List<Future<Void>> closing = new ArrayList<>();
    tcpFronts.forEach(front -> closing.add(front.shutdown(timeout)));
    closing.addAll(http.drain(timeout));
    return Future.join(closing).mapEmpty();
  }
}
