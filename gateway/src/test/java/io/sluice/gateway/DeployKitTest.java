package io.sluice.gateway;

import io.sluice.gateway.config.ConfigLoader;
import io.sluice.gateway.config.Invocation;
import io.sluice.gateway.config.Option;
import io.sluice.gateway.config.ClusterOptions;
import io.sluice.gateway.config.Options;
import io.sluice.gateway.process.ChildProcess;
import io.sluice.gateway.process.Tools;
import io.sluice.gateway.process.Ports;
import io.sluice.gateway.process.Waits;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The deploy kit, held to the option table and to the running server: the systemd unit verifies,
 * the alert rules pass promtool, the Dockerfile and the Kubernetes manifests use the table's
 * ports and variables, and every series the dashboard and the rules name is one Sluice exports.
 */
class DeployKitTest {

  private static final Path DEPLOY = Path.of(System.getProperty("basedir", "."), "..", "deploy");
  private static final Path GATEWAY = Path.of(System.getProperty("basedir", "."));
  /** Variables the launcher reads (not options): bin/sluice documents them. */
  private static final Set<String> LAUNCHER_VARIABLES = Set.of("SLUICE_JAVA_OPTS", "SLUICE_JVM_OPTIONS");

  @TempDir
  Path directory;

  @Test
  void theSystemdUnitVerifiesAndIsHardened() throws Exception {
    Tools.need("systemd-analyze");
    String unit = Files.readString(DEPLOY.resolve("systemd/sluice.service"));
    assertThat(unit).containsPattern("(?m)^(DynamicUser=yes|User=\\S+)$").contains("ProtectSystem=strict\n")
        .contains("NoNewPrivileges=yes\n").containsPattern("(?m)^LimitNOFILE=\\d+$").contains("StateDirectory=sluice\n")
        .contains("ExecReload=/bin/kill -HUP $MAINPID\n").contains("ExecStart=/opt/sluice/bin/sluice ");
    // verify also checks that ExecStart exists: the real launcher stands in for an installation.
    Path installed = Files.createDirectories(directory.resolve("opt/sluice/bin"));
    Files.copy(GATEWAY.resolve("src/dist/bin/sluice"), installed.resolve("sluice"));
    installed.resolve("sluice").toFile().setExecutable(true);
    Path copy = Files.writeString(directory.resolve("sluice.service"), unit.replace("/opt/sluice", directory.resolve("opt/sluice").toString()));
    ChildProcess.Finished verify = ChildProcess.run(List.of("systemd-analyze", "verify", copy.toString()), Map.of(), directory);
    assertThat(verify.status()).as(verify.output()).isZero();
    assertThat(verify.output()).as("warnings about the unit").doesNotContain("sluice.service");
  }

  @Test
  void theAlertRulesPassPromtool() throws Exception {
    Tools.need("promtool");
    Path rules = DEPLOY.resolve("prometheus/sluice-rules.yml");
    ChildProcess.Finished check = ChildProcess.run(List.of("promtool", "check", "rules", rules.toString()), Map.of(), directory);
    assertThat(check.status()).as(check.output()).isZero();
    assertThat(Files.readString(rules)).contains("alert: SluiceDown").contains("alert: SluiceNotReady")
        .contains("alert: SluiceDenialRateJump").contains("alert: SluicePushesDropped").contains("alert: SluiceHeapNearlyFull")
        .contains("alert: SluicePersistenceFailing").contains("alert: SluiceClusterMemberLost");
    // The rules' own tests: SluiceNotReady fires on failed readiness probes only, not on other 503s;
    // failing persistence and a lost member fire theirs.
    ChildProcess.Finished tests = ChildProcess.run(List.of("promtool", "test", "rules", "sluice-rules.test.yml"), Map.of(),
        DEPLOY.resolve("prometheus"));
    assertThat(tests.status()).as(tests.output()).isZero();
  }

