package io.sluice.verticles.engine.storage;

/** The two limits a shard's records are held under; the label is the reason metrics give. */
public enum Bound {

  /** {@code --max-keys}: how many records. */
  KEYS("max-keys"),

  /** {@code --max-memory}: the estimate of their memory ({@link RecordBudget#estimate}). */
  MEMORY("max-memory");

  private final String label;

  Bound(String label) {
    this.label = label;
  }

  public String label() {
    return label;
  }
}
