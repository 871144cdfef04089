package io.sluice.protocol.udp.rules;

/** How a rule measures its keys' use. */
public enum RuleAlgorithm {
  /** The protocol's own: an exponentially decaying rate per period (spec §4). */
  DECAYING_RATE("decaying-rate"),
  /**
   * A Sluice extension: the weighted two-window count of the check API's {@code sliding_window},
   * at most {@code limit} admitted uses per sliding period, exactly.
   */
  SLIDING_WINDOW("sliding-window");

  private final String spelling;

  RuleAlgorithm(String spelling) {
    this.spelling = spelling;
  }

  /** As rule files write it. */
  public String spelling() {
    return spelling;
  }

  /** The algorithm a rule file names, or {@code null} when it names none of them. */
  public static RuleAlgorithm named(String spelling) {
    for (RuleAlgorithm algorithm : values()) {
      if (algorithm.spelling.equals(spelling)) {
        return algorithm;
      }
    }
    return null;
  }
}
