package io.sluice.verticles.engine.persist;

import java.util.Locale;

/** When the append-only log is forced to disk ({@code --fsync}). */
public enum FsyncPolicy {

  /** Before a reply leaves: no acknowledged write is lost, replies wait for the disk (group commit). */
  ALWAYS,
  /** Twice a second in the background: writes older than a second survive power loss. */
  EVERYSEC,
  /** Never forced: the operating system writes when it likes; kill -9 loses nothing written to it. */
  NO;

  /** The option's spelling: {@code always}, {@code everysec}, {@code no}. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** @throws IllegalArgumentException for any other spelling */
  public static FsyncPolicy parse(String text) {
    for (FsyncPolicy policy : values()) {
      if (policy.label().equals(text.trim().toLowerCase(Locale.ROOT))) {
        return policy;
      }
    }
    throw new IllegalArgumentException("expected always, everysec or no");
  }
}
