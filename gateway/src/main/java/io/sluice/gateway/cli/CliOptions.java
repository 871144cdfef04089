package io.sluice.gateway.cli;

import io.sluice.protocol.binary.codec.ValueSize;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
  public static final Row TLS = new Row("tls", null, "connect to the Throttr port over TLS, trusting the JVM's CAs"
      + " unless --tls-ca", List.of());
  public static final Row TLS_CA = new Row("tls-ca", "FILE", "CA certificates (PEM) to trust for the server's"
      + " certificate; implies --tls", List.of());
  public static final Row TLS_CERT = new Row("tls-cert", "FILE", "client certificate (PEM), for a server with"
      + " --tls-client-ca; with --tls-key", List.of());
  public static final Row TLS_KEY = new Row("tls-key", "FILE", "the client certificate's private key (PEM)", List.of());
  public static final Row HTTP = new Row("http", "URL", "HTTP port for check, policies, reset (http://127.0.0.1:8080);"
      + " https uses --tls-*", List.of());
  public static final Row TOKEN = new Row("token", "TOKEN", "the server's --auth-token, for the HTTP API"
      + " (default: $" + CliSettings.TOKEN_VARIABLE + ")", List.of());
  public static final Row JSON = new Row("json", null, "print one JSON object per reply, for scripts", List.of());
  public static final Row HELP = new Row("help", null, "print this help", List.of());

  public static final List<Row> ALL = List.of(HOST, PORT, VALUE_SIZE, TLS, TLS_CA, TLS_CERT, TLS_KEY, HTTP, TOKEN, JSON, HELP);

  private CliOptions() {
  }

  /**
   * @param environment where {@code SLUICE_AUTH_TOKEN} is read when {@code --token} is not given
   * @throws IllegalArgumentException naming the bad option, for a usage error
   */
  static CliSettings parse(List<String> args, Map<String, String> environment) {
    String host = "127.0.0.1";
    int port = 9000;
    ValueSize valueSize = ValueSize.UINT16;
    boolean tls = false;
    Path tlsCa = null;
    Path tlsCert = null;
    Path tlsKey = null;
    URI http = URI.create("http://127.0.0.1:8080");
    String token = environment.get(CliSettings.TOKEN_VARIABLE);
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
      } else if (row == TLS) {
        tls = true;
      } else if (row == TLS_CA) {
        tlsCa = readable(row, value);
      } else if (row == TLS_CERT) {
        tlsCert = readable(row, value);
      } else if (row == TLS_KEY) {
        tlsKey = readable(row, value);
      } else if (row == HTTP) {
        http = httpUrl(value);
      } else if (row == TOKEN) {
        token = value;
      } else if (row == JSON) {
        json = true;
      } else {
        help = true;
      }
    }
    if ((tlsCert == null) != (tlsKey == null)) {
      throw new IllegalArgumentException("--tls-cert and --tls-key go together: " + (tlsCert == null ? "--tls-cert" : "--tls-key")
          + " is missing");
    }
    CliTls tlsFiles = new CliTls(tls || tlsCa != null || tlsCert != null, Optional.ofNullable(tlsCa),
        Optional.ofNullable(tlsCert), Optional.ofNullable(tlsKey));
    return new CliSettings(host, port, valueSize, tlsFiles, http, Optional.ofNullable(token).filter(text -> !text.isEmpty()),
        json, help, new ArrayList<>(args.subList(i, args.size())));
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

  private static Path readable(Row row, String file) {
    Path path = Path.of(file);
    if (!Files.isRegularFile(path)) {
      throw new IllegalArgumentException(row.flag() + ": no such file: " + file);
    }
    if (!Files.isReadable(path)) {
      throw new IllegalArgumentException(row.flag() + ": permission denied: " + file);
    }
    return path;
  }

  private static URI httpUrl(String text) {
    try {
      URI url = new URI(text);
      if (("http".equals(url.getScheme()) || "https".equals(url.getScheme())) && url.getHost() != null
          && url.getRawQuery() == null && url.getRawFragment() == null) {
        return url;
      }
    } catch (URISyntaxException invalid) {
      // the message below
    }
    throw new IllegalArgumentException("--http: expected http://HOST:PORT or https://HOST:PORT, got '" + text + "'");
  }

  private static ValueSize valueSize(String text) {
    try {
      return ValueSize.parse(text);
    } catch (IllegalArgumentException invalid) {
      throw new IllegalArgumentException("--value-size: expected uint8, uint16, uint32 or uint64, got '" + text + "'");
    }
  }
}
