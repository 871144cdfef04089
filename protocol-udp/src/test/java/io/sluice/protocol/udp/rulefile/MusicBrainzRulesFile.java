package io.sluice.protocol.udp.rulefile;

import io.sluice.protocol.udp.rules.RuleSet;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The shipped {@code deploy/rules/musicbrainz.yaml}, read through {@link RuleFile} as the gateway
 * reads {@code --rules}. In this module's test-jar, for the engine's and the server's tests.
 */
public final class MusicBrainzRulesFile {

  private static final Path IN_REPOSITORY = Path.of("deploy", "rules", "musicbrainz.yaml");

  private MusicBrainzRulesFile() {
  }

  /** The file, found from the testing module's directory upwards (modules sit at different depths). */
  public static Path file() {
    Path module = Path.of(System.getProperty("basedir", ".")).toAbsolutePath().normalize();
    for (Path directory = module; directory != null; directory = directory.getParent()) {
      Path candidate = directory.resolve(IN_REPOSITORY);
      if (Files.isRegularFile(candidate)) {
        return candidate;
      }
    }
    throw new IllegalStateException("no " + IN_REPOSITORY + " above " + module);
  }

  public static RuleSet load() {
    Path file = file();
    try {
      return RuleFile.read(Files.readString(file, StandardCharsets.UTF_8), file.toString());
    } catch (IOException unreadable) {
      throw new UncheckedIOException(unreadable);
    } catch (RuleFileException invalid) {
      throw new AssertionError(invalid.getMessage(), invalid);
    }
  }
}
