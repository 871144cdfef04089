package io.sluice.gateway.cli;

import io.sluice.protocol.binary.client.ThrottrClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code sluice cli}: a Throttr client for people, like redis-cli, that also checks, lists and resets
 * the HTTP check API's limits. One-shot
 * ({@code sluice cli [options] COMMAND ARGS…}) or, without a command, a prompt reading one command
 * per line. Exit status: 0, 1 when the server answered {@code 00} or denied a check, 2 for a usage
 * or connection error.
 */
public final class Cli {

  static final int OK = 0;
  static final int STATUS_00 = 1;
  static final int TROUBLE = 2;

  /** A reply that takes longer than this means the server is stuck or unreachable. */
  private static final long REPLY_SECONDS = 30;

  private final PrintStream out;
  private final PrintStream err;
  private final boolean json;

  private Cli(PrintStream out, PrintStream err, boolean json) {
    this.out = out;
    this.err = err;
    this.json = json;
  }

  public static int run(List<String> args, InputStream in, PrintStream out, PrintStream err) {
    return run(args, System.getenv(), in, out, err);
  }

  /** @param environment where the HTTP API's token is read from when {@code --token} is not given */
  public static int run(List<String> args, Map<String, String> environment, InputStream in, PrintStream out, PrintStream err) {
    CliSettings settings;
    try {
      settings = CliOptions.parse(args, environment);
    } catch (IllegalArgumentException usage) {
      err.println("sluice cli: " + usage.getMessage());
      return TROUBLE;
    }
    if (settings.help()) {
      out.print(help());
      return OK;
    }
    Vertx vertx = Vertx.vertx();
    try {
      Servers servers = new Servers(vertx, settings);
      Cli cli = new Cli(out, err, settings.json());
      return settings.command().isEmpty() ? cli.prompt(servers, in) : cli.execute(servers, settings.command());
    } finally {
      try {
        await(vertx.close());
      } catch (Exception notClosed) {
        err.println("sluice cli: closing the connections: " + message(notClosed));
      }
    }
  }

  /** One command: its exit status. */
  private int execute(Servers servers, List<String> words) {
    CliCommand command = CliCommand.named(words.get(0)).orElse(null);
    if (command == null) {
      err.println("sluice cli: unknown command '" + words.get(0) + "' (commands: " + String.join(", ", CliCommand.words()) + ")");
      return TROUBLE;
    }
    List<String> args = words.subList(1, words.size());
    try {
      if (command == CliCommand.SUBSCRIBE) {
        return subscribe(await(servers.throttr()), args);
      }
      Result result = await(command.run(servers, args));
      out.println(json ? result.json().encode() : result.text());
      return result.ok() ? OK : STATUS_00;
    } catch (IllegalArgumentException usage) {
      err.println("sluice cli: " + command.word() + ": " + usage.getMessage());
      return TROUBLE;
    } catch (Exception failed) {
      err.println("sluice cli: " + command.word() + " failed: " + message(failed));
      return TROUBLE;
    }
  }

  /** Prints the channel's messages until COUNT of them, or until the connection closes. */
  private int subscribe(ThrottrClient client, List<String> args) throws Exception {
    if (args.isEmpty() || args.size() > 2) {
      throw new IllegalArgumentException("usage: " + CliCommand.SUBSCRIBE.usage());
    }
    String channel = args.get(0);
    long count = args.size() == 2 ? CliCommand.number(args.get(1), "COUNT") : Long.MAX_VALUE;
    CountDownLatch done = new CountDownLatch(1);
    AtomicInteger received = new AtomicInteger();
    client.pushHandler(push -> {
      String pushedTo = new String(push.channel(), StandardCharsets.UTF_8);
      String message = new String(push.payload(), StandardCharsets.UTF_8);
      out.println(json ? new JsonObject().put("channel", pushedTo).put("message", message).encode() : pushedTo + ": " + message);
      out.flush();
      if (received.incrementAndGet() >= count) {
        done.countDown();
      }
    });
    client.closeHandler(closed -> done.countDown());
    if (!await(client.subscribe(channel))) {
      out.println(json ? new JsonObject().put("channel", channel).put("ok", false).put("status", "00").encode()
          : "(00) not subscribed to " + channel);
      return STATUS_00;
    }
    out.println(json ? new JsonObject().put("channel", channel).put("ok", true).put("subscribed", true).encode()
        : "subscribed to " + channel + (count == Long.MAX_VALUE ? " (Ctrl-C stops)" : ""));
    out.flush();
    done.await();
    return received.get() >= count ? OK : TROUBLE;
  }

