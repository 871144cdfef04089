package io.sluice.gateway;

import io.sluice.gateway.config.SluiceConfig;
import io.sluice.protocol.udp.rulefile.RuleFileException;
import io.sluice.protocol.udp.rules.RuleSet;
import io.sluice.verticles.rls.RlsConfig;
import io.sluice.verticles.rls.RlsConfigException;
import io.sluice.verticles.rls.RlsConfigSource;

import java.io.PrintStream;

/**
 * {@code --check-config}, like {@code nginx -t}: everything start-up would read (options, config
 * file, policies, rules file, the rate limit config with Sluice's algorithm fields) is read and
 * checked, and what would run is
 * printed; nothing binds.
 */
final class ConfigCheck {

  /** Exit status of a configuration that would not start, as for any option error. */
  static final int INVALID = 2;

  private ConfigCheck() {
  }

  /** @return the exit status: 0 when the configuration would start, {@link #INVALID} otherwise */
  static int run(SluiceConfig config, PrintStream out, PrintStream err) {
    RuleSet rules;
    RlsConfig rls;
    try {
      rules = UdpRules.load(config.rulesFile());
      rls = config.rlsConfig().isEmpty() ? RlsConfig.EMPTY
          : RlsConfigSource.load(config.rlsConfig().get(), config.rlsMergeDomains()).get();
    } catch (RuleFileException invalid) {
      err.println("sluice: " + invalid.getMessage());
      err.println("sluice: configuration check failed");
      return INVALID;
    } catch (RlsConfigException refused) {
      // One line per problem: a config may have many, each with its file, line and field.
      refused.problems().forEach(problem -> err.println("sluice: rate limit config (--rls-config) refused: " + problem));
      err.println("sluice: configuration check failed");
      return INVALID;
    }
    String host = StartLine.urlHost(config.bind());
    out.println("Listeners: Throttr tcp://" + host + ":" + config.tcpPort() + ", UDP udp://" + host + ":" + config.udpPort()
        + ", HTTP http://" + host + ":" + config.httpPort() + " (dashboard, /ws, /v1, /metrics, /health, /ready)");
    out.println("Options (value, and where it comes from):");
    config.describe().lines().forEach(line -> out.println("  " + line));
    out.println("Check API policies: " + (config.policies().isEmpty() ? "none" : config.policies().all().size()
        + ": " + config.policies()));
    out.println("UDP rules: " + config.rulesFile().map(file -> file + ": " + rules.statsOnlyHooks().size()
        + " stats-only hooks, " + rules.rewrites().size() + " rewrites, " + rules.rules().size() + " rules and a default")
        .orElse("none given: every key allowed (the original's default rule)"));
    out.println("Rate limit config: " + config.rlsConfig().map(path -> path + ": domains "
        + rls.domains().keySet().stream().sorted().toList()).orElse("none given: every descriptor OK without a limit"));
    ExposureWarning.of(config).ifPresent(warning -> out.println("WARNING: " + warning));
    ExposureWarning.ofCluster(config).ifPresent(warning -> out.println("WARNING: " + warning));
    out.println("sluice: configuration OK");
    return 0;
  }
}
