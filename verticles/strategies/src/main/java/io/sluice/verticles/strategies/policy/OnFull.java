package io.sluice.verticles.strategies.policy;

/**
 * A policy's answer when its key has no state yet and the storage shard, full under
 * {@code --eviction reject}, refuses to keep one (YAML field {@code on-full}).
 */
public enum OnFull {

  /** Fail open (the default): the request is allowed as if it were the key's first, and nothing is counted. */
  ALLOW("allow"),

  /** Fail closed: the request is denied, with a retry-after of one second. */
  DENY("deny");

  private final String spelling;

  OnFull(String spelling) {
    this.spelling = spelling;
  }

  public String spelling() {
    return spelling;
  }

  /** The value for {@code text}, or null when it is neither {@code allow} nor {@code deny}. */
  public static OnFull parse(String text) {
    for (OnFull onFull : values()) {
      if (onFull.spelling.equals(text)) {
        return onFull;
      }
    }
    return null;
  }
}
