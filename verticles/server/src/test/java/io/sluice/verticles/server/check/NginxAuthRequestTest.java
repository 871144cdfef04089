package io.sluice.verticles.server.check;

import io.sluice.verticles.strategies.Quota;
import io.sluice.verticles.strategies.WindowPolicy;
import io.sluice.verticles.strategies.algorithm.FixedWindow;
import io.sluice.verticles.strategies.policy.KeyExtractor;
import io.sluice.verticles.strategies.policy.Policies;
import io.sluice.verticles.strategies.policy.Policy;
import io.sluice.verticles.server.kit.FixedPorts;
import io.sluice.verticles.server.kit.HttpCalls;
import io.sluice.verticles.server.kit.HttpCalls.Answer;
import io.vertx.core.http.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * End to end with a real nginx: the shipped deploy/nginx snippets protect an upstream with
 * auth_request against Sluice's GET /v1/check/{policy}; the (limit+1)-th request gets a 429 through
 * nginx (Sluice answers it 403, which nginx passes on without an error line), a request without a key
 * a 400 that says so. nginx runs from a generated config on ephemeral loopback ports in a temporary
 * directory. Skipped only when nginx is not installed (CI installs it: deploy/install-build-tools.sh).
 */
class NginxAuthRequestTest {

  /** Surefire runs in verticles/server; the snippets live at the repository top level. */
  private static final Path SNIPPETS = Path.of("..", "..", "deploy", "nginx").toAbsolutePath().normalize();

  @TempDir
  Path directory;

  private CheckFixture sluice;
  private HttpServer upstream;
  private Process nginx;
  private int nginxPort;

  @BeforeEach
  void start() throws Exception {
    Optional<Path> binary = nginxBinary();
    assumeTrue(binary.isPresent(), "nginx is not installed");
    assertThat(SNIPPETS.resolve("sluice-auth.conf")).as("the shipped snippets").isRegularFile();

    sluice = new CheckFixture(Policies.of(new Policy("per-key-5-per-10s",
        new FixedWindow(WindowPolicy.of(new Quota("default", 5, Duration.ofSeconds(10)))),
        KeyExtractor.of("param | header:X-Api-Key"), false)));
    upstream = await(sluice.vertx.createHttpServer()
        .requestHandler(request -> request.response().end("hello from " + request.path()))
        .listen(0, "127.0.0.1"));
    // Below the ephemeral range: nginx binds it only after its start, and a port the kernel hands out
    // to outgoing connections could be taken meanwhile by any of them (see FixedPorts).
    nginxPort = FixedPorts.free();
    Path conf = directory.resolve("nginx.conf");
    Files.writeString(conf, config(sluice.sut.httpPort(), upstream.actualPort(), nginxPort));
    nginx = new ProcessBuilder(binary.get().toString(), "-p", directory.toString(), "-c", conf.toString(),
        "-e", directory.resolve("error.log").toString(),
        "-g", "daemon off; pid " + directory.resolve("nginx.pid") + ";")
        .redirectErrorStream(true)
        .redirectOutput(directory.resolve("nginx.out").toFile())
        .start();
    awaitListening(nginxPort);
  }

  @AfterEach
  void stop() throws Exception {
    if (nginx != null) {
      nginx.destroy(); // SIGTERM: nginx's fast shutdown
      if (!nginx.waitFor(10, TimeUnit.SECONDS)) {
        nginx.destroyForcibly();
      }
    }
    if (upstream != null) {
      await(upstream.close());
    }
    if (sluice != null) {
      sluice.close();
    }
  }

