package io.sluice.gateway.process;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Sluice (or any) process started by a test, its stdout and stderr merged and collected line by
 * line, so that a test waits for the line it expects (bounded) instead of sleeping.
 */
public final class ChildProcess implements AutoCloseable {

  private static final Duration WAIT = Duration.ofSeconds(60);

  private final Process process;
  private final List<String> lines = new ArrayList<>();
  private boolean ended;

  private ChildProcess(Process process) {
    this.process = process;
    Thread reader = new Thread(this::collect, "child-output-" + process.pid());
    reader.setDaemon(true);
    reader.start();
  }

  public static ChildProcess start(List<String> command, Map<String, String> environment, Path directory)
      throws IOException {
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).directory(directory.toFile());
    builder.environment().putAll(environment);
    return new ChildProcess(builder.start());
  }

  /**
   * {@code java -cp <this test's classpath> io.sluice.gateway.Main args…}: the gateway as its own
   * process (signals, exit codes, stdout and stderr are real) without needing the packaged jar.
   */
  public static List<String> gatewayCommand(String... args) {
    return gatewayCommand(List.of(), args);
  }

  /** The same with JVM options ({@code -Xmx…}, {@code -Dhazelcast.…}) before the main class. */
  public static List<String> gatewayCommand(List<String> jvmOptions, String... args) {
    // env resets SIGHUP, which a test run under nohup would pass on ignored, and the JVM would then
    // never reload on it; env execs the JVM, so the child's pid stays the JVM's.
    List<String> command = new ArrayList<>(List.of("env", "--default-signal=HUP",
        ProcessHandle.current().info().command().orElse("java"), "-XX:TieredStopAtLevel=1"));
    command.addAll(jvmOptions);
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), "io.sluice.gateway.Main"));
    command.addAll(List.of(args));
    return command;
  }

  /**
   * {@code java -jar jar args…} with the Java running this test: a packaged jar as its user runs it,
   * in a JVM that starts fast (C1 only), as {@link #gatewayCommand} does.
   */
  public static List<String> javaJarCommand(Path jar, String... args) {
    List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
        "-XX:TieredStopAtLevel=1", "-jar", jar.toString()));
    command.addAll(List.of(args));
    return command;
  }

  /** The command run to its end (within a minute): its exit status and every line it printed. */
  public static Finished run(List<String> command, Map<String, String> environment, Path directory)
      throws IOException, InterruptedException {
    return run(command, environment, directory, WAIT);
  }

  /** The command run to its end, for one that takes longer than a minute (a cluster's start). */
  public static Finished run(List<String> command, Map<String, String> environment, Path directory, Duration within)
      throws IOException, InterruptedException {
    try (ChildProcess child = start(command, environment, directory)) {
      int status = child.awaitExit(within);
      return new Finished(status, child.output());
    }
  }

  /** A finished command. */
  public record Finished(int status, String output) {
  }

  private void collect() {
    try (BufferedReader reader = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = reader.readLine()) != null) {
        synchronized (lines) {
          lines.add(line);
          lines.notifyAll();
        }
      }
    } catch (IOException closed) {
      // the process went away; what was read is kept
    } finally {
      synchronized (lines) {
        ended = true;
        lines.notifyAll();
      }
    }
  }

  public long pid() {
    return process.pid();
  }

  public Process process() {
    return process;
  }

  /** Waits (at most a minute) for the first line, from {@code fromLine} on, matching {@code pattern}. */
  public Matcher awaitLine(Pattern pattern, int fromLine) throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    synchronized (lines) {
      int next = fromLine;
      while (true) {
        for (; next < lines.size(); next++) {
          Matcher matcher = pattern.matcher(lines.get(next));
          if (matcher.find()) {
            return matcher;
          }
        }
        long left = deadline - System.nanoTime();
        if (ended || left <= 0) {
          throw new AssertionError("no line matching " + pattern + (ended ? " before the process ended" : " within " + WAIT)
              + "; it printed:\n" + String.join("\n", lines));
        }
        TimeUnit.NANOSECONDS.timedWait(lines, left);
      }
    }
  }

  public Matcher awaitLine(Pattern pattern) throws InterruptedException {
    return awaitLine(pattern, 0);
  }

  /** Lines printed so far, a mark for {@link #awaitLine(Pattern, int)}. */
  public int lineCount() {
    synchronized (lines) {
      return lines.size();
    }
  }

  /** The lines printed from the mark {@code fromLine} on (see {@link #lineCount()}). */
  public List<String> linesFrom(int fromLine) {
    synchronized (lines) {
      return List.copyOf(lines.subList(fromLine, lines.size()));
    }
  }

  public String output() {
    synchronized (lines) {
      return String.join("\n", lines);
    }
  }

  /**
   * Whether {@code line} is Vert.x's blocked-thread warning. It times an event loop's task by the wall
   * clock, so on a loaded machine (CI's two cores shared with the build) it says the task waited for
   * a core, not that the process has something to warn of: tests that hold a log to no warning skip it.
   */
  public static boolean blockedThreadWarning(String line) {
    return line.contains("io.vertx.core.impl.BlockedThreadChecker");
  }

  /** Sends a signal by name (HUP, TERM) with kill(1), as an operator or a service manager would. */
  public void signal(String name) throws IOException, InterruptedException {
    Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).inheritIO().start();
    if (kill.waitFor() != 0) {
      throw new IOException("kill -" + name + " " + process.pid() + " failed");
    }
  }

  /** Waits (at most a minute) for the process to end, and for its output to be read to the end. */
  public int awaitExit() throws InterruptedException {
    return awaitExit(WAIT);
  }

  private int awaitExit(Duration within) throws InterruptedException {
    if (!process.waitFor(within.toMillis(), TimeUnit.MILLISECONDS)) {
      throw new AssertionError("the process did not end within " + within + "; it printed:\n" + output());
    }
    long deadline = System.nanoTime() + WAIT.toNanos();
    synchronized (lines) {
      while (!ended && deadline - System.nanoTime() > 0) {
        TimeUnit.NANOSECONDS.timedWait(lines, deadline - System.nanoTime());
      }
    }
    return process.exitValue();
  }

  /** SIGTERM, then SIGKILL if it does not stop within a minute. */
  @Override
  public void close() throws InterruptedException {
    if (process.isAlive()) {
      process.destroy();
      if (!process.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor();
      }
    }
  }
}
