package io.sluice.verticles.server.http;

import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.net.HostAndPort;
import io.vertx.ext.web.Router;

import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What a browser may not make Sluice do, for every route mounted after it. The port usually sits
 * on a developer's or operator's machine with no token, reachable by any page their browser opens:
 *
 * <ul>
 * <li><b>DNS rebinding</b>: a page of {@code evil.example} whose name the attacker then points at
 *     127.0.0.1 talks to Sluice as its own origin, but its requests still carry
 *     {@code Host: evil.example}. Only hosts that cannot be an attacker's name are served: any IP
 *     address, {@code localhost}, the bind address, and the configured names; others get 421.
 * <li><b>Cross-site requests</b>: a foreign page can send a form or a "simple" POST without asking.
 *     A state-changing request (POST, PUT, PATCH, DELETE) or WebSocket upgrade whose {@code Origin}
 *     is neither the page's own nor configured gets 403. Requests without {@code Origin} (curl,
 *     nginx, Envoy, services) pass: a browser always sends it on those.
 * </ul>
 */
public final class RequestGuard implements HttpFeature {

  private static final Set<HttpMethod> STATE_CHANGING =
      Set.of(HttpMethod.POST, HttpMethod.PUT, HttpMethod.PATCH, HttpMethod.DELETE);
  private static final Pattern IPV4_LOOPBACK = Pattern.compile("127(\\.\\d{1,3}){3}");

  private final List<String> allowedOrigins;
  private final List<String> allowedHosts;
  private final String bind;
  /**
   * The last HTTP/1 {@code Host} field seen and whether it is served: a client sends the same one
   * on every request, and parsing it into an authority was 2–3 % of the check API's CPU. Shared by
   * the front's event loops; a race only costs a parse, as each verdict is immutable.
   */
  private HostVerdict lastHost;

  private record HostVerdict(String field, boolean served) {
  }

  public RequestGuard(HttpSettings settings) {
    this.allowedOrigins = settings.allowedOrigins();
    this.allowedHosts = settings.allowedHosts().stream().map(RequestGuard::hostName).toList();
    this.bind = hostName(settings.bind());
  }

  @Override
  public void mount(Router router) {
    router.route().handler(context -> {
      if (admits(context.request())) {
        context.next();
      }
    });
  }

  @Override
  public void mountDirect(DirectRoutes routes) {
    routes.guardedBy(this::admits);
  }

  /** @return true when the request may go on; false when it was answered 421 or 403 here */
  private boolean admits(HttpServerRequest request) {
    if (!servesAuthority(request)) {
      Endpoint.send(request.response(), new ApiError(421, "this server does not answer to host '"
          + request.authority().host() + "' (see --allowed-hosts)", null));
      return false;
    }
    String origin = request.getHeader(HttpHeaders.ORIGIN);
    // Origin first: without it nothing is refused, and most callers (proxies, services) send none.
    if (origin != null && (STATE_CHANGING.contains(request.method()) || request.canUpgradeToWebSocket())
        && !allowsOrigin(origin, request.authority())) {
      Endpoint.send(request.response(), new ApiError(403, "origin '" + origin + "' may not "
          + request.method().name() + " here (see --allowed-origins)", null));
      return false;
    }
    return true;
  }

  /**
   * Whether the host the request was sent to is served (a request naming none is). Over HTTP/1 the
   * authority is the {@code Host} field parsed, so the verdict on the same field text is the same.
   */
  private boolean servesAuthority(HttpServerRequest request) {
    String field = request.version() == HttpVersion.HTTP_2 ? null : request.getHeader(HttpHeaders.HOST);
    HostVerdict last = lastHost;
    if (field != null && last != null && field.equals(last.field())) {
      return last.served();
    }
    HostAndPort authority = request.authority();
    boolean served = authority == null || servesHost(hostName(authority.host()));
    if (field != null) {
      lastHost = new HostVerdict(field, served);
    }
    return served;
  }

  /** Names an attacker could point at this machine are the only ones refused. */
  private boolean servesHost(String host) {
    return allowedHosts.contains("*") || isIpAddress(host) || host.equals("localhost") || host.equals(bind)
        || allowedHosts.contains(host);
  }

  /**
   * The page's own origin (the host and port the request was sent to), counting localhost and
   * loopback addresses as one, since a page from any of them on this port is Sluice's.
   */
  private boolean allowsOrigin(String origin, HostAndPort authority) {
    if (allowedOrigins.contains("*") || allowedOrigins.contains(origin)) {
      return true;
    }
    URI uri;
    try {
      uri = URI.create(origin);
    } catch (IllegalArgumentException malformed) {
      return false;
    }
    if (uri.getHost() == null || authority == null || uri.getPort() != authority.port()) {
      return false;
    }
    String originHost = hostName(uri.getHost());
    String host = hostName(authority.host());
    return originHost.equals(host) || (isLoopback(originHost) && isLoopback(host));
  }

  /** Lower case, without IPv6 brackets or a final dot, so each host has one spelling. */
  static String hostName(String host) {
    String name = host.toLowerCase(Locale.ROOT);
    if (name.startsWith("[") && name.endsWith("]")) {
      name = name.substring(1, name.length() - 1);
    }
    return name.endsWith(".") ? name.substring(0, name.length() - 1) : name;
  }

  private static boolean isIpAddress(String host) {
    return host.indexOf(':') >= 0 || isIpv4(host);
  }

  /**
   * Four groups of one to three digits, separated by dots: what {@code \d{1,3}(\.\d{1,3}){3}} matches,
   * by hand, since every request of the port asks it (a regular expression was 3 % of the check API's CPU).
   */
  static boolean isIpv4(String host) {
    int groups = 0;
    int digits = 0;
    for (int i = 0; i < host.length(); i++) {
      char c = host.charAt(i);
      if (c >= '0' && c <= '9') {
        if (++digits > 3) {
          return false;
        }
      } else if (c == '.' && digits > 0 && groups < 3) {
        groups++;
        digits = 0;
      } else {
        return false;
      }
    }
    return groups == 3 && digits > 0;
  }

  private static boolean isLoopback(String host) {
    return host.equals("localhost") || host.equals("::1") || IPV4_LOOPBACK.matcher(host).matches();
  }
}
