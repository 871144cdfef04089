package io.sluice.gateway.config;

import io.sluice.protocol.binary.codec.ValueSize;
import io.sluice.verticles.strategies.policy.Policies;
import io.sluice.verticles.strategies.policy.Policy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Turns the command line, the environment and the optional YAML file into an {@link Invocation}.
 *
 * <p>Precedence, lowest first: built-in default, YAML file, environment variable, command-line
 * flag. Every value found is validated, including values a higher source overrides: a broken
 * file stays broken even while a flag hides the mistake. All problems are collected and thrown
 * together as one {@link ConfigException}.
 *
 * <p>Command-line syntax: {@code --name value} or {@code --name=value}; a switch such as
 * {@code --help} stands alone or takes {@code true}/{@code false} the same two ways. A repeated
 * flag's last occurrence wins. An environment variable set to the empty string counts as unset
 * (so {@code SLUICE_AUTH_TOKEN=} in a compose file means "no token"), as does a YAML key with an
 * empty value ({@code ~} or nothing).
 *
 * <p>The environment is passed in rather than read from {@link System#getenv()}, so that tests
 * are deterministic and Main decides what the process environment is.
 */
public final class ConfigLoader {

  /** Text for one option from one source, before parsing; {@code origin} is for messages. */
  record RawValue(String text, String origin) {
  }

  private static final String COMMAND_LINE = "command line";
  private static final String DEFAULT = "default";

  private final List<String> problems = new ArrayList<>();
  /** The problems of the policies alone: a reload refuses the policies for them, and nothing else. */
  private final List<String> policyProblems = new ArrayList<>();

  private ConfigLoader() {
  }

  /**
   * @param args        the process arguments, without a leading {@code bench} (Main dispatches
   *                    that to the bench tool before calling this)
   * @param environment the process environment, normally {@code System.getenv()}
   * @throws ConfigException naming every bad flag, variable, file or value and where it came from
   */
  public static Invocation load(List<String> args, Map<String, String> environment) throws ConfigException {
    ConfigLoader loader = new ConfigLoader();
    Invocation invocation = loader.resolve(args, environment);
    if (!loader.policyProblems.isEmpty()) {
      throw new ConfigException(loader.policyProblems);
    }
    return invocation;
  }

  /**
   * The configuration of a running server read again (SIGHUP): like {@link #load}, except that
   * problems in the policies alone leave the rest usable, so that they refuse the policies only.
   *
   * @throws ConfigException when anything besides the policies is wrong
   */
  public static Reread reread(List<String> args, Map<String, String> environment) throws ConfigException {
    ConfigLoader loader = new ConfigLoader();
    Invocation invocation = loader.resolve(args, environment);
    if (!(invocation instanceof Invocation.Run run)) {
      throw new ConfigException("the command line no longer asks to run Sluice");
    }
    return new Reread(run.config(), loader.policyProblems);
  }

  private Invocation resolve(List<String> args, Map<String, String> environment) throws ConfigException {
    Map<Option<?>, RawValue> fromCommandLine = readCommandLine(args);
    throwIfProblems();
    if (switchIsOn(Options.HELP, fromCommandLine)) {
      return new Invocation.ShowHelp(OptionDocs.helpText());
    }
    if (switchIsOn(Options.VERSION, fromCommandLine)) {
      return new Invocation.ShowVersion();
    }
    throwIfProblems();

    Map<Option<?>, RawValue> fromEnvironment = readEnvironment(environment);
    UpstreamConfigType.problem(environment).ifPresent(problems::add);
    Map<Option<?>, SluiceConfig.Setting> settings = new LinkedHashMap<>();
    // The file's location comes first, because the file is itself a source for everything else.
    SluiceConfig.Setting configFile = resolveOne(Options.CONFIG, List.of(fromEnvironment, fromCommandLine));
    settings.put(Options.CONFIG, configFile);
    YamlConfigFile.Contents file = configFile.value() == null
        ? new YamlConfigFile.Contents(Map.of(), Policies.none())
        : YamlConfigFile.read((Path) configFile.value(), configFile.origin(), problems, policyProblems);
    Map<Option<?>, RawValue> fromFile = file.options();

    List<Map<Option<?>, RawValue>> lowestPrecedenceFirst = List.of(fromFile, fromEnvironment, fromCommandLine);
    for (Option<?> option : Options.ALL) {
      if (option != Options.CONFIG && !Options.isAction(option)) {
        settings.put(option, resolveOne(option, lowestPrecedenceFirst));
      }
    }
    throwIfProblems();
    checkCombinations(settings);
    checkPolicyStates(settings.get(Options.VALUE_SIZE), file.policies());
    throwIfProblems();
    SluiceConfig config = new SluiceConfig(settings, file.policies());
    return switchIsOn(Options.CHECK_CONFIG, fromCommandLine) ? new Invocation.CheckConfig(config) : new Invocation.Run(config);
  }

  private Map<Option<?>, RawValue> readCommandLine(List<String> args) {
    Map<Option<?>, RawValue> found = new HashMap<>();
    for (int i = 0; i < args.size(); i++) {
      String argument = args.get(i);
      Optional<Option<?>> spelledShort = Options.byShortFlag(argument);
      if (spelledShort.isPresent()) {
        argument = spelledShort.get().flag();
      }
      if (!argument.startsWith("--") || argument.equals("--")) {
        problems.add(unexpectedArgument(argument));
        continue;
      }
      int equals = argument.indexOf('=');
      String name = equals < 0 ? argument.substring(2) : argument.substring(2, equals);
      Optional<Option<?>> option = Options.byName(name);
      if (option.isEmpty()) {
        problems.add("unknown option --" + name + " on the " + COMMAND_LINE + suggestFlag(name)
            + " (--help lists every option)");
        boolean probablyItsValue = equals < 0 && i + 1 < args.size() && !args.get(i + 1).startsWith("-");
        if (probablyItsValue) {
          i++; // one mistake, one message: "--tcp-prot 1" should not also report a stray "1"
        }
        continue;
      }
      String value;
      if (equals >= 0) {
        value = argument.substring(equals + 1);
      } else if (option.get().isSwitch()) {
        // "--help true" is accepted for symmetry with valued flags, but only a boolean literal
        // is taken as the switch's value, so "--help --version" still means two switches.
        boolean valueFollows = i + 1 < args.size() && ValueType.isBooleanLiteral(args.get(i + 1));
        value = valueFollows ? args.get(++i) : "true";
      } else if (i + 1 < args.size() && !args.get(i + 1).startsWith("--")) {
        value = args.get(++i);
      } else {
        // A following "--flag" is taken as a forgotten value, not as the value itself;
        // "--name=--odd" is the way to pass such a value on purpose.
        problems.add(option.get().flag() + " on the " + COMMAND_LINE + " needs a value: "
            + option.get().flag() + " " + option.get().valueLabel() + " or "
            + option.get().flag() + "=" + option.get().valueLabel());
        continue;
      }
      found.put(option.get(), new RawValue(value, COMMAND_LINE));
    }
    return found;
  }

  private static String unexpectedArgument(String argument) {
    if (argument.equals("bench")) {
      return "unexpected argument 'bench' on the " + COMMAND_LINE
          + ": the bench tool is started with 'bench' as the first argument";
    }
    if (argument.startsWith("-") && argument.length() > 1) {
      return "unknown option " + argument + " on the " + COMMAND_LINE
          + ": options are spelled with two dashes (--help lists every option)";
    }
    return "unexpected argument '" + argument + "' on the " + COMMAND_LINE
        + ": options are given as --name value or --name=value";
  }

  private static String suggestFlag(String name) {
    List<String> names = Options.ALL.stream().map(Option::name).collect(Collectors.toList());
    return Spelling.closest(name, names).map(closest -> "; did you mean --" + closest + "?").orElse("");
  }

  private static Map<Option<?>, RawValue> readEnvironment(Map<String, String> environment) {
    Map<Option<?>, RawValue> found = new HashMap<>();
    for (Option<?> option : Options.ALL) {
      option.environmentVariable().ifPresent(variable -> {
        String value = environment.get(variable);
        if (value != null && !value.isEmpty()) {
          found.put(option, new RawValue(value, "environment variable " + variable));
          return;
        }
        for (EnvironmentAlias alias : option.environmentAliases()) {
          String aliased = alias.read().apply(environment);
          if (aliased != null && !aliased.isEmpty()) {
            found.put(option, new RawValue(aliased, "environment variable " + alias.variable()
                + " (envoyproxy/ratelimit's name for " + option.flag() + ")"));
            return;
          }
        }
      });
    }
    return found;
  }

  private boolean switchIsOn(Option<Boolean> option, Map<Option<?>, RawValue> fromCommandLine) {
    RawValue raw = fromCommandLine.get(option);
    if (raw == null) {
      return false;
    }
    Boolean on = parse(option, raw);
    return on != null && on;
  }

  /**
   * The value from the highest-precedence source that has one, else the default. Every source's
   * value is parsed, so that overridden mistakes are reported too.
   */
  private <T> SluiceConfig.Setting resolveOne(Option<T> option, List<Map<Option<?>, RawValue>> lowestPrecedenceFirst) {
    SluiceConfig.Setting chosen = new SluiceConfig.Setting(option.defaultValue(), DEFAULT);
    for (Map<Option<?>, RawValue> source : lowestPrecedenceFirst) {
      RawValue raw = source.get(option);
      if (raw != null) {
        T value = parse(option, raw);
        if (value != null) {
          chosen = new SluiceConfig.Setting(value, raw.origin());
        }
      }
    }
    return chosen;
  }

  /** The parsed value, or {@code null} after recording why it is invalid. */
  private <T> T parse(Option<T> option, RawValue raw) {
    try {
      return option.type().parse(raw.text());
    } catch (IllegalArgumentException invalid) {
      problems.add(option.flag() + ": invalid value " + option.quoteInput(raw.text()) + " from "
          + raw.origin() + ": " + invalid.getMessage());
      return null;
    }
  }

  /** The cluster's certificates come three together, or a secret file instead. */
  private void checkClusterCredentials(Map<Option<?>, SluiceConfig.Setting> settings) {
    List<Option<?>> pki = List.of(ClusterOptions.CLUSTER_TLS_CERT, ClusterOptions.CLUSTER_TLS_KEY, ClusterOptions.CLUSTER_TLS_CA);
    List<Option<?>> missing = pki.stream().filter(option -> settings.get(option).value() == null).toList();
    if (!missing.isEmpty() && missing.size() < pki.size()) {
      problems.add(ClusterOptions.CLUSTER_TLS_CERT.flag() + ", " + ClusterOptions.CLUSTER_TLS_KEY.flag() + " and "
          + ClusterOptions.CLUSTER_TLS_CA.flag() + " go together: " + missing.stream().map(Option::flag)
          .collect(java.util.stream.Collectors.joining(" and ")) + (missing.size() == 1 ? " is" : " are") + " missing");
    }
    if (missing.size() < pki.size() && settings.get(ClusterOptions.CLUSTER_SECRET_FILE).value() != null) {
      problems.add(ClusterOptions.CLUSTER_SECRET_FILE.flag() + " and " + ClusterOptions.CLUSTER_TLS_CERT.flag()
          + " both admit members: keep one");
    }
  }

  /** Rules that involve more than one option, checked once each option is valid on its own. */
  private void checkCombinations(Map<Option<?>, SluiceConfig.Setting> settings) {
    boolean certificate = settings.get(Options.TLS_CERT).value() != null;
    boolean key = settings.get(Options.TLS_KEY).value() != null;
    if (certificate != key) {
      problems.add(Options.TLS_CERT.flag() + " and " + Options.TLS_KEY.flag() + " go together: "
          + (certificate ? Options.TLS_KEY : Options.TLS_CERT).flag() + " is missing");
    }
    if (settings.get(Options.AUTH_TOKEN).value() != null && settings.get(Options.AUTH_TOKEN_FILE).value() != null) {
      problems.add(Options.AUTH_TOKEN.flag() + " and " + Options.AUTH_TOKEN_FILE.flag() + " both give the token: keep one");
    }
    if (settings.get(Options.TLS_CLIENT_CA).value() != null && !certificate) {
      problems.add(Options.TLS_CLIENT_CA.flag() + " needs TLS: set " + Options.TLS_CERT.flag() + " and "
          + Options.TLS_KEY.flag() + " too");
    }
    checkClusterCredentials(settings);
    // TCP and HTTP listeners share the TCP port space on the same bind address; UDP does not.
    SluiceConfig.Setting tcp = settings.get(Options.TCP_PORT);
    SluiceConfig.Setting http = settings.get(Options.HTTP_PORT);
    if (tcp.value().equals(http.value()) && !tcp.value().equals(0)) {
      problems.add(Options.TCP_PORT.flag() + " (" + tcp.origin() + ") and " + Options.HTTP_PORT.flag()
          + " (" + http.origin() + ") are both " + tcp.value()
          + ": the Throttr and HTTP listeners need different TCP ports");
    }
  }

  /**
   * A policy whose states a Throttr GET could not return is refused: a GET announces a value's
   * length in value-size bytes, and answers {@code 00} for a longer one.
   */
  private void checkPolicyStates(SluiceConfig.Setting valueSize, Policies policies) {
    ValueSize size = (ValueSize) valueSize.value();
    for (Policy policy : policies.all()) {
      if (!size.fits(policy.strategy().maxStateLength())) {
        policyProblems.add("policy '" + policy.name() + "' keeps states of up to " + policy.strategy().maxStateLength()
            + " bytes, more than " + Options.VALUE_SIZE.flag() + " " + size.label() + " (" + valueSize.origin()
            + ") lets a value have (" + size.max() + "): use a wider value size, or fewer or shorter quota names");
      }
    }
  }

  /** Every problem found so far, the policies' too, once anything besides the policies is wrong. */
  private void throwIfProblems() throws ConfigException {
    if (!problems.isEmpty()) {
      List<String> all = new ArrayList<>(problems);
      all.addAll(policyProblems);
      throw new ConfigException(all);
    }
  }

}
