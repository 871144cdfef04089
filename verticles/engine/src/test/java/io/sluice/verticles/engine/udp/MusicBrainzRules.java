package io.sluice.verticles.engine.udp;

import io.sluice.protocol.udp.rulefile.RuleSetReader;
import io.sluice.protocol.udp.rulefile.RuleConfigException;
import io.sluice.protocol.udp.rules.RuleSet;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/** The shipped {@code deploy/rules/musicbrainz.yaml}, loaded as the gateway would (snakeyaml → RuleSetReader). */
public final class MusicBrainzRules {

  private MusicBrainzRules() {
  }

  public static Path file() {
    return Path.of(System.getProperty("basedir", "."), "..", "..", "deploy", "rules", "musicbrainz.yaml").normalize();
  }

  public static Map<String, Object> yaml() {
    try (Reader reader = Files.newBufferedReader(file(), StandardCharsets.UTF_8)) {
      return new Yaml(new LoaderOptions()).load(reader);
    } catch (IOException unreadable) {
      throw new UncheckedIOException(unreadable);
    }
  }

  public static RuleSet load() {
    try {
      return RuleSetReader.read(yaml());
    } catch (RuleConfigException invalid) {
      throw new AssertionError(invalid.getMessage(), invalid);
    }
  }
}
