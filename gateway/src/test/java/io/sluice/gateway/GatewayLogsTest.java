package io.sluice.gateway;

import io.sluice.gateway.process.ChildProcess;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** The log of a real gateway process: JSON lines that parse, and nothing routine above DEBUG. */
class GatewayLogsTest {

  @TempDir
  Path directory;

  @Test
  void jsonLinesParseAndRoutineEventsStayAtDebug() throws Exception {
    try (ChildProcess gateway = ChildProcess.start(ChildProcess.gatewayCommand("--tcp-port", "0", "--http-port", "0", "--grpc-port", "0",
        "--udp-port", "0", "--log-format", "json", "--log-level", "debug"), Map.of(), directory)) {
      Matcher started = gateway.awaitLine(Pattern.compile("HTTP on http://127\\.0\\.0\\.1:(\\d+)"));
      int httpPort = Integer.parseInt(started.group(1));

      // A WebSocket client that leaves without a close frame: its TCP connection just ends.
      try (Socket socket = new Socket("127.0.0.1", httpPort)) {
        OutputStream out = socket.getOutputStream();
        out.write(("GET /ws HTTP/1.1\r\nHost: 127.0.0.1:" + httpPort + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        InputStream in = socket.getInputStream();
        assertThat(new String(in.readNBytes(12), StandardCharsets.US_ASCII)).isEqualTo("HTTP/1.1 101");
      }
      gateway.awaitLine(Pattern.compile("WebSocket .* went away without a close handshake"));

      gateway.signal("TERM");
      gateway.awaitExit();
      List<String> lines = gateway.output().lines().filter(line -> !ChildProcess.blockedThreadWarning(line)).toList();
      assertThat(lines).isNotEmpty();
      for (String line : lines) {
        JsonObject event = new JsonObject(line);
        assertThat(event.fieldNames()).as(line).containsExactly("time", "level", "logger", "message", "fields");
        assertThat(event.getString("time")).as(line).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z");
        // No duplicate-gauge warning at start, no warning for a client leaving: nothing above INFO.
        assertThat(event.getString("level")).as(line).isIn("INFO", "DEBUG", "TRACE");
      }
      assertThat(lines).anySatisfy(line -> assertThat(new JsonObject(line).getString("level")).isEqualTo("DEBUG")
          .satisfies(level -> assertThat(line).contains("went away without a close handshake")));
    }
  }

  @Test
  void textLinesCarryDateTimeAndZone() throws Exception {
    try (ChildProcess gateway = ChildProcess.start(ChildProcess.gatewayCommand("--tcp-port", "0", "--http-port", "0", "--grpc-port", "0",
        "--udp-port", "0"), Map.of("TZ", "UTC"), directory)) {
      gateway.awaitLine(Pattern.compile("^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}(Z|[+-]\\d\\d:\\d\\d) INFO io\\.sluice\\.gateway\\.Gateway: Sluice .* serving Throttr"));
      assertThat(gateway.output().lines().filter(line -> !ChildProcess.blockedThreadWarning(line)))
          .noneMatch(line -> line.contains("WARN")).noneMatch(line -> line.contains("already registered"));
    }
  }
}
