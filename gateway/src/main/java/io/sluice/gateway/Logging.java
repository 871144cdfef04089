package io.sluice.gateway;

import java.util.Locale;
import java.util.Map;
import java.util.logging.ConsoleHandler;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.Logger;

/**
 * Sluice's log: JDK logging (no extra dependency; Vert.x and Netty log through it too) to stderr,
 * one line per event, as text or JSON ({@link LogFormat}), from the level {@code --log-level}
 * names. An operator's own {@code java.util.logging.config.file} replaces all of it.
 */
final class Logging {

  /** Option words to JDK levels: debug covers FINE and CONFIG, trace everything below. */
  private static final Map<String, Level> LEVELS = Map.of(
      "error", Level.SEVERE, "warn", Level.WARNING, "info", Level.INFO, "debug", Level.FINE, "trace", Level.ALL);

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

  /** Text at INFO, until the configuration is read ({@link #apply}). */
  static void configure() {
    apply("info", "text");
  }

  /**
   * @param level  error, warn, info, debug or trace
   * @param format text or json
   */
  static void apply(String level, String format) {
    if (System.getProperty("java.util.logging.config.file") != null) {
      return;
    }
    System.setProperty("java.util.logging.manager", KeepHandlersOnShutdown.class.getName());
    LogManager manager = LogManager.getLogManager();
    if (manager instanceof KeepHandlersOnShutdown keeping) {
      keeping.resetNow();
    } else {
      manager.reset();
    }
    Handler handler = new ConsoleHandler();
    handler.setFormatter(LogFormat.named(format));
    handler.setLevel(Level.ALL);
    Logger root = Logger.getLogger("");
    Level threshold = LEVELS.get(level.toLowerCase(Locale.ROOT));
    if (threshold == null) {
      throw new IllegalArgumentException("unknown log level " + level);
    }
    root.setLevel(threshold);
    root.addHandler(handler);
  }
}
