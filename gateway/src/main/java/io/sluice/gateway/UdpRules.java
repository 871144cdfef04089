package io.sluice.gateway;

import io.sluice.gateway.config.FileTrouble;
import io.sluice.protocol.udp.rulefile.RuleFile;
import io.sluice.protocol.udp.rulefile.RuleFileException;
import io.sluice.protocol.udp.rules.RuleSet;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The UDP rule table named by {@code --rules}, read at start, by {@code --check-config} and on
 * each reload; no file means the original's allow-everything default. The format and the wording
 * of its problems are protocol-udp's ({@link RuleFile}); this class only reads the file.
 */
final class UdpRules {

  private UdpRules() {
  }

  static RuleSet load(Optional<Path> file) throws RuleFileException {
    return file.isEmpty() ? RuleSet.allowAll() : load(file.get());
  }

  static RuleSet load(Path file) throws RuleFileException {
    String cannotRead = "cannot read rules file " + file + " (--rules): ";
    Optional<String> notAFile = FileTrouble.beforeReading(file);
    if (notAFile.isPresent()) {
      throw new RuleFileException(cannotRead + notAFile.get());
    }
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException trouble) {
      throw new RuleFileException(cannotRead + FileTrouble.reason(trouble));
    }
    return RuleFile.read(text, file.toString());
  }
}
