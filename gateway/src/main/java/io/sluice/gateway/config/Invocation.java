package io.sluice.gateway.config;

/**
 * What the command line asks the gateway to do. {@code --help} and {@code --version} are answered
 * without reading the environment or the config file, so that a broken configuration never hides
 * the help that would explain it.
 *
 * <pre>{@code
 * Invocation invocation = ConfigLoader.load(Arrays.asList(args), System.getenv());
 * if (invocation instanceof Invocation.Run run) { start(run.config()); }
 * else if (invocation instanceof Invocation.ShowHelp help) { System.out.println(help.text()); }
 * else if (invocation instanceof Invocation.ShowVersion) { System.out.println("sluice " + Version.current()); }
 * }</pre>
 */
public sealed interface Invocation {

  /** Start the gateway with this configuration. */
  record Run(SluiceConfig config) implements Invocation {
  }

  /** Check this configuration (and the files it names), print what would run, and exit 0 or 2. */
  record CheckConfig(SluiceConfig config) implements Invocation {
  }

  /** Print {@code text} (the generated {@code --help}) and exit with status 0. */
  record ShowHelp(String text) implements Invocation {
  }

  /**
   * Print the program's name and version (e.g. {@code sluice 0.1.0}) and exit with status 0. The
   * caller knows the version: this package stays below the gateway, which owns the jar's identity.
   */
  record ShowVersion() implements Invocation {
  }
}
