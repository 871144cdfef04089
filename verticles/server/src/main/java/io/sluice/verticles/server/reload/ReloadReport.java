package io.sluice.verticles.server.reload;

import java.util.List;

/**
 * What one SIGHUP reload did, as the admin API shows it: when, whether everything was put in
 * service, and each part's result with what changed or why it was refused.
 *
 * @param atMillis when the reload ran, milliseconds since the Unix epoch
 * @param parts    in reload order; a configuration that could not be read at all is one refused
 *                 part, {@code configuration}, and nothing else was touched
 */
public record ReloadReport(long atMillis, List<PartResult> parts) {

  /** How the reload ended, as the API spells it. */
  public enum Outcome {
    /** Every part was put in service. */
    OK("ok"),
    /** Some parts were refused and kept their previous version; the others were put in service. */
    PARTLY_REFUSED("partly refused"),
    /** Every part was refused: nothing changed. */
    REFUSED("refused");

    private final String spelling;

    Outcome(String spelling) {
      this.spelling = spelling;
    }

    public String spelling() {
      return spelling;
    }
  }

  /**
   * @param reloaded whether the new version is in service
   * @param detail   what changed when reloaded (such as {@code policies added [a], changed [],
   *                 removed []}), else why it was refused
   */
  public record PartResult(String part, boolean reloaded, String detail) {
  }

  public ReloadReport {
    parts = List.copyOf(parts);
  }

  public Outcome outcome() {
    long reloaded = parts.stream().filter(PartResult::reloaded).count();
    return reloaded == parts.size() ? Outcome.OK : reloaded == 0 ? Outcome.REFUSED : Outcome.PARTLY_REFUSED;
  }
}
