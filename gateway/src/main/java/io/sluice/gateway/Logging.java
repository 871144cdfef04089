package io.sluice.gateway;

import java.util.logging.ConsoleHandler;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

/** One line per event on stderr: time, level, source, message (JDK logging; no extra dependency). */
final class Logging {

  private Logging() {
  }

  /**
   * The JDK's LogManager resets every handler in its own shutdown hook, which would swallow the
   * lines Sluice logs while it stops on SIGTERM; this one keeps its handlers until the JVM exits.
   */
  public static final class KeepHandlersOnShutdown extends LogManager {
    @Override
    public void reset() {
      // Only configure() resets, through resetNow(); the JVM's shutdown hook must not.
    }

    void resetNow() {
      super.reset();
    }
  }

  static void configure() {
    if (System.getProperty("java.util.logging.config.file") != null) {
      return;
    }
    System.setProperty("java.util.logging.manager", KeepHandlersOnShutdown.class.getName());
    System.setProperty("java.util.logging.SimpleFormatter.format", "%1$tFT%1$tT.%1$tL %4$s %3$s: %5$s%6$s%n");
    LogManager manager = LogManager.getLogManager();
    if (manager instanceof KeepHandlersOnShutdown keeping) {
      keeping.resetNow();
    } else {
      manager.reset();
    }
    ConsoleHandler handler = new ConsoleHandler();
    handler.setFormatter(new SimpleFormatter());
    handler.setLevel(Level.INFO);
    Logger root = Logger.getLogger("");
    root.setLevel(Level.INFO);
    root.addHandler(handler);
  }
}
