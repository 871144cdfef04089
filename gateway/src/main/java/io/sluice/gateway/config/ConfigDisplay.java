package io.sluice.gateway.config;

import io.sluice.verticles.server.settings.OperatorSettings;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.StringJoiner;

/**
 * How a {@link SluiceConfig} is shown: the startup log's lines, the admin endpoint's entries, the
 * reload's list of changes and {@code toString}, each in table order with secrets masked.
 */
final class ConfigDisplay {

  private ConfigDisplay() {
  }

  static List<String> changes(SluiceConfig older, SluiceConfig newer) {
    List<String> changed = new ArrayList<>();
    for (Option<?> option : Options.ALL) {
      if (older.isSetting(option) && option != Options.RULES && option != Options.CONFIG
          && !Objects.equals(older.value(option), newer.value(option))) {
        changed.add(option.flag() + (option.isSecret() ? " (changed)" : " (" + display(older, option) + " -> "
            + display(newer, option) + ")"));
      }
    }
    return changed;
  }

  static List<OperatorSettings.ConfigEntry> entries(SluiceConfig config) {
    List<OperatorSettings.ConfigEntry> entries = new ArrayList<>();
    shown(config).forEach((option, value) -> entries.add(new OperatorSettings.ConfigEntry(option.flag(),
        option.yamlKey().orElse(null), value, config.origin(option), option.isSecret())));
    return entries;
  }

  static String lines(SluiceConfig config) {
    Map<Option<?>, String> shown = shown(config);
    int width = shown.keySet().stream().mapToInt(option -> option.flag().length()).max().orElse(0);
    StringBuilder text = new StringBuilder();
    for (Map.Entry<Option<?>, String> line : shown.entrySet()) {
      Option<?> option = line.getKey();
      if (text.length() > 0) {
        text.append(System.lineSeparator());
      }
      text.append(String.format("%-" + width + "s = %s (%s)", option.flag(), line.getValue(), config.origin(option)));
    }
    return text.toString();
  }

  static String fields(SluiceConfig config) {
    StringJoiner fields = new StringJoiner(", ", "SluiceConfig{", "}");
    shown(config).forEach((option, value) -> fields.add(option.name() + "=" + value));
    return fields.toString();
  }

  /** Values as they may be shown, in table order; secrets are masked, unset values say so. */
  private static Map<Option<?>, String> shown(SluiceConfig config) {
    Map<Option<?>, String> shown = new LinkedHashMap<>();
    for (Option<?> option : Options.ALL) {
      if (config.isSetting(option)) {
        shown.put(option, display(config, option));
      }
    }
    return shown;
  }

  private static <T> String display(SluiceConfig config, Option<T> option) {
    T value = config.value(option);
    return value == null ? "(not set)" : option.display(value);
  }
}
