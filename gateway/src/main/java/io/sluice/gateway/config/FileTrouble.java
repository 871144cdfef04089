package io.sluice.gateway.config;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;

/** Why a file Sluice was told to read cannot be read, in the words every message uses. */
public final class FileTrouble {

  private FileTrouble() {
  }

  /** "it is a directory" before opening, else empty: reading a directory fails obscurely. */
  public static Optional<String> beforeReading(Path path) {
    return Files.isDirectory(path) ? Optional.of("it is a directory") : Optional.empty();
  }

  /** "no such file", "permission denied", "it is not valid UTF-8", or the JDK's own words. */
  public static String reason(IOException trouble) {
    if (trouble instanceof NoSuchFileException) {
      return "no such file";
    }
    if (trouble instanceof AccessDeniedException) {
      return "permission denied";
    }
    if (trouble instanceof CharacterCodingException) {
      return "it is not valid UTF-8";
    }
    return String.valueOf(trouble.getMessage());
  }
}
