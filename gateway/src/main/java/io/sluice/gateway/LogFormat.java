package io.sluice.gateway;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.logging.Formatter;
import java.util.logging.Level;
import java.util.logging.LogRecord;

/**
 * How one log event is written. Both formats carry the same facts: time, level (ERROR, WARN, INFO,
 * DEBUG, TRACE), logger, message, and fields: the thread, the stack of an attached exception, and
 * the entries of a {@code Map} passed as the event's only parameter, e.g.
 * {@code LOG.log(INFO, "reloaded", Map.of("part", "policies"))}.
 */
abstract class LogFormat extends Formatter {

  /** Milliseconds and the zone's offset ("Z" for UTC), so that lines from two hosts compare. */
  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSXXX");

  static LogFormat named(String name) {
    return switch (name) {
      case "text" -> new Text(ZoneId.systemDefault());
      case "json" -> new Json();
      default -> throw new IllegalArgumentException("unknown log format " + name);
    };
  }

  static String levelName(Level level) {
    int value = level.intValue();
    if (value >= Level.SEVERE.intValue()) {
      return "ERROR";
    } else if (value >= Level.WARNING.intValue()) {
      return "WARN";
    } else if (value >= Level.INFO.intValue()) {
      return "INFO";
    } else if (value >= Level.FINE.intValue()) {
      return "DEBUG";
    }
    return "TRACE";
  }

  /** The record's fields, in a stable order: its map parameter's entries, then thread, then error. */
  Map<String, Object> fields(LogRecord record) {
    Map<String, Object> fields = new LinkedHashMap<>();
    Object[] parameters = record.getParameters();
    if (parameters != null && parameters.length == 1 && parameters[0] instanceof Map<?, ?> map) {
      map.forEach((key, value) -> fields.put(String.valueOf(key), String.valueOf(value)));
    }
    fields.put("thread", Thread.currentThread().getName());
    if (record.getThrown() != null) {
      StringWriter stack = new StringWriter();
      record.getThrown().printStackTrace(new PrintWriter(stack));
      fields.put("error", stack.toString().stripTrailing());
    }
    return fields;
  }

  static String time(Instant instant, ZoneId zone) {
    return TIME.format(instant.atZone(zone));
  }

  /** {@code 2026-11-24T05:10:00.123Z INFO io.sluice.gateway.Gateway: message key=value}, then a stack if any. */
  static final class Text extends LogFormat {
    private final ZoneId zone;

    Text(ZoneId zone) {
      this.zone = zone;
    }

    @Override
    public String format(LogRecord record) {
      StringBuilder line = new StringBuilder()
          .append(time(record.getInstant(), zone)).append(' ')
          .append(levelName(record.getLevel())).append(' ')
          .append(record.getLoggerName()).append(": ")
          .append(formatMessage(record));
      String stack = null;
      for (Map.Entry<String, Object> field : fields(record).entrySet()) {
        if (field.getKey().equals("error")) {
          stack = (String) field.getValue();
        } else if (!field.getKey().equals("thread")) {
          line.append(' ').append(field.getKey()).append('=').append(field.getValue());
        }
      }
      line.append(System.lineSeparator());
      if (stack != null) {
        line.append(stack).append(System.lineSeparator());
      }
      return line.toString();
    }
  }

  /**
   * One JSON object per line; the time always in UTC. Written by hand: Vert.x's JSON codec logs
   * while it initialises, and a formatter must never log.
   */
  static final class Json extends LogFormat {
    @Override
    public String format(LogRecord record) {
      StringBuilder line = new StringBuilder(256).append('{');
      member(line, "time", time(record.getInstant(), ZoneOffset.UTC)).append(',');
      member(line, "level", levelName(record.getLevel())).append(',');
      member(line, "logger", String.valueOf(record.getLoggerName())).append(',');
      member(line, "message", formatMessage(record)).append(",\"fields\":{");
      boolean first = true;
      for (Map.Entry<String, Object> field : fields(record).entrySet()) {
        if (!first) {
          line.append(',');
        }
        first = false;
        member(line, field.getKey(), String.valueOf(field.getValue()));
      }
      return line.append("}}\n").toString();
    }

    private static StringBuilder member(StringBuilder line, String name, String value) {
      quote(line, name).append(':');
      return quote(line, value);
    }

    /** A JSON string: quotes, backslashes and control characters escaped (RFC 8259). */
    static StringBuilder quote(StringBuilder out, String text) {
      out.append('"');
      for (int i = 0; i < text.length(); i++) {
        char c = text.charAt(i);
        switch (c) {
          case '"' -> out.append("\\\"");
          case '\\' -> out.append("\\\\");
          case '\n' -> out.append("\\n");
          case '\r' -> out.append("\\r");
          case '\t' -> out.append("\\t");
          default -> {
            if (c < 0x20) {
              out.append(String.format("\\u%04x", (int) c));
            } else {
              out.append(c);
            }
          }
        }
      }
      return out.append('"');
    }
  }
}
