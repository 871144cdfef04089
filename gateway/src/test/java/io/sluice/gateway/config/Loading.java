package io.sluice.gateway.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.List;
import java.util.Map;

/** Shorthands for the tests: load with an explicit environment, expect a run or a failure. */
final class Loading {

  static final Map<String, String> NO_ENVIRONMENT = Map.of();

  private Loading() {
  }

  static SluiceConfig run(Map<String, String> environment, String... args) throws ConfigException {
    Invocation invocation = ConfigLoader.load(List.of(args), environment);
    assertThat(invocation).isInstanceOf(Invocation.Run.class);
    return ((Invocation.Run) invocation).config();
  }

  static SluiceConfig run(String... args) throws ConfigException {
    return run(NO_ENVIRONMENT, args);
  }

  static ConfigException failure(Map<String, String> environment, String... args) {
    ConfigException failure = catchThrowableOfType(ConfigException.class,
        () -> ConfigLoader.load(List.of(args), environment));
    assertThat(failure).as("loading %s with %s should fail", List.of(args), environment).isNotNull();
    return failure;
  }

  static ConfigException failure(String... args) {
    return failure(NO_ENVIRONMENT, args);
  }
}