  @Test
  void theDockerfileBuildsTheArchiveAndMatchesTheOptionTable() throws Exception {
    String dockerfile = Files.readString(DEPLOY.resolve("docker/Dockerfile"));
    assertThat(Pattern.compile("(?m)^FROM ").matcher(dockerfile).results().count()).as("multi-stage").isGreaterThanOrEqualTo(2);
    // The archive the build makes (maven-assembly-plugin: sluice-${project.version}), holding the shaded lib/sluice.jar
    // and the load generator, lib/sluice-bench.jar.
    String pom = Files.readString(GATEWAY.resolve("pom.xml"));
    assertThat(pom).contains("<finalName>sluice-${project.version}</finalName>").contains("<finalName>sluice</finalName>");
    assertThat(dockerfile).contains("ARG VERSION=" + projectVersion(pom) + "\n")
        .contains("/src/gateway/target/sluice-${VERSION}.tar.gz").contains("/opt/sluice/lib/sluice.jar").contains("/opt/sluice/lib/sluice-bench.jar")
        .contains("ENTRYPOINT [\"/opt/sluice/bin/sluice\"]");
    Matcher user = Pattern.compile("(?m)^USER (\\S+)$").matcher(dockerfile);
    assertThat(user.find()).isTrue();
    assertThat(user.group(1)).doesNotStartWith("0").isNotEqualTo("root");
    assertThat(dockerfile).containsPattern("(?m)^HEALTHCHECK .*\\n.*/health");

    Map<String, String> environment = new HashMap<>();
    Matcher variable = Pattern.compile("(SLUICE_[A-Z_]+)=(\"[^\"]*\"|\\S+)").matcher(dockerfile);
    while (variable.find()) {
      environment.put(variable.group(1), variable.group(2).replace("\"", ""));
    }
    assertThat(environment).isNotEmpty();
    environment.keySet().forEach(name -> assertThat(isKnownVariable(name)).as(name + " is an option's variable or the launcher's").isTrue());
    Set<String> exposed = new TreeSet<>();
    Matcher expose = Pattern.compile("(?m)^EXPOSE (.+)$").matcher(dockerfile);
    while (expose.find()) {
      exposed.addAll(List.of(expose.group(1).trim().split("\\s+")));
    }
    assertThat(exposed).isEqualTo(expectedPorts(environment));
  }

  @ParameterizedTest
  @ValueSource(strings = {"kubernetes/sluice.yaml", "cluster/k8s/sluice.yaml"})
  void theKubernetesManifestsRunTheImageLockedDownAndMatchTheOptionTable(String manifest) throws Exception {
    List<Map<String, Object>> documents = new ArrayList<>();
    for (Object document : new Yaml(new SafeConstructor(new LoaderOptions())).loadAll(Files.readString(DEPLOY.resolve(manifest)))) {
      documents.add(map(document));
    }
    Map<String, Object> workload = documents.stream().filter(d -> List.of("Deployment", "StatefulSet").contains(d.get("kind"))).findFirst().orElseThrow();
    List<Map<String, Object>> services = documents.stream().filter(d -> "Service".equals(d.get("kind"))).toList();
    assertThat(services).isNotEmpty();

    Map<String, Object> pod = map(map(map(workload.get("spec")).get("template")).get("spec"));
    Map<String, Object> container = map(list(pod.get("containers")).get(0));
    // The image deploy/docker/Dockerfile builds, run by its ENTRYPOINT (bin/sluice): not a bare JRE told to java -jar.
    assertThat(container.get("image")).isEqualTo("sluice:" + projectVersion(Files.readString(GATEWAY.resolve("pom.xml"))));
    assertThat(container).doesNotContainKeys("command", "args");
    Map<String, String> environment = new HashMap<>();
    Map<String, Object> secretToken = null;
    for (Object entry : list(container.get("env"))) {
      Map<String, Object> variable = map(entry);
      String name = (String) variable.get("name");
      assertThat(isKnownVariable(name) || "POD_IP".equals(name)).as(name + " is an option's variable").isTrue();
      environment.put(name, variable.get("value") == null ? null : String.valueOf(variable.get("value")));
      if (name.equals(Options.AUTH_TOKEN.environmentVariable().orElseThrow())) {
        secretToken = map(map(variable.get("valueFrom")).get("secretKeyRef"));
      }
    }
    assertThat(environment.get(Options.BIND.environmentVariable().orElseThrow())).isEqualTo("0.0.0.0");
    assertThat(secretToken).as("bound to 0.0.0.0: the HTTP port's token comes from a Secret").isNotNull();
    assertThat(secretToken).containsEntry("name", "sluice").containsEntry("key", "auth-token");

    Map<String, String> portNames = new HashMap<>();
    Set<String> declared = new TreeSet<>();
    for (Object entry : list(container.get("ports"))) {
      Map<String, Object> port = map(entry);
      String spelled = port.get("containerPort") + "/" + String.valueOf(port.get("protocol")).toLowerCase(java.util.Locale.ROOT);
      declared.add(spelled);
      portNames.put((String) port.get("name"), spelled);
    }
    assertThat(declared).as("every listener's port, gRPC's too").isEqualTo(expectedPorts(environment));
    String httpPort = environment.getOrDefault(Options.HTTP_PORT.environmentVariable().orElseThrow(), "8080") + "/tcp";
    Map<String, Object> readiness = map(map(container.get("readinessProbe")).get("httpGet"));
    Map<String, Object> liveness = map(map(container.get("livenessProbe")).get("httpGet"));
    assertThat(readiness.get("path")).isEqualTo("/ready");
    assertThat(liveness.get("path")).isEqualTo("/health");
    assertThat(portNames.get(String.valueOf(readiness.get("port")))).isEqualTo(httpPort);
    assertThat(portNames.get(String.valueOf(liveness.get("port")))).isEqualTo(httpPort);
    Map<String, Object> resources = map(container.get("resources"));
    assertThat(map(resources.get("requests"))).containsKeys("cpu", "memory");
    assertThat(map(resources.get("limits"))).containsKeys("cpu", "memory");

    // Non-root, read-only root file system, no capability, no privilege to gain; /tmp writable for the JVM.
    assertThat(map(pod.get("securityContext"))).containsEntry("runAsNonRoot", true);
    Map<String, Object> locked = map(container.get("securityContext"));
    assertThat(locked).containsEntry("allowPrivilegeEscalation", false).containsEntry("readOnlyRootFilesystem", true);
    assertThat(list(map(locked.get("capabilities")).get("drop"))).containsExactly("ALL");
    assertThat(list(container.get("volumeMounts"))).anySatisfy(mount -> assertThat(map(mount)).containsEntry("mountPath", "/tmp"));

    Set<String> served = new TreeSet<>();
    for (Map<String, Object> service : services) {
      for (Object entry : list(map(service.get("spec")).get("ports"))) {
        Map<String, Object> port = map(entry);
        String target = portNames.get(String.valueOf(port.get("targetPort")));
        assertThat(target).as("service port " + port.get("name") + " targets a container port").isNotNull();
        assertThat(target).isEqualTo(port.get("port") + "/" + String.valueOf(port.get("protocol")).toLowerCase(java.util.Locale.ROOT));
        served.add(target);
      }
    }
    assertThat(served).isEqualTo(declared);
    Object podLabels = map(map(map(workload.get("spec")).get("template")).get("metadata")).get("labels");
    services.forEach(service -> assertThat(map(service.get("spec")).get("selector")).isEqualTo(podLabels));

    if (Boolean.parseBoolean(environment.get(ClusterOptions.CLUSTER.environmentVariable().orElseThrow()))) {
      // A drain takes one member at a time, which the partitions' backups survive.
      Map<String, Object> budget = documents.stream().filter(d -> "PodDisruptionBudget".equals(d.get("kind"))).findFirst().orElseThrow();
      assertThat(map(budget.get("spec"))).containsEntry("maxUnavailable", 1);
      assertThat(map(map(budget.get("spec")).get("selector")).get("matchLabels")).isEqualTo(podLabels);
    }
    Optional<Map<String, Object>> configMap = documents.stream().filter(d -> "ConfigMap".equals(d.get("kind"))).findFirst();
    if (configMap.isPresent()) {
      // The configuration the ConfigMap mounts is one Sluice accepts.
      Path config = Files.writeString(directory.resolve("sluice.yaml"), (String) map(configMap.get().get("data")).get("sluice.yaml"));
      assertThat(ConfigLoader.load(List.of("--config", config.toString()), Map.of())).isInstanceOf(Invocation.Run.class);
      assertThat(environment.get(Options.CONFIG.environmentVariable().orElseThrow())).isEqualTo("/etc/sluice/sluice.yaml");
    }
  }

