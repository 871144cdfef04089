package io.sluice.verticles.server.check;

import io.sluice.verticles.strategies.policy.RequestFacts;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.SocketAddress;

/** The facts a policy's key may be built from, read from one check call. */
final class HttpFacts implements RequestFacts {

  private final HttpServerRequest request;
  private final String param;
  private final String path;

  /**
   * @param param the caller's explicit key, or null
   * @param path  the limited request's path, or null
   */
  HttpFacts(HttpServerRequest request, String param, String path) {
    this.request = request;
    this.param = param;
    this.path = path;
  }

  @Override
  public String param() {
    return param;
  }

  @Override
  public String header(String name) {
    return request.getHeader(name);
  }

  @Override
  public String clientIp() {
    SocketAddress peer = request.remoteAddress();
    if (peer == null) {
      return null;
    }
    return peer.hostAddress() != null ? peer.hostAddress() : peer.host();
  }

  @Override
  public String path() {
    return path;
  }
}
