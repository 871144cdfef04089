package io.sluice.verticles.engine.shard;

/**
 * A read-only look at one key for operators (the dashboard): it travels to the owning shard in a
 * {@link ShardBatch} and comes back with the record's {@link KeyDetail}, or none when the key is
 * absent or expired. Unlike a Throttr QUERY or GET it does not count as a read, so looking at a key
 * does not change the figures being looked at.
 */
public final class KeyLookup {

  private final byte[] key;
  private KeyDetail detail;

  public KeyLookup(byte[] key) {
    this.key = key.clone();
  }

  public byte[] key() {
    return key.clone();
  }

  byte[] keyBytes() {
    return key;
  }

  /** What the shard found; null when the key is not live. Read it once the batch is back. */
  public KeyDetail detail() {
    return detail;
  }

  void found(KeyDetail detail) {
    this.detail = detail;
  }
}
