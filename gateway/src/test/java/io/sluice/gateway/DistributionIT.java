package io.sluice.gateway;

import io.sluice.gateway.process.ChildProcess;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The archive `mvn package` builds, as an operator uses it: unpacked, bin/sluice run with the Java
 * it finds, conf/jvm.options on the JVM's command line, a server answering on real sockets.
 */
@EnabledIfSystemProperty(named = "sluice.distribution", matches = ".+",
    disabledReason = "runs in the distribution-tests execution, after package built the archive")
class DistributionIT {

  /** Where the build put the archive: set by the surefire execution that runs after `package`. */
  private static final Path ARCHIVE = Path.of(System.getProperty("sluice.distribution", "unset"));

  @TempDir
  static Path unpacked;

  private static Path home;

  @BeforeAll
  static void unpack() throws Exception {
    assertThat(ARCHIVE).as("the archive mvn package builds").isRegularFile();
    ChildProcess.Finished tar = ChildProcess.run(List.of("tar", "xzf", ARCHIVE.toAbsolutePath().toString()), Map.of(), unpacked);
    assertThat(tar.status()).as(tar.output()).isZero();
    try (var entries = Files.list(unpacked)) {
      home = entries.collect(Collectors.toList()).get(0);
    }
    assertThat(home.getFileName().toString()).matches("sluice-.+");
  }

  @Test
  void holdsTheLauncherConfigurationLibrariesAndLicense() throws IOException {
    assertThat(Files.getPosixFilePermissions(home.resolve("bin/sluice"))).contains(PosixFilePermission.OWNER_EXECUTE);
    assertThat(home.resolve("conf/jvm.options")).isRegularFile();
    assertThat(home.resolve("conf/sluice.yaml")).hasSameTextualContentAs(Path.of("..", "deploy", "sluice.yaml"));
    assertThat(home.resolve("lib/sluice.jar")).isRegularFile();
    assertThat(home.resolve("lib/sluice-bench.jar")).isRegularFile();
    assertThat(Files.readString(home.resolve("LICENSE"))).contains("Apache License");
    assertThat(Files.readString(home.resolve("bin/sluice"))).startsWith("#!/bin/sh\n").contains("exec \"$java\"");
  }

  /**
   * Every file the shipped configuration and deployment kit name by a path ({@code
   * deploy/rules/musicbrainz.yaml}, {@code docs/envoy.md}, {@code deploy/cluster/k8s/}) is in the
   * archive at that path, and the example policies and the MusicBrainz rules load.
   */
  @Test
  void shipsEveryFileItsConfigurationNames() throws Exception {
    // A file (with its extension) or a folder (with its slash): "kubectl exec deploy/sluice" names neither.
    Pattern named = Pattern.compile("\\b(?:deploy|docs)/[A-Za-z0-9_./-]*(?:\\.[a-z]+\\b|/)");
    List<String> missing = new ArrayList<>();
    int checked = 0;
    List<Path> shipped;
    try (var files = Files.walk(home)) {
      shipped = files.filter(Files::isRegularFile)
          .filter(file -> file.startsWith(home.resolve("conf")) || file.startsWith(home.resolve("deploy"))).toList();
    }
    for (Path file : shipped) {
      Matcher path = named.matcher(Files.readString(file));
      while (path.find()) {
        checked++;
        if (!Files.exists(home.resolve(path.group()))) {
          missing.add(home.relativize(file) + " names " + path.group());
        }
      }
    }
    assertThat(missing).as("paths the shipped files name that the archive lacks").isEmpty();
    assertThat(checked).as("conf/sluice.yaml names the rules, the examples and docs at least").isGreaterThan(10);
    assertThat(home.resolve("deploy/nginx/sluice-auth.conf")).isRegularFile();

    ChildProcess.Finished check = ChildProcess.run(List.of("bin/sluice", "--check-config", "--config", "deploy/examples/sluice.yaml",
        "--rules", "deploy/rules/musicbrainz.yaml"), Map.of(), home);
    assertThat(check.status()).as(check.output()).isZero();
  }

  /**
   * Granted in the manifest, so that `java -jar` gets them as bin/sluice does: on JDK 24+ each
   * missing one is a start-up warning (Netty's native library; Hazelcast's "Java modular
   * environment" WARN on every cluster node).
   */
  @Test
  void itsJarGrantsNativeAccessAndWhatHazelcastAsksFor() throws IOException {
    try (JarFile jar = new JarFile(home.resolve("lib/sluice.jar").toFile())) {
      Attributes manifest = jar.getManifest().getMainAttributes();
      assertThat(manifest.getValue("Enable-Native-Access")).isEqualTo("ALL-UNNAMED");
      assertThat(manifest.getValue("Add-Opens").split(" ")).contains("java.base/java.lang", "java.base/sun.nio.ch",
          "java.management/sun.management", "jdk.management/com.sun.management.internal");
      assertThat(manifest.getValue("Add-Exports")).isEqualTo("java.base/jdk.internal.ref");
    }
  }

  /** The load generator is its own jar: lib/sluice.jar carries none of it, and bin/sluice bench runs lib/sluice-bench.jar. */
  @Test
  void runsTheLoadGeneratorFromItsOwnJar() throws Exception {
    try (JarFile jar = new JarFile(home.resolve("lib/sluice.jar").toFile())) {
      assertThat(jar.stream().map(java.util.jar.JarEntry::getName).filter(name -> name.startsWith("io/sluice/verticles/benchmarks/")))
          .as("the bench tool's classes in sluice.jar").isEmpty();
      assertThat(jar.getEntry("io/sluice/gateway/Main.class")).isNotNull();
    }
    try (JarFile jar = new JarFile(home.resolve("lib/sluice-bench.jar").toFile())) {
      assertThat(jar.getManifest().getMainAttributes().getValue("Main-Class")).isEqualTo("io.sluice.verticles.benchmarks.load.Bench");
      assertThat(jar.getEntry("io/sluice/gateway/Main.class")).as("the server in the bench jar").isNull();
    }

    ChildProcess.Finished help = ChildProcess.run(List.of("bin/sluice", "bench", "--help"), Map.of(), home);
    assertThat(help.status()).as(help.output()).isZero();
    assertThat(help.output()).contains("--connections").contains("--pipeline");
  }

