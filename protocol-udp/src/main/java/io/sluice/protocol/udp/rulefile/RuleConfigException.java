package io.sluice.protocol.udp.rulefile;

import java.util.List;

/**
 * A rule table cannot be used. Carries every problem found, each naming where it is
 * ({@code rules[3].period: …}), so that one run shows all mistakes of a rules file.
 */
public final class RuleConfigException extends Exception {

  private static final long serialVersionUID = 1L;

  private final List<String> problems;

  public RuleConfigException(List<String> problems) {
    super(render(problems));
    if (problems.isEmpty()) {
      throw new IllegalArgumentException("a RuleConfigException needs at least one problem");
    }
    this.problems = List.copyOf(problems);
  }

  /** One line per problem, in the order found. */
  public List<String> problems() {
    return problems;
  }

  private static String render(List<String> problems) {
    if (problems.size() == 1) {
      return "rule table: " + problems.get(0);
    }
    StringBuilder text = new StringBuilder("rule table: " + problems.size() + " problems:");
    for (String problem : problems) {
      text.append(System.lineSeparator()).append("  - ").append(problem);
    }
    return text.toString();
  }
}
