package io.sluice.gateway.config;

import java.util.List;

/**
 * The configuration cannot be used. Carries every problem found, not just the first, so that a
 * user fixing a config file sees all of its mistakes in one run. Each problem names the option
 * and where the bad value came from (command line, environment variable, or file and line).
 * Main prints {@link #getMessage()} and exits with status 2.
 */
public final class ConfigException extends Exception {

  private static final long serialVersionUID = 1L;

  private final List<String> problems;

  public ConfigException(List<String> problems) {
    super(render(problems));
    if (problems.isEmpty()) {
      throw new IllegalArgumentException("a ConfigException needs at least one problem");
    }
    this.problems = List.copyOf(problems);
  }

  public ConfigException(String problem) {
    this(List.of(problem));
  }

  /** One line per problem, in the order they were found. */
  public List<String> problems() {
    return problems;
  }

  private static String render(List<String> problems) {
    if (problems.size() == 1) {
      return problems.get(0);
    }
    StringBuilder text = new StringBuilder(problems.size() + " configuration problems:");
    for (String problem : problems) {
      text.append(System.lineSeparator()).append("  - ").append(problem);
    }
    return text.toString();
  }
}
