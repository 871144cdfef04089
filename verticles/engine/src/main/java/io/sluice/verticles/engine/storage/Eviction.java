package io.sluice.verticles.engine.storage;

import java.util.Locale;

/** What a full shard does with a write that needs room (the {@code --eviction} option). */
public enum Eviction {

  /**
   * Removes the records closest to expiry, found by sampling: for a rate limiter the least harmful
   * reset, as such a record was about to forget its count anyway.
   */
  VOLATILE_TTL("volatile-ttl"),

  /** Refuses the write: nothing already counted is ever forgotten, new keys go unlimited or refused. */
  REJECT("reject");

  private final String label;

  Eviction(String label) {
    this.label = label;
  }

  /** The option's spelling: {@code volatile-ttl} or {@code reject}. */
  public String label() {
    return label;
  }

  /** @throws IllegalArgumentException for anything but {@code volatile-ttl} or {@code reject} */
  public static Eviction parse(String text) {
    String wanted = text.trim().toLowerCase(Locale.ROOT);
    for (Eviction eviction : values()) {
      if (eviction.label.equals(wanted)) {
        return eviction;
      }
    }
    throw new IllegalArgumentException("expected volatile-ttl or reject");
  }
}
