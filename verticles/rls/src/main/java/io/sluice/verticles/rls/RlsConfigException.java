package io.sluice.verticles.rls;

import java.util.List;

/**
 * A rate limit config that cannot be used. The message names the file, the line and the field of
 * every problem, on one line, so that a refused reload is one log line:
 * {@code config.yaml:12: descriptors[0].rate_limit.unit: must be one of second, … was 'fortnight'}.
 */
public final class RlsConfigException extends Exception {

  private final List<String> problems;

  public RlsConfigException(List<String> problems) {
    super(String.join("; ", problems));
    this.problems = List.copyOf(problems);
  }

  public List<String> problems() {
    return problems;
  }
}