  @Test
  void printsItsVersion() throws Exception {
    ChildProcess.Finished version = ChildProcess.run(List.of("bin/sluice", "--version"), Map.of(), home);
    assertThat(version.status()).as(version.output()).isZero();
    assertThat(version.output()).isEqualTo("sluice " + home.getFileName().toString().substring("sluice-".length()));
  }

  @Test
  void refusesAJavaHomeWithoutJava() throws Exception {
    ChildProcess.Finished run = ChildProcess.run(List.of("bin/sluice", "--version"),
        Map.of("JAVA_HOME", unpacked.resolve("no-jdk-here").toString()), home);
    assertThat(run.status()).isEqualTo(1);
    assertThat(run.output()).contains("JAVA_HOME is").contains("not an executable file");
  }

  /** A java that says it is 11, first on PATH: the launcher must say 17 is needed, not fail obscurely. */
  @Test
  void refusesJavaOlderThan17() throws Exception {
    Path fakeBin = Files.createDirectories(unpacked.resolve("old-java/bin"));
    Path java = fakeBin.resolve("java");
    Files.writeString(java, "#!/bin/sh\necho 'openjdk version \"11.0.21\" 2023-10-17' >&2\n");
    java.toFile().setExecutable(true);
    Map<String, String> environment = new java.util.HashMap<>(Map.of("PATH", fakeBin + ":/usr/bin:/bin"));
    environment.put("JAVA_HOME", "");
    ChildProcess.Finished run = ChildProcess.run(List.of("bin/sluice", "--version"), environment, home);
    assertThat(run.status()).isEqualTo(1);
    assertThat(run.output()).contains("needs Java 17 or newer").contains("11.0.21");
  }

  @Test
  void startsAnswersAndRunsWithTheShippedJvmOptions() throws Exception {
    try (ChildProcess server = ChildProcess.start(List.of("bin/sluice", "--tcp-port", "0", "--http-port", "0", "--grpc-port", "0", "--udp-port", "0"),
        Map.of("SLUICE_JAVA_OPTS", "-Dsluice.test.marker=yes"), home)) {
      Matcher started = server.awaitLine(Pattern.compile("serving Throttr on tcp://[^ ]+:(\\d+),.* HTTP on (http://[^ ]+:\\d+)"));
      int tcpPort = Integer.parseInt(started.group(1));
      String http = started.group(2);

      HttpResponse<String> health = HttpClient.newHttpClient().send(
          HttpRequest.newBuilder(URI.create(http + "/health")).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(health.statusCode()).isEqualTo(200);
      try (java.net.Socket socket = new java.net.Socket("127.0.0.1", tcpPort)) {
        // uint16 INSERT "k" quota 5, 60 s: status 01.
        socket.getOutputStream().write(new byte[] {0x01, 0x05, 0x00, 0x04, 0x3c, 0x00, 0x01, 'k'});
        assertThat(socket.getInputStream().read()).isEqualTo(1);
      }

      // The client through the launcher: exit 0, then 1 on a 00 status.
      ChildProcess.Finished inserted = ChildProcess.run(List.of("bin/sluice", "cli", "--port", Integer.toString(tcpPort),
          "insert", "from-cli", "3", "1m"), Map.of(), home);
      assertThat(inserted.status()).as(inserted.output()).isZero();
      ChildProcess.Finished missing = ChildProcess.run(List.of("bin/sluice", "cli", "--port", Integer.toString(tcpPort),
          "query", "no-such-key"), Map.of(), home);
      assertThat(missing.status()).as(missing.output()).isEqualTo(1);
      assertThat(missing.output()).isEqualTo("(00) no such counter");

      // exec: the launcher's process IS the JVM, and it carries every line of jvm.options, then SLUICE_JAVA_OPTS.
      List<String> arguments = List.of(ProcessHandle.of(server.pid()).orElseThrow().info().arguments().orElseThrow());
      assertThat(ProcessHandle.of(server.pid()).orElseThrow().info().command().orElseThrow()).endsWith("java");
      List<String> shipped = jvmOptions();
      assertThat(shipped).isNotEmpty();
      assertThat(arguments).containsSubsequence(shipped);
      assertThat(arguments.indexOf("-Dsluice.test.marker=yes")).isGreaterThan(arguments.indexOf(shipped.get(shipped.size() - 1)));
      assertThat(arguments).containsSubsequence("-jar", home.resolve("lib/sluice.jar").toRealPath().toString(),
          "--tcp-port", "0", "--http-port", "0", "--grpc-port", "0", "--udp-port", "0");

      server.signal("TERM");
      assertThat(server.awaitExit()).as(server.output()).isIn(0, 143);
      assertThat(server.output()).contains("Sluice stopped");
    }
  }

  private static List<String> jvmOptions() throws IOException {
    List<String> options = new ArrayList<>();
    for (String line : Files.readAllLines(home.resolve("conf/jvm.options"))) {
      String trimmed = line.strip();
      if (!trimmed.isEmpty() && !trimmed.startsWith("#")) {
        options.add(trimmed);
      }
    }
    return options;
  }
}
