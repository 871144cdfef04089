package io.sluice.gateway.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * One row of the option table ({@link Options}): everything needed to read an option from each
 * source, validate it and document it. Naming rules, so that a row only states what varies:
 * <ul>
 *   <li>the flag is {@code --} + {@link #name()};</li>
 *   <li>the environment variable, when the option reads one, is {@code SLUICE_} + the name in
 *       upper case with {@code -} turned into {@code _} ({@code tcp-port} → {@code SLUICE_TCP_PORT});</li>
 *   <li>the YAML key is given per row (see {@link Options} for the key scheme).</li>
 * </ul>
 *
 * @param <T> the type of the option's value
 */
public final class Option<T> {

  /** What secret values are shown as, everywhere. */
  public static final String MASK = "****";

  private static final String ENVIRONMENT_PREFIX = "SLUICE_";

  private final String name;
  private final ValueType<T> type;
  private final String valueLabel;
  private final boolean isSwitch;
  private final String yamlKey;
  private final boolean readsEnvironment;
  private final List<EnvironmentAlias> aliases;
  private final Supplier<T> defaultValue;
  private final String defaultDescription;
  private final boolean secret;
  private final String description;
  private final String shortFlag;

  private Option(Builder<T> builder) {
    this.name = builder.name;
    this.type = builder.type;
    this.valueLabel = builder.valueLabel;
    this.isSwitch = builder.isSwitch;
    this.yamlKey = builder.yamlKey;
    this.readsEnvironment = builder.readsEnvironment;
    this.aliases = List.copyOf(builder.aliases);
    this.defaultValue = builder.defaultValue;
    this.defaultDescription = builder.defaultDescription;
    this.secret = builder.secret;
    this.shortFlag = builder.shortFlag;
    this.description = Objects.requireNonNull(builder.description, "every option needs a description: " + name);
  }

  /** Starts a row for an option that takes a value, shown as {@code valueLabel} in help. */
  static <T> Builder<T> valued(String name, String valueLabel, ValueType<T> type) {
    return new Builder<>(name, type, valueLabel, false);
  }

  /** Starts a row for a boolean flag that may stand alone ({@code --help} means {@code --help=true}). */
  static Builder<Boolean> switchNamed(String name) {
    return new Builder<>(name, ValueType.bool(), null, true).defaultValue(false);
  }

  /** The long name without dashes, e.g. {@code tcp-port}. */
  public String name() {
    return name;
  }

  /** The command-line spelling, e.g. {@code --tcp-port}. */
  public String flag() {
    return "--" + name;
  }

  /** A one-letter spelling such as {@code -h}, for the few options people type all the time. */
  public Optional<String> shortFlag() {
    return Optional.ofNullable(shortFlag);
  }

  public ValueType<T> type() {
    return type;
  }

  /** Placeholder for the value in help, e.g. {@code PORT}; empty for switches. */
  public String valueLabel() {
    return isSwitch ? "" : valueLabel;
  }

  /** A switch may be given without a value and then means {@code true}. */
  public boolean isSwitch() {
    return isSwitch;
  }

  /** The dotted YAML key, or empty when the option cannot be set in a config file. */
  public Optional<String> yamlKey() {
    return Optional.ofNullable(yamlKey);
  }

  /** The environment variable, or empty when the option cannot be set from the environment. */
  public Optional<String> environmentVariable() {
    return readsEnvironment
        ? Optional.of(ENVIRONMENT_PREFIX + name.toUpperCase(Locale.ROOT).replace('-', '_'))
        : Optional.empty();
  }

  /** Other programs' variables that set the option when its own is not set, first found first. */
  public List<EnvironmentAlias> environmentAliases() {
    return aliases;
  }

  /** The built-in value, or {@code null} when the option has none (it is then simply unset). */
  T defaultValue() {
    return defaultValue == null ? null : defaultValue.get();
  }

  /** The default as documentation shows it: stable across machines (no CPU counts). */
  public String defaultDescription() {
    if (defaultDescription != null) {
      return defaultDescription;
    }
    T value = defaultValue();
    return value == null ? "none" : type.format(value);
  }

  /** A secret's value never appears in messages, {@code toString} or descriptions. */
  public boolean isSecret() {
    return secret;
  }

  /** One line, for help and documentation. */
  public String description() {
    return description;
  }

  /** The value as it may be shown to people: formatted, or masked when secret. */
  public String display(T value) {
    return secret ? MASK : type.format(value);
  }

  /** Quotes raw input for an error message unless it is secret. */
  String quoteInput(String text) {
    return secret ? "(hidden)" : "'" + text + "'";
  }

  @Override
  public String toString() {
    return flag();
  }

  /** Fluent construction of a row, so that the table reads one option per statement. */
  static final class Builder<T> {
    private final String name;
    private final ValueType<T> type;
    private final String valueLabel;
    private final boolean isSwitch;
    private String yamlKey;
    private boolean readsEnvironment;
    private final List<EnvironmentAlias> aliases = new ArrayList<>();
    private Supplier<T> defaultValue;
    private String defaultDescription;
    private boolean secret;
    private String description;
    private String shortFlag;

    private Builder(String name, ValueType<T> type, String valueLabel, boolean isSwitch) {
      this.name = Objects.requireNonNull(name);
      this.type = Objects.requireNonNull(type);
      this.valueLabel = valueLabel;
      this.isSwitch = isSwitch;
    }

    /** Settable in the config file under this dotted key. */
    Builder<T> yaml(String key) {
      this.yamlKey = key;
      return this;
    }

    /** Settable through its {@code SLUICE_*} environment variable. */
    Builder<T> environment() {
      this.readsEnvironment = true;
      return this;
    }

    /** Also settable through another program's variable (envoyproxy/ratelimit's), weaker than its own. */
    Builder<T> alias(EnvironmentAlias alias) {
      this.aliases.add(alias);
      return this;
    }

    /** Also settable through another program's variable of this name. */
    Builder<T> alias(String variable) {
      return alias(EnvironmentAlias.named(variable));
    }

    Builder<T> defaultValue(T value) {
      Objects.requireNonNull(value);
      this.defaultValue = () -> value;
      return this;
    }

    /** A default computed at load time, documented by {@code description} instead of its value. */
    Builder<T> defaultValue(Supplier<T> value, String description) {
      this.defaultValue = Objects.requireNonNull(value);
      this.defaultDescription = Objects.requireNonNull(description);
      return this;
    }

    /** Also spelled {@code -letter}. */
    Builder<T> shortFlag(char letter) {
      this.shortFlag = "-" + letter;
      return this;
    }

    Builder<T> secret() {
      this.secret = true;
      return this;
    }

    Option<T> describedAs(String description) {
      this.description = description;
      return new Option<>(this);
    }
  }
}
