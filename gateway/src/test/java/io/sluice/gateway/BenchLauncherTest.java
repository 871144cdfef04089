package io.sluice.gateway;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

import static org.assertj.core.api.Assertions.assertThat;

/** What {@code sluice bench} says when it cannot start the tool; BenchLauncherIT runs the real one. */
class BenchLauncherTest {

  private final ByteArrayOutputStream printed = new ByteArrayOutputStream();
  private final PrintStream err = new PrintStream(printed, true, StandardCharsets.UTF_8);

  @Test
  void aMissingJarIsNamedWithWhereItShipsAndExits1(@TempDir Path lib) {
    Path jar = lib.resolve(BenchLauncher.JAR_NAME);

    assertThat(BenchLauncher.run(jar, List.of("--help"), err)).isEqualTo(BenchLauncher.CANNOT_START).isEqualTo(1);
    assertThat(printed.toString(StandardCharsets.UTF_8)).startsWith("sluice: bench: the load generator is not installed: "
        + jar + " is missing (the distribution ships it in lib/ beside sluice.jar");
  }

  @Test
  void aJarThatNamesNoMainClassIsRefused(@TempDir Path lib) throws Exception {
    Path jar = lib.resolve(BenchLauncher.JAR_NAME);
    try (OutputStream file = Files.newOutputStream(jar); JarOutputStream ignored = new JarOutputStream(file, new Manifest())) {
      // an empty jar: a manifest without Main-Class
    }

    assertThat(BenchLauncher.run(jar, List.of(), err)).isEqualTo(BenchLauncher.CANNOT_START);
    assertThat(printed.toString(StandardCharsets.UTF_8)).contains("sluice: bench: cannot run " + jar)
        .contains("names no Main-Class");
  }
}
