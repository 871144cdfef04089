package io.sluice.gateway;

import io.sluice.gateway.process.ChildProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code java -jar sluice.jar bench …} runs the sluice-bench.jar beside it: the same output and exit
 * status as that jar run by itself, and a clear refusal when it is not there.
 */
@EnabledIfSystemProperty(named = "sluice.jar", matches = ".+",
    disabledReason = "runs in the distribution-tests execution, after package built sluice.jar and sluice-bench.jar")
class BenchLauncherIT {

  private static final Path SLUICE_JAR = Path.of(System.getProperty("sluice.jar", "unset")).toAbsolutePath();
  private static final Path BENCH_JAR = SLUICE_JAR.resolveSibling("sluice-bench.jar");

  @Test
  void sluiceJarBenchIsTheBenchJarWithItsOutputAndExitStatus() throws Exception {
    ChildProcess.Finished launched = run(SLUICE_JAR, "bench", "--help");
    ChildProcess.Finished direct = run(BENCH_JAR, "--help");

    assertThat(launched.status()).as(launched.output()).isZero();
    assertThat(launched.output()).contains("--connections").isEqualTo(direct.output());
    assertThat(direct.status()).isZero();

    ChildProcess.Finished badFlag = run(SLUICE_JAR, "bench", "udp", "--clients", "none");
    assertThat(badFlag.status()).as(badFlag.output()).isEqualTo(2);
    assertThat(badFlag.output()).startsWith("bench udp: ").isEqualTo(run(BENCH_JAR, "udp", "--clients", "none").output());
  }

  @Test
  void withoutTheBenchJarBesideItSaysSoAndExits1(@TempDir Path alone) throws Exception {
    Path sluiceJar = Files.copy(SLUICE_JAR, alone.resolve("sluice.jar"));

    ChildProcess.Finished launched = run(sluiceJar, "bench", "--help");

    assertThat(launched.status()).as(launched.output()).isEqualTo(1);
    assertThat(launched.output()).isEqualTo("sluice: bench: the load generator is not installed: "
        + alone.toRealPath().resolve("sluice-bench.jar") + " is missing (the distribution ships it in lib/ beside"
        + " sluice.jar; mvn package builds it into gateway/target/)");
  }

  private static ChildProcess.Finished run(Path jar, String... args) throws Exception {
    return ChildProcess.run(ChildProcess.javaJarCommand(jar, args), Map.of(), jar.getParent());
  }
}
