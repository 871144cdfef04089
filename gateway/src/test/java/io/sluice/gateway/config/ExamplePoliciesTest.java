package io.sluice.gateway.config;

import static io.sluice.gateway.config.Loading.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sluice.verticles.strategies.Quota;
import io.sluice.verticles.strategies.algorithm.FixedWindow;
import io.sluice.verticles.strategies.policy.Policy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;

/**
 * Keeps deploy/examples/sluice.yaml honest: it loads, it has the documented per-key-5-per-10s policy,
 * and it shows every strategy.
 */
class ExamplePoliciesTest {

  /** Surefire runs in the module directory; the example lives at the repository top level. */
  private static final Path EXAMPLE = Path.of("..", "deploy", "examples", "sluice.yaml");

  @Test
  void theExampleLoadsWithAPolicyOfEachStrategy() throws Exception {
    assumeTrue(Files.isRegularFile(EXAMPLE), "deploy/examples/sluice.yaml not found from " + Path.of("").toAbsolutePath());
    SluiceConfig config = run("--config", EXAMPLE.toString());

    Policy perKey = config.policies().get("per-key-5-per-10s");
    assertThat(perKey).isNotNull();
    assertThat(((FixedWindow) perKey.strategy()).policy().quotas())
        .containsExactly(new Quota("default", 5, Duration.ofSeconds(10)));
    assertThat(perKey.key().spelling()).isEqualTo("param | header:X-Api-Key");
    assertThat(config.policies().all()).extracting(policy -> policy.strategy().name())
        .contains("token_bucket", "fixed_window", "leaky_bucket", "gcra", "composite", "decaying_rate", "sliding_window");
  }
}
