package io.sluice.protocol.udp.rulefile;

/**
 * A rules file cannot be used: not readable, not YAML, or a table with problems. The message is
 * ready for an operator and names the file (and the line, where one field is at fault).
 */
public final class RuleFileException extends Exception {

  private static final long serialVersionUID = 1L;

  public RuleFileException(String message) {
    super(message);
  }
}
