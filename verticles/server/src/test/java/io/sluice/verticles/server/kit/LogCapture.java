package io.sluice.verticles.server.kit;

import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * The records Sluice logs under a package while a test runs, DEBUG included ({@code System.Logger}
 * goes to java.util.logging, where DEBUG is FINE). Close to detach and restore the level.
 */
public final class LogCapture extends Handler implements AutoCloseable {

  private final Logger logger;
  private final Level previousLevel;
  private final List<LogRecord> records = new ArrayList<>();

  public LogCapture(String loggerName) {
    this.logger = Logger.getLogger(loggerName);
    this.previousLevel = logger.getLevel();
    logger.setLevel(Level.ALL);
    setLevel(Level.ALL);
    logger.addHandler(this);
  }

  @Override
  public synchronized void publish(LogRecord record) {
    records.add(record);
  }

  public synchronized List<LogRecord> records() {
    return List.copyOf(records);
  }

  /** Records above DEBUG (INFO, WARNING, ERROR). */
  public List<LogRecord> aboveDebug() {
    return records().stream().filter(r -> r.getLevel().intValue() > Level.FINE.intValue()).toList();
  }

  @Override
  public void flush() {
  }

  @Override
  public void close() {
    logger.removeHandler(this);
    logger.setLevel(previousLevel);
  }
}