  @Test
  void theSixthRequestThroughNginxGets429() throws Exception {
    try (HttpCalls client = new HttpCalls(sluice.vertx, nginxPort)) {
      for (int remaining = 4; remaining >= 0; remaining--) {
        Answer passed = client.get("/api/orders", "X-Api-Key", "alice");
        assertThat(passed.status()).as(log()).isEqualTo(200);
        assertThat(passed.body()).isEqualTo("hello from /api/orders");
        assertThat(passed.header("RateLimit")).isEqualTo("\"per-key-5-per-10s\";r=" + remaining + ";t=10");
        assertThat(passed.header("RateLimit-Policy")).isEqualTo("\"per-key-5-per-10s\";q=5;w=10");
      }

      Answer denied = client.get("/api/orders", "X-Api-Key", "alice");
      assertThat(denied.status()).as(log()).isEqualTo(429);
      assertThat(denied.header("Retry-After")).isEqualTo("10");
      assertThat(denied.header("RateLimit")).isEqualTo("\"per-key-5-per-10s\";r=0;t=10");
      assertThat(denied.json().getInteger("retry_after")).isEqualTo(10);

      assertThat(client.get("/api/orders", "X-Api-Key", "bob").status()).as("another key").isEqualTo(200);
      assertThat(client.get("/open").status()).as("an unprotected location").isEqualTo(200);
      Answer noKey = client.get("/api/orders");
      assertThat(noKey.status()).as("a request without a key is the client's fault").isEqualTo(400);
      assertThat(noKey.json().getString("error")).startsWith("missing key");
    }
    assertThat(Files.readString(directory.resolve("error.log")))
        .as("denials answered 403 leave nginx's error log quiet").doesNotContain("unexpected status: 403")
        .doesNotContain("unexpected status: 429");
    assertThat(sluice.state("rl:per-key-5-per-10s:alice")).startsWith("23|1|default|5|");
  }

  /** The shipped snippets, included from a config that points them at this test's ports and directory. */
  private String config(int sluicePort, int upstreamPort, int listenPort) {
    String dir = directory.toString();
    return String.join("\n", List.of(
        "worker_processes 1;",
        "events { worker_connections 64; }",
        "http {",
        "  access_log off;",
        // Debian's nginx keeps its temporary files under /var/lib/nginx: not writable without root.
        "  client_body_temp_path " + dir + "/client_body;",
        "  proxy_temp_path " + dir + "/proxy;",
        "  fastcgi_temp_path " + dir + "/fastcgi;",
        "  uwsgi_temp_path " + dir + "/uwsgi;",
        "  scgi_temp_path " + dir + "/scgi;",
        "  upstream sluice { server 127.0.0.1:" + sluicePort + "; keepalive 4; }",
        "  upstream app { server 127.0.0.1:" + upstreamPort + "; }",
        "  server {",
        "    listen 127.0.0.1:" + listenPort + ";",
        "    include " + SNIPPETS.resolve("sluice-auth.conf") + ";",
        "    location /api/ {",
        "      set $sluice_policy per-key-5-per-10s;",
        "      include " + SNIPPETS.resolve("sluice-protect.conf") + ";",
        "      proxy_pass http://app;",
        "    }",
        "    location / { proxy_pass http://app; }",
        "  }",
        "}",
        ""));
  }

  private static Optional<Path> nginxBinary() {
    String path = System.getenv().getOrDefault("PATH", "");
    return Stream.concat(Stream.of(path.split(File.pathSeparator)), Stream.of("/usr/sbin", "/usr/local/sbin", "/sbin"))
        .filter(dir -> !dir.isEmpty())
        .map(dir -> Path.of(dir, "nginx"))
        .filter(Files::isExecutable)
        .findFirst();
  }

  private void awaitListening(int port) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (System.nanoTime() < deadline) {
      if (!nginx.isAlive()) {
        throw new AssertionError("nginx exited with " + nginx.exitValue() + ":\n" + log());
      }
      try (Socket ignored = new Socket("127.0.0.1", port)) {
        return;
      } catch (IOException notYet) {
        Thread.sleep(50);
      }
    }
    throw new AssertionError("nginx did not listen on " + port + ":\n" + log());
  }

  private String log() {
    StringBuilder text = new StringBuilder();
    for (String name : List.of("nginx.out", "error.log")) {
      try {
        text.append(name).append(":\n").append(Files.readString(directory.resolve(name))).append('\n');
      } catch (IOException missing) {
        text.append(name).append(": (none)\n");
      }
    }
    return text.toString();
  }
}
