package io.sluice.verticles.server.kit;

import io.vertx.core.internal.threadchecker.BlockedThreadChecker;

import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Every log line of WARNING or above that the process writes while a test runs (Sluice's
 * System.Logger and Vert.x both end in java.util.logging here), so a test can count what one
 * failure costs in the log: one line, or a thousand-line stack trace.
 */
public final class LogLines implements AutoCloseable {

  private final Logger root = Logger.getLogger("");
  private final List<LogRecord> records = new ArrayList<>();
  private final Handler handler = new Handler() {
    @Override
    public void publish(LogRecord record) {
      if (record.getLevel().intValue() >= lowest.intValue() && !machineLoad(record)) {
        synchronized (records) {
          records.add(record);
        }
      }
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
    }
  };

  private final Level lowest;

  /**
   * Vert.x's blocked-thread warning times an event loop's task by the wall clock: on a loaded
   * machine (CI's two cores shared with the build) it says that a task waited for a core, not what
   * a test counts, so it is not among the lines.
   */
  private static boolean machineLoad(LogRecord record) {
    return BlockedThreadChecker.LOGGER_NAME.equals(record.getLoggerName());
  }

  public LogLines() {
    this(Level.WARNING);
  }

  /** Lines at {@code lowest} and above (INFO to see what Sluice reports of its own doing). */
  public LogLines(Level lowest) {
    this.lowest = lowest;
    root.addHandler(handler);
  }

  /** Lines logged so far: the message, then the stack trace's lines if the record carries one. */
  public List<String> lines() {
    List<String> lines = new ArrayList<>();
    synchronized (records) {
      for (LogRecord record : records) {
        lines.add(record.getLevel() + " " + record.getLoggerName() + ": " + record.getMessage());
        for (Throwable t = record.getThrown(); t != null; t = t.getCause()) {
          for (StackTraceElement frame : t.getStackTrace()) {
            lines.add("\tat " + frame);
          }
        }
      }
    }
    return lines;
  }

  /** Lines logged so far that contain {@code text}. */
  public List<String> containing(String text) {
    return lines().stream().filter(line -> line.contains(text)).toList();
  }

  @Override
  public void close() {
    root.removeHandler(handler);
  }
}
