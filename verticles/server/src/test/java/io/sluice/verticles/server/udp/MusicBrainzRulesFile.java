package io.sluice.verticles.server.udp;

import io.sluice.protocol.udp.rulefile.RuleSetReader;
import io.sluice.protocol.udp.rulefile.RuleConfigException;
import io.sluice.protocol.udp.rules.RuleSet;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/** The shipped {@code deploy/rules/musicbrainz.yaml}, loaded the way the gateway's {@code UdpRules} does. */
public final class MusicBrainzRulesFile {

  private MusicBrainzRulesFile() {
  }

  static Path file() {
    // basedir is verticles/server when Maven runs the tests.
    return Path.of(System.getProperty("basedir", "."), "..", "..", "deploy", "rules", "musicbrainz.yaml").normalize();
  }

  public static RuleSet load() {
    Object document;
    try (Reader reader = Files.newBufferedReader(file(), StandardCharsets.UTF_8)) {
      document = new Yaml(new SafeConstructor(new LoaderOptions())).load(reader);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    @SuppressWarnings("unchecked")
    Map<String, ?> table = (Map<String, ?>) document;
    try {
      return RuleSetReader.read(table);
    } catch (RuleConfigException invalid) {
      throw new AssertionError(file() + ": " + invalid.getMessage(), invalid);
    }
  }
}
