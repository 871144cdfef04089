package io.sluice.verticles.engine.persist;

/**
 * A data file Sluice will not load: damage in the middle (a checksum that does not match), a
 * header of another format version, or something that is not a data file. The message names the
 * file and the byte offset.
 */
public final class DamagedFileException extends RuntimeException {

  private final String file;
  private final long offset;
  private final boolean recoverable;

  /**
   * @param recoverable true when {@code --data-recover} may drop the damaged part and go on; a
   *                    header problem is not: nothing of the file can be trusted
   */
  public DamagedFileException(String file, long offset, String problem, boolean recoverable) {
    super(file + " at offset " + offset + ": " + problem);
    this.file = file;
    this.offset = offset;
    this.recoverable = recoverable;
  }

  public String file() {
    return file;
  }

  public long offset() {
    return offset;
  }

  public boolean recoverable() {
    return recoverable;
  }
}
