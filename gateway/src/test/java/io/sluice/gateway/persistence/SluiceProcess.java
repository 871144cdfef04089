package io.sluice.gateway.persistence;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Sluice in a child JVM, as {@code java -jar sluice.jar} runs it, so a test can stop it with SIGTERM
 * or kill it with kill -9 and start it again on the same data directory.
 */
final class SluiceProcess implements AutoCloseable {

  private static final Pattern SERVING = Pattern.compile(
      "serving Throttr on tcp://[^ ]+:(\\d+), UDP on udp://[^ ]+:(\\d+), HTTP on http://[^ ]+:(\\d+) \\(");
  private static final String END = "\u0000end of output";

  private final Process process;
  private final List<String> output = new ArrayList<>();
  private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
  private int tcpPort;
  private int udpPort;
  private int httpPort;

  private SluiceProcess(List<String> arguments) throws IOException {
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx512m", "-cp", System.getProperty("java.class.path"), "io.sluice.gateway.Main",
        "--tcp-port", "0", "--udp-port", "0", "--http-port", "0", "--grpc-port", "0"));
    command.addAll(arguments);
    process = new ProcessBuilder(command).redirectErrorStream(true).start();
    Thread reader = new Thread(this::read, "sluice-child-output");
    reader.setDaemon(true);
    reader.start();
  }

  /** Starts Sluice and waits until it serves. */
  static SluiceProcess start(String... arguments) throws Exception {
    SluiceProcess sluice = new SluiceProcess(List.of(arguments));
    Matcher serving;
    try {
      serving = SERVING.matcher(sluice.awaitLine(SERVING.pattern()));
    } catch (AssertionError | InterruptedException e) {
      sluice.close(); // never left running behind a failed test
      throw e;
    }
    if (!serving.find()) {
      throw new AssertionError("no start line");
    }
    sluice.tcpPort = Integer.parseInt(serving.group(1));
    sluice.udpPort = Integer.parseInt(serving.group(2));
    sluice.httpPort = Integer.parseInt(serving.group(3));
    return sluice;
  }

  /** Runs Sluice expecting it to refuse to start; answers its exit code and output. */
  static Refused refusal(String... arguments) throws Exception {
    SluiceProcess sluice = new SluiceProcess(List.of(arguments));
    if (!sluice.process.waitFor(60, TimeUnit.SECONDS)) {
      sluice.process.destroyForcibly();
      throw new AssertionError("Sluice neither started nor exited: " + sluice.output());
    }
    sluice.awaitLine(END);
    return new Refused(sluice.process.exitValue(), sluice.output());
  }

  record Refused(int exitCode, String output) {
  }

  int tcpPort() {
    return tcpPort;
  }

  int udpPort() {
    return udpPort;
  }

  int httpPort() {
    return httpPort;
  }

  /**
   * How many of its live threads have a name beginning with {@code prefix}, as Linux shows them in
   * {@code /proc/PID/task/TID/comm}: the first 15 characters of a Java thread's name.
   */
  long threadsNamed(String prefix) throws IOException {
    String shown = prefix.substring(0, Math.min(15, prefix.length()));
    try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(process.pid()), "task"))) {
      return tasks.filter(task -> threadName(task).startsWith(shown)).count();
    }
  }

  private static String threadName(Path task) {
    try {
      return Files.readString(task.resolve("comm"), StandardCharsets.UTF_8).strip();
    } catch (IOException e) {
      return ""; // the thread ended since the listing
    }
  }

  /** SIGTERM, then waits for the exit. */
  int stop() throws Exception {
    process.destroy();
    return awaitExit();
  }

  /** kill -9: no shutdown hook runs. */
  void kill() throws Exception {
    process.destroyForcibly();
    awaitExit();
  }

  private int awaitExit() throws Exception {
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("Sluice did not exit: " + output());
    }
    awaitLine(END);
    return process.exitValue();
  }

  synchronized String output() {
    return String.join("\n", output);
  }

  /** The first line, from the last one waited for on, that matches {@code regex}; fails after 120 s (a loaded machine). */
  String awaitLine(String regex) throws InterruptedException {
    Pattern pattern = Pattern.compile(regex);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (System.nanoTime() < deadline) {
      String line = lines.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
      if (line == null) {
        break;
      }
      if (line.equals(END) && !regex.equals(END)) {
        throw new AssertionError("Sluice exited before printing /" + regex + "/: " + output());
      }
      if (pattern.matcher(line).find()) {
        return line;
      }
    }
    throw new AssertionError("no line /" + regex + "/ within 120 s: " + output());
  }

  private void read() {
    try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = in.readLine()) != null) {
        synchronized (this) {
          output.add(line);
        }
        lines.add(line);
      }
    } catch (IOException ignored) {
      // the process is gone
    }
    lines.add(END);
  }

  @Override
  public void close() {
    process.destroyForcibly();
  }
}
