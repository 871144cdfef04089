package io.sluice.gateway;

import io.sluice.verticles.engine.udp.rules.RuleSetReader;
import io.sluice.verticles.engine.udp.rules.RuleConfigException;
import io.sluice.protocol.udp.rules.RuleSet;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/** Loads the UDP rule table from its YAML file; no file means the original's allow-everything default. */
final class UdpRules {

  private UdpRules() {
  }

  static RuleSet load(Optional<Path> file) throws IOException, RuleConfigException {
    if (file.isEmpty()) {
      return RuleSet.allowAll();
    }
    Object document;
    try (Reader reader = Files.newBufferedReader(file.get(), StandardCharsets.UTF_8)) {
      // SafeConstructor: plain maps, lists and scalars only, never arbitrary Java types.
      document = new Yaml(new SafeConstructor(new LoaderOptions())).load(reader);
    }
    if (!(document instanceof Map)) {
      throw new IOException(file.get() + ": a rule table is a YAML mapping (stats-only, rewrites, rules, default)");
    }
    @SuppressWarnings("unchecked")
    Map<String, ?> table = (Map<String, ?>) document;
    return RuleSetReader.read(table);
  }
}