  /** Reads commands, one a line, until end of input or "quit"; the status is the last command's. */
  private int prompt(Servers servers, InputStream in) {
    boolean interactive = System.console() != null;
    BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
    int status = OK;
    try {
      while (true) {
        if (interactive) {
          out.print("sluice> ");
          out.flush();
        }
        String line = reader.readLine();
        if (line == null) {
          return status;
        }
        List<String> words = words(line);
        if (words.isEmpty()) {
          continue;
        }
        if (words.get(0).equals("quit") || words.get(0).equals("exit")) {
          return status;
        }
        if (words.get(0).equals("help")) {
          out.print(help());
          continue;
        }
        status = execute(servers, words);
      }
    } catch (IOException unreadable) {
      err.println("sluice cli: cannot read the input: " + unreadable.getMessage());
      return TROUBLE;
    }
  }

  /** Splits on blanks; 'single' or "double" quotes keep blanks inside one word. */
  static List<String> words(String line) {
    List<String> words = new ArrayList<>();
    StringBuilder word = null;
    char quote = 0;
    for (char c : line.toCharArray()) {
      if (quote != 0) {
        if (c == quote) {
          quote = 0;
        } else {
          word.append(c);
        }
      } else if (c == '\'' || c == '"') {
        quote = c;
        word = word == null ? new StringBuilder() : word;
      } else if (Character.isWhitespace(c)) {
        if (word != null) {
          words.add(word.toString());
          word = null;
        }
      } else {
        word = word == null ? new StringBuilder() : word;
        word.append(c);
      }
    }
    if (word != null) {
      words.add(word.toString());
    }
    return words;
  }

  /** The command words, for the bash completion. */
  public static List<String> commandWords() {
    return CliCommand.words();
  }

  static String help() {
    StringBuilder text = new StringBuilder()
        .append("Usage: sluice cli [options] [COMMAND ARGS...]\n")
        .append("A client for people: Throttr commands on the Throttr port; check, policies and reset on the HTTP\n")
        .append("port. Without a command it reads commands from the input, one a line (help, quit).\n")
        .append("A TTL is in seconds unless a unit follows: ns, us, ms, s, m, h (500ms, 5m).\n")
        .append("Exit status: 0; 1 when the server answered 00 or denied a check; 2 for a usage error, an HTTP\n")
        .append("error status or a server that cannot be reached.\n\n")
        .append("Options:\n");
    for (CliOptions.Row row : CliOptions.ALL) {
      String usage = row.takesValue() ? row.flag() + " " + row.valueLabel() : row.flag();
      text.append(String.format("  %-20s %s%n", usage, row.description()));
    }
    text.append("\nCommands:\n");
    for (CliCommand command : CliCommand.values()) {
      text.append(String.format("  %-50s %s%n", command.usage(), command.description()));
    }
    return text.toString();
  }

  private static <T> T await(Future<T> future) throws Exception {
    try {
      return future.toCompletionStage().toCompletableFuture().get(REPLY_SECONDS, TimeUnit.SECONDS);
    } catch (ExecutionException failed) {
      throw failed.getCause() instanceof Exception cause ? cause : failed;
    } catch (TimeoutException slow) {
      throw new TimeoutException("no reply within " + REPLY_SECONDS + " s");
    }
  }

  /** The innermost cause's message: what went wrong, without the layers that passed it on. */
  static String message(Throwable failure) {
    Throwable root = failure;
    while (root.getCause() != null) {
      root = root.getCause();
    }
    return root.getMessage() == null ? root.toString() : root.getMessage();
  }
}