  @Test
  void theDashboardAndRulesNameOnlySeriesSluiceExports() throws Exception {
    JsonObject dashboard = new JsonObject(Files.readString(DEPLOY.resolve("grafana/sluice.json")));
    List<String> expressions = new ArrayList<>();
    for (Object panel : dashboard.getJsonArray("panels")) {
      JsonArray targets = ((JsonObject) panel).getJsonArray("targets");
      targets.forEach(target -> expressions.add(((JsonObject) target).getString("expr")));
    }
    String all = String.join("\n", expressions);
    assertThat(all).contains("sluice_requests_total").contains("sluice_check_decisions_total")
        .contains("histogram_quantile").contains("sluice_keys").contains("sluice_connections")
        .contains("sluice_pushes_dropped_total").contains("jvm_memory_used_bytes").contains("jvm_gc_pause_seconds")
        .contains("sluice_check_denials_total").contains("sluice_check_near_limit_total")
        .contains("sluice_check_duration_seconds_bucket").contains("sluice_rls_over_limit_total")
        .contains("sluice_persistence_failing").contains("sluice_cluster_members").contains("sluice_evicted_keys_total");
    Set<String> named = seriesNamedIn(all + "\n" + Files.readString(DEPLOY.resolve("prometheus/sluice-rules.yml")));

    Set<String> exported = exportedSeries();
    named.forEach(series -> assertThat(exported).as("a series named in the dashboard or rules").contains(series));
  }

  /** Series names in PromQL: sluice_*, vertx_*, jvm_*, process_* and system_* (up is Prometheus' own). */
  private static Set<String> seriesNamedIn(String promql) {
    Set<String> names = new TreeSet<>();
    Matcher name = Pattern.compile("\\b((?:sluice|vertx|jvm|process|system)_[a-z0-9_]+)").matcher(promql);
    while (name.find()) {
      names.add(name.group(1));
    }
    return names;
  }

