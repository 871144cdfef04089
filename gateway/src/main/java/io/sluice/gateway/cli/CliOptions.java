package io.sluice.gateway.cli;

import io.sluice.protocol.binary.codec.ValueSize;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The options of {@code sluice cli}: one row each, read by the parser, {@code sluice cli --help}
 * and the bash completion ({@link io.sluice.gateway.Completion}).
 */
public final class CliOptions {

  /** One option of the client. {@code choices} are its only values, when it has a fixed set. */
  public record Row(String name, String valueLabel, String description, List<String> choices) {
    public String flag() {
      return "--" + name;
    }

    public boolean takesValue() {
      return valueLabel != null;
    }
  }

  public static final Row HOST = new Row("host", "HOST", "server address (127.0.0.1)", List.of());
  public static final Row PORT = new Row("port", "PORT", "Throttr TCP port (9000)", List.of());
  public static final Row VALUE_SIZE = new Row("value-size", "SIZE", "value size, as the server's --value-size (uint16)",
      List.of("uint8", "uint16", "uint32", "uint64"));
  public static final Row JSON = new Row("json", null, "print one JSON object per reply, for scripts", List.of());
  public static final Row HELP = new Row("help", null, "print this help", List.of());

  public static final List<Row> ALL = List.of(HOST, PORT, VALUE_SIZE, JSON, HELP);

  /** What {@code sluice cli …} was asked to do. An empty command starts the interactive prompt. */
  record Parsed(String host, int port, ValueSize valueSize, boolean json, boolean help, List<String> command) {
  }

  private CliOptions() {
  }

  /** @throws IllegalArgumentException naming the bad option, for a usage error */
  static Parsed parse(List<String> args) {
    String host = "127.0.0.1";
    int port = 9000;
    ValueSize valueSize = ValueSize.UINT16;
    boolean json = false;
    boolean help = false;
    int i = 0;
    for (; i < args.size() && args.get(i).startsWith("--"); i++) {
      String argument = args.get(i);
      int equals = argument.indexOf('=');
      String name = argument.substring(2, equals < 0 ? argument.length() : equals);
      Row row = find(name).orElseThrow(() -> new IllegalArgumentException("unknown option --" + name
          + " (sluice cli --help lists them)"));
      String value = null;
      if (row.takesValue()) {
        if (equals >= 0) {
          value = argument.substring(equals + 1);
        } else if (i + 1 < args.size()) {
          value = args.get(++i);
        } else {
          throw new IllegalArgumentException(row.flag() + " needs a value: " + row.flag() + " " + row.valueLabel());
        }
      }
      if (row == HOST) {
        host = value;
      } else if (row == PORT) {
        port = port(value);
      } else if (row == VALUE_SIZE) {
        valueSize = valueSize(value);
      } else if (row == JSON) {
        json = true;
      } else {
        help = true;
      }
    }
    return new Parsed(host, port, valueSize, json, help, new ArrayList<>(args.subList(i, args.size())));
  }

  private static Optional<Row> find(String name) {
    return ALL.stream().filter(row -> row.name().equals(name)).findFirst();
  }

  private static int port(String text) {
    try {
      int port = Integer.parseInt(text);
      if (port >= 1 && port <= 65535) {
        return port;
      }
    } catch (NumberFormatException notANumber) {
      // the message below
    }
    throw new IllegalArgumentException("--port: expected 1..65535, got '" + text + "'");
  }

  private static ValueSize valueSize(String text) {
    try {
      return ValueSize.parse(text);
    } catch (IllegalArgumentException invalid) {
      throw new IllegalArgumentException("--value-size: expected uint8, uint16, uint32 or uint64, got '" + text + "'");
    }
  }
}
