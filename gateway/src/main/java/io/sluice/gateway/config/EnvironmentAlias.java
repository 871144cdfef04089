package io.sluice.gateway.config;

import java.util.Map;
import java.util.function.Function;

/**
 * Another program's environment variable that also sets an option, read when the option's own
 * {@code SLUICE_*} variable is not set: envoyproxy/ratelimit's {@code SHADOW_MODE},
 * {@code GRPC_PORT}…, so that a deployment written for it behaves the same with Sluice's image.
 *
 * @param spelling how help and documentation name it
 * @param variable the variable whose name the origin of a value names
 * @param read     the option's text from the environment, or null when the alias is not set
 */
record EnvironmentAlias(String spelling, String variable, Function<Map<String, String>, String> read) {

  /** Upstream's default RUNTIME_ROOT. */
  static final String RUNTIME_ROOT = "/srv/runtime_data/current";

  /** One variable that holds the option's text as it is. */
  static EnvironmentAlias named(String variable) {
    return new EnvironmentAlias(variable, variable, environment -> environment.get(variable));
  }

  /**
   * A boolean variable as envoyproxy/ratelimit reads it (Go's ParseBool): {@code 1}, {@code t},
   * {@code T}, {@code TRUE}, {@code true}, {@code True}, and their {@code 0}/{@code f}… opposites.
   */
  static EnvironmentAlias goBoolean(String variable) {
    return new EnvironmentAlias(variable, variable, environment -> {
      String text = environment.get(variable);
      return switch (text == null ? "" : text) {
        case "1", "t", "T", "TRUE", "true", "True" -> "true";
        case "0", "f", "F", "FALSE", "false", "False" -> "false";
        default -> text;
      };
    });
  }

  /**
   * envoyproxy/ratelimit's config directory: RUNTIME_ROOT (default {@value #RUNTIME_ROOT}) /
   * RUNTIME_SUBDIRECTORY / RUNTIME_APPDIRECTORY (default {@code config}), set when RUNTIME_ROOT
   * or RUNTIME_SUBDIRECTORY is.
   */
  static EnvironmentAlias runtimeDirectory() {
    return new EnvironmentAlias("RUNTIME_ROOT/RUNTIME_SUBDIRECTORY/RUNTIME_APPDIRECTORY", "RUNTIME_ROOT", environment -> {
      String root = environment.get("RUNTIME_ROOT");
      String subdirectory = environment.get("RUNTIME_SUBDIRECTORY");
      if (isEmpty(root) && isEmpty(subdirectory)) {
        return null;
      }
      String app = environment.get("RUNTIME_APPDIRECTORY");
      return String.join("/", isEmpty(root) ? RUNTIME_ROOT : root, isEmpty(subdirectory) ? "" : subdirectory,
          isEmpty(app) ? "config" : app).replaceAll("/+", "/");
    });
  }

  private static boolean isEmpty(String text) {
    return text == null || text.isEmpty();
  }
}
