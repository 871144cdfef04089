package io.sluice.gateway.config;

/**
 * Documentation generated from the option table, so that {@code --help}, the README and the code
 * cannot disagree about a flag, variable, key or default.
 */
public final class OptionDocs {

  private static final String NEWLINE = System.lineSeparator();
  private static final String NOT_APPLICABLE = "-";

  private OptionDocs() {
  }

  /** The {@code --help} text. Plain ASCII, so it reads the same in every terminal. */
  public static String helpText() {
    StringBuilder text = new StringBuilder()
        .append("Sluice: rate-limit gateway (Throttr binary protocol, UDP text protocol, HTTP check API)").append(NEWLINE)
        .append(NEWLINE)
        .append("Usage:").append(NEWLINE)
        .append("  java -jar sluice.jar [options]          run the gateway").append(NEWLINE)
        .append("  java -jar sluice.jar bench [options]    run the load generator (bench --help lists its options)").append(NEWLINE)
        .append("  java -jar sluice.jar cli [options] [COMMAND ARGS...]   a Throttr client for people (cli --help)").append(NEWLINE)
        .append("  java -jar sluice.jar completion bash    print a bash completion script").append(NEWLINE)
        .append(NEWLINE)
        .append("Each option can also be set by its environment variable, or by its key in the YAML file").append(NEWLINE)
        .append("named by --config. Precedence: command line > environment > config file > default.").append(NEWLINE)
        .append("Write values as --name value or --name=value; the last of a repeated flag wins.").append(NEWLINE)
        .append(NEWLINE)
        .append("Options:").append(NEWLINE);
    for (Option<?> option : Options.ALL) {
      text.append("  ").append(usage(option)).append(NEWLINE)
          .append("      ").append(option.description()).append(NEWLINE);
      if (!Options.isAction(option)) {
        text.append("      ").append(sourcesAndDefault(option)).append(NEWLINE);
      }
    }
    return text.toString();
  }

  /**
   * A GitHub-flavoured Markdown table of every option: flag, environment variable, YAML key,
   * default, accepted values and description. Cells without meaning for an option hold "-".
   */
  public static String markdownTable() {
    StringBuilder table = new StringBuilder()
        .append("| Flag | Environment variable | YAML key | Default | Accepted values | Description |").append(NEWLINE)
        .append("|------|----------------------|----------|---------|-----------------|-------------|").append(NEWLINE);
    for (Option<?> option : Options.ALL) {
      boolean action = Options.isAction(option);
      table.append("| ").append(cell(code(usage(option))))
          .append(" | ").append(cell(option.environmentVariable().map(OptionDocs::code).orElse(NOT_APPLICABLE)
              + aliases(option, alias -> ", " + code(alias))))
          .append(" | ").append(cell(option.yamlKey().map(OptionDocs::code).orElse(NOT_APPLICABLE)))
          .append(" | ").append(cell(action ? NOT_APPLICABLE : option.defaultDescription()))
          .append(" | ").append(cell(action ? NOT_APPLICABLE : option.type().constraint()))
          .append(" | ").append(cell(option.description()))
          .append(" |").append(NEWLINE);
    }
    return table.toString();
  }

  private static String usage(Option<?> option) {
    String flags = option.shortFlag().map(letter -> letter + ", ").orElse("") + option.flag();
    return option.isSwitch() ? flags : flags + " " + option.valueLabel();
  }

  private static String sourcesAndDefault(Option<?> option) {
    return "env " + option.environmentVariable().orElse(NOT_APPLICABLE) + aliases(option, alias -> " or " + alias)
        + "   yaml " + option.yamlKey().orElse(NOT_APPLICABLE)
        + "   default " + option.defaultDescription()
        + "   accepts " + option.type().constraint();
  }

  /** The option's aliases (envoyproxy/ratelimit's variables), each as {@code spelled} spells it. */
  private static String aliases(Option<?> option, java.util.function.Function<String, String> spelled) {
    return option.environmentAliases().stream().map(alias -> spelled.apply(alias.spelling()))
        .collect(java.util.stream.Collectors.joining());
  }

  private static String code(String text) {
    return "`" + text + "`";
  }

  /** Pipes would end the cell early. */
  private static String cell(String text) {
    return text.replace("|", "\\|");
  }
}
