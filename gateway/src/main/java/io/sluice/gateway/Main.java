package io.sluice.gateway;

import io.sluice.gateway.cli.Cli;
import io.sluice.gateway.config.ConfigException;
import io.sluice.gateway.config.ConfigLoader;
import io.sluice.gateway.config.Invocation;
import io.sluice.gateway.config.Reread;

import java.util.Arrays;
import java.util.List;

/**
 * {@code java -jar sluice.jar [options]} starts Sluice; {@code java -jar sluice.jar bench …} runs the load tool
 * (sluice-bench.jar, beside sluice.jar).
 */
public final class Main {

  private Main() {
  }

  /** The configuration from the same flags, the environment and the config file as they are now. */
  private static Reread rereadConfiguration(List<String> arguments) throws ConfigException {
    return ConfigLoader.reread(arguments, System.getenv());
  }

  public static void main(String[] args) {
    Logging.configure();
    List<String> arguments = Arrays.asList(args);
    if (!arguments.isEmpty() && arguments.get(0).equals("bench")) {
      System.exit(BenchLauncher.run(BenchLauncher.besideSluiceJar(), arguments.subList(1, arguments.size()), System.err));
    }
    if (!arguments.isEmpty() && arguments.get(0).equals("cli")) {
      System.exit(Cli.run(arguments.subList(1, arguments.size()), System.in, System.out, System.err));
    }
    if (arguments.equals(List.of("completion", "bash"))) {
      System.out.print(Completion.bash());
      return;
    }
    Invocation invocation;
    try {
      invocation = ConfigLoader.load(arguments, System.getenv());
    } catch (ConfigException e) {
      System.err.println("sluice: " + e.getMessage());
      System.err.println("Try 'java -jar sluice.jar --help'.");
      System.exit(2);
      return;
    }
    if (invocation instanceof Invocation.ShowHelp help) {
      System.out.println(help.text());
    } else if (invocation instanceof Invocation.ShowVersion) {
      System.out.println("sluice " + Version.current());
    } else if (invocation instanceof Invocation.CheckConfig check) {
      System.exit(ConfigCheck.run(check.config(), System.out, System.err));
    } else if (invocation instanceof Invocation.Run run) {
      Logging.apply(run.config().logLevel(), run.config().logFormat());
      try {
        Gateway.startStoppingOnSignal(run.config(), () -> rereadConfiguration(arguments)).awaitStop();
      } catch (Exception e) {
        // Through the log, so that a JSON log stays JSON; the start-up problem is its last line.
        System.getLogger(Main.class.getName()).log(System.Logger.Level.ERROR, "could not start: " + e.getMessage());
        System.exit(1);
      }
    }
  }
}