  /**
   * What /metrics of a real gateway lists once each kind of request has been served: a lone cluster
   * member (for the cluster's series) persisting to a data directory, with a check policy and
   * Envoy's rate limit service (whose series appear with a descriptor's first hit).
   */
  private Set<String> exportedSeries() throws Exception {
    Path config = Files.writeString(directory.resolve("policies.yaml"),
        "policies:\n  p:\n    strategy: fixed_window\n    limit: 1\n    window: 1m\n");
    Path rls = Files.writeString(directory.resolve("rls.yaml"),
        "domain: d\ndescriptors:\n  - key: k\n    rate_limit: {unit: minute, requests_per_unit: 1}\n");
    Gateway gateway = Gateway.start(((Invocation.Run) ConfigLoader.load(List.of("--config", config.toString(),
        "--tcp-port", "0", "--http-port", "0", "--grpc-port", "0", "--udp-port", "0", "--rls-config", rls.toString(),
        "--data-dir", directory.resolve("data").toString(), "--cluster", "--cluster-host", "127.0.0.1",
        "--cluster-port", String.valueOf(Ports.free())), Map.of())).config());
    try {
      HttpClient http = HttpClient.newHttpClient();
      String base = "http://127.0.0.1:" + gateway.server().httpPort();
      Waits.until(java.time.Duration.ofSeconds(30), "the lone cluster member is ready", () -> http.send(
          HttpRequest.newBuilder(URI.create(base + "/ready")).build(), HttpResponse.BodyHandlers.discarding()).statusCode() == 200);
      for (int i = 0; i < 2; i++) { // allowed, then denied
        http.send(HttpRequest.newBuilder(URI.create(base + "/v1/check")).header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString("{\"policy\":\"p\",\"key\":\"k\"}")).build(), HttpResponse.BodyHandlers.discarding());
        http.send(HttpRequest.newBuilder(URI.create(base + "/json")).header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString("{\"domain\":\"d\",\"descriptors\":[{\"entries\":[{\"key\":\"k\",\"value\":\"v\"}]}]}"))
            .build(), HttpResponse.BodyHandlers.discarding());
      }
      System.gc(); // jvm_gc_pause_seconds appears with the first collection after start
      long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
      Set<String> names;
      do {
        String scrape = http.send(HttpRequest.newBuilder(URI.create(base + "/metrics")).build(), HttpResponse.BodyHandlers.ofString()).body();
        names = new LinkedHashSet<>();
        for (String line : scrape.split("\n")) {
          if (!line.startsWith("#") && !line.isBlank()) {
            names.add(line.split("[{ ]", 2)[0]);
          }
        }
      } while (!names.contains("jvm_gc_pause_seconds_sum") && System.nanoTime() < deadline);
      return names;
    } finally {
      gateway.stop();
    }
  }

  /** Every listener's port, as "9000/tcp": its variable's value if set, else the option's default. */
  private static Set<String> expectedPorts(Map<String, String> environment) {
    Set<String> ports = new TreeSet<>();
    for (Option<?> option : Options.ALL) {
      if (option.name().endsWith("-port")) {
        String variable = option.environmentVariable().orElseThrow();
        String value = environment.get(variable) != null ? environment.get(variable) : option.defaultDescription();
        ports.add(value + (option.name().startsWith("udp") ? "/udp" : "/tcp"));
      }
    }
    return ports;
  }

  private static boolean isKnownVariable(String name) {
    return LAUNCHER_VARIABLES.contains(name)
        || Options.ALL.stream().anyMatch(option -> option.environmentVariable().filter(name::equals).isPresent());
  }

  private static String projectVersion(String pom) {
    Matcher parent = Pattern.compile("<parent>.*?<version>([^<]+)</version>", Pattern.DOTALL).matcher(pom);
    assertThat(parent.find()).isTrue();
    return parent.group(1);
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> map(Object value) {
    assertThat(value).isInstanceOf(Map.class);
    return (Map<String, Object>) value;
  }

  @SuppressWarnings("unchecked")
  private static List<Object> list(Object value) {
    assertThat(value).isInstanceOf(List.class);
    return (List<Object>) value;
  }

  static {
    // Launcher variables must really be read by the launcher.
    try {
      String launcher = Files.readString(GATEWAY.resolve("src/dist/bin/sluice"));
      LAUNCHER_VARIABLES.forEach(variable -> {
        if (!launcher.contains(variable)) {
          throw new IllegalStateException("bin/sluice does not read " + variable);
        }
      });
    } catch (IOException unreadable) {
      throw new IllegalStateException(unreadable);
    }
  }
}
