package io.sluice.gateway;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.time.ZoneId;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.LogRecord;

import static org.assertj.core.api.Assertions.assertThat;

class LogFormatTest {

  private static LogRecord record(Level level, String message, Object... parameters) {
    LogRecord record = new LogRecord(level, message);
    record.setLoggerName("io.sluice.Example");
    record.setInstant(Instant.parse("2026-11-24T05:10:00.123Z"));
    record.setParameters(parameters.length == 0 ? null : parameters);
    return record;
  }

  @Test
  void jsonIsOneObjectPerLineWithUtcTimeLevelLoggerMessageAndFields() {
    LogRecord record = record(Level.WARNING, "refused \"policies\"", Map.of("file", "/etc/sluice/sluice.yaml"));
    record.setThrown(new IllegalStateException("line 3: bad"));

    String line = LogFormat.named("json").format(record);

    assertThat(line).endsWith("\n").doesNotContain("\n\n");
    assertThat(line.strip()).doesNotContain("\n");
    JsonObject event = new JsonObject(line);
    assertThat(event.getString("time")).isEqualTo("2026-11-24T05:10:00.123Z");
    assertThat(event.getString("level")).isEqualTo("WARN");
    assertThat(event.getString("logger")).isEqualTo("io.sluice.Example");
    assertThat(event.getString("message")).isEqualTo("refused \"policies\"");
    JsonObject fields = event.getJsonObject("fields");
    assertThat(fields.getString("file")).isEqualTo("/etc/sluice/sluice.yaml");
    assertThat(fields.getString("thread")).isNotEmpty();
    assertThat(fields.getString("error")).startsWith("java.lang.IllegalStateException: line 3: bad").contains("\tat ");
  }

  @Test
  void textTimesCarryDateAndZone() {
    assertThat(new LogFormat.Text(ZoneId.of("UTC")).format(record(Level.INFO, "hello")))
        .isEqualTo("2026-11-24T05:10:00.123Z INFO io.sluice.Example: hello" + System.lineSeparator());
    assertThat(new LogFormat.Text(ZoneId.of("Europe/Berlin")).format(record(Level.FINE, "hello", Map.of("part", "rules"))))
        .isEqualTo("2026-11-24T06:10:00.123+01:00 DEBUG io.sluice.Example: hello part=rules" + System.lineSeparator());
  }

  @Test
  void levelsReadTheSameInBothFormats() {
    assertThat(LogFormat.levelName(Level.SEVERE)).isEqualTo("ERROR");
    assertThat(LogFormat.levelName(Level.WARNING)).isEqualTo("WARN");
    assertThat(LogFormat.levelName(Level.INFO)).isEqualTo("INFO");
    assertThat(LogFormat.levelName(Level.CONFIG)).isEqualTo("DEBUG");
    assertThat(LogFormat.levelName(Level.FINE)).isEqualTo("DEBUG");
    assertThat(LogFormat.levelName(Level.FINER)).isEqualTo("TRACE");
  }
}
