package io.sluice.gateway;

import io.sluice.gateway.config.ConfigLoader;
import io.sluice.gateway.config.Invocation;
import io.sluice.gateway.process.ChildProcess;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The curl examples of the docs and the shipped files that send a body to Sluice's HTTP port
 * ({@code localhost:8080}), run as written with curl against a gateway started as those docs say
 * ({@code --config deploy/examples/sluice.yaml --rls-config deploy/ratelimit --rls-response-headers
 * true}): each is answered 200, not 415 for a forgotten Content-Type, and with the body the docs
 * show when they show one on the next line.
 */
class DocExamplesTest {

  private static final Path ROOT = Path.of(System.getProperty("basedir", ".")).toAbsolutePath().normalize().getParent();
  private static final Pattern SLUICE_HTTP = Pattern.compile("(?:localhost|127\\.0\\.0\\.1):8080");
  /** A documented answer: a JSON object, after {@code -> 200 } in the config files' comments. */
  private static final Pattern ANSWER = Pattern.compile("^(?:-> 200 )?(\\{.*})$");

  private static Gateway gateway;

  /** One example: where it is, the command as written (continuations joined), and the answer shown after it. */
  record Example(String where, String command, String answer) {
  }

  @BeforeAll
  static void start() throws Exception {
    gateway = Gateway.start(((Invocation.Run) ConfigLoader.load(List.of("--config", ROOT.resolve("deploy/examples/sluice.yaml").toString(),
        "--rls-config", ROOT.resolve("deploy/ratelimit").toString(), "--rls-response-headers", "true",
        "--tcp-port", "0", "--http-port", "0", "--grpc-port", "0", "--udp-port", "0"), Map.of())).config());
  }

  @AfterAll
  static void stop() {
    if (gateway != null) {
      gateway.stop();
    }
  }

  @TestFactory
  Stream<DynamicTest> everyCurlExampleWithABodyGetsTheDocumentedAnswer() throws Exception {
    Assumptions.assumeTrue(ChildProcess.run(List.of("sh", "-c", "command -v curl"), Map.of(), ROOT).status() == 0,
        "curl is not installed");
    List<Example> examples = new ArrayList<>();
    for (Path file : documents()) {
      examples.addAll(examples(file));
    }
    assertThat(examples).as("the examples of deploy/examples/sluice.yaml and docs/envoy.md at least").hasSizeGreaterThanOrEqualTo(2);
    return examples.stream().map(example -> DynamicTest.dynamicTest(example.where(), () -> run(example)));
  }

  private static void run(Example example) throws Exception {
    String command = SLUICE_HTTP.matcher(example.command()).replaceAll("127.0.0.1:" + gateway.server().httpPort())
        + " -w '\\n%{http_code}'";
    ChildProcess.Finished finished = ChildProcess.run(List.of("sh", "-c", command), Map.of(), ROOT);
    assertThat(finished.status()).as(example.command()).isZero();
    String output = finished.output().strip();
    int lastLine = output.lastIndexOf('\n');
    assertThat(output.substring(lastLine + 1)).as("the status of " + example.command()).isEqualTo("200");
    if (example.answer() != null) {
      assertThat(new JsonObject(output.substring(0, lastLine))).as(example.command()).isEqualTo(new JsonObject(example.answer()));
    }
  }

  /** README.md, docs/*.md and the text files of deploy/. */
  private static List<Path> documents() throws IOException {
    List<Path> files = new ArrayList<>();
    files.add(ROOT.resolve("README.md"));
    try (Stream<Path> docs = Files.list(ROOT.resolve("docs")); Stream<Path> deploy = Files.walk(ROOT.resolve("deploy"))) {
      docs.filter(path -> path.toString().endsWith(".md")).sorted().forEach(files::add);
      deploy.filter(Files::isRegularFile).filter(path -> !path.toString().endsWith(".json")).sorted().forEach(files::add);
    }
    return files;
  }

  /** The curl commands sending a body (-d) to port 8080; config files' comments are read without their '#'. */
  static List<Example> examples(Path file) throws IOException {
    List<String> lines = new ArrayList<>();
    for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      String text = line.strip();
      lines.add(text.startsWith("#") ? text.substring(1).strip() : text);
    }
    List<Example> found = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      if (!lines.get(i).startsWith("curl ")) {
        continue;
      }
      int first = i;
      StringBuilder command = new StringBuilder(lines.get(i));
      while (command.toString().endsWith("\\") && i + 1 < lines.size()) {
        command.setLength(command.length() - 1);
        command.append(' ').append(lines.get(++i));
      }
      if (SLUICE_HTTP.matcher(command).find() && command.toString().contains(" -d ")) {
        Matcher answer = ANSWER.matcher(i + 1 < lines.size() ? lines.get(i + 1) : "");
        found.add(new Example(ROOT.relativize(file) + ":" + (first + 1), command.toString(),
            answer.matches() ? answer.group(1) : null));
      }
    }
    return found;
  }
}
