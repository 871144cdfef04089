package io.sluice.gateway.config;

import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * envoyproxy/ratelimit's {@code CONFIG_TYPE}, which Sluice reads only to refuse what it cannot do:
 * {@code FILE} (its default) and {@code GRPC_XDS_SOTW} need nothing more, as the source follows
 * from the other settings ({@code --rls-xds-server}, alias {@code CONFIG_GRPC_XDS_SERVER_URL},
 * chooses xDS; otherwise the files of {@code --rls-config}); any other value would silently run
 * with a source its deployment did not ask for, so it stops the start.
 */
final class UpstreamConfigType {

  static final String VARIABLE = "CONFIG_TYPE";
  private static final Set<String> SUPPORTED = Set.of("FILE", "GRPC_XDS_SOTW");

  private UpstreamConfigType() {
  }

  /** Why the environment's CONFIG_TYPE is refused, or empty when it is unset or supported. */
  static Optional<String> problem(Map<String, String> environment) {
    String type = environment.get(VARIABLE);
    if (type == null || type.isEmpty() || SUPPORTED.contains(type)) {
      return Optional.empty();
    }
    return Optional.of("environment variable " + VARIABLE + " is '" + type + "': Sluice reads envoyproxy/ratelimit's"
        + " FILE (--rls-config) and GRPC_XDS_SOTW (--rls-xds-server or CONFIG_GRPC_XDS_SERVER_URL) config types only;"
        + " unset it or set one of those");
  }
}
