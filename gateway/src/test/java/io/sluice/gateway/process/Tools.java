package io.sluice.gateway.process;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Programs a test runs that the JDK does not ship (deploy/install-build-tools.sh installs them). */
public final class Tools {

  private Tools() {
  }

  /** Whether the build runs under CI, where every tool must be present and no test skips for one. */
  public static boolean ci() {
    return System.getenv("CI") != null;
  }

  /** A tool the test needs: present, or the test skips, except under CI where it must be installed. */
  public static void need(String tool) throws Exception {
    boolean present = ChildProcess.run(List.of("sh", "-c", "command -v " + tool), Map.of(), Path.of(".")).status() == 0;
    if (ci()) {
      assertThat(present).as(tool + " must be installed in CI (deploy/install-build-tools.sh)").isTrue();
    }
    assumeTrue(present, tool + " is not installed (bash deploy/install-build-tools.sh)");
  }
}
