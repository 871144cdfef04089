package io.sluice.verticles.server.grpc;

import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse.DescriptorStatus;
import io.sluice.verticles.rls.RlsConfigSource;
import io.sluice.verticles.server.kit.LogCapture;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.logging.Level;
import java.util.logging.LogRecord;

import static io.sluice.verticles.server.grpc.RlsFixture.descriptor;
import static io.sluice.verticles.server.grpc.RlsFixture.request;
import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Hot reload: the config's directory is watched, an edited or added file takes effect with no
 * restart and keeps the counters; a broken file is refused with one ERROR line naming the file,
 * the line and the field, and the config before it stays in force.
 */
class RlsReloadTest {

  private static final long DEADLINE_MILLIS = 15_000;

  private static String config(String domain, int perMinute) {
    return """
        domain: %s
        descriptors:
          - key: user
            rate_limit:
              unit: minute
              requests_per_unit: %d
        """.formatted(domain, perMinute);
  }

  /** Calls until the answer satisfies {@code until}, within a bounded deadline (the watcher looks once a second). */
  private static DescriptorStatus pollUntil(RlsFixture rls, String domain, Predicate<DescriptorStatus> until) {
    long deadline = System.currentTimeMillis() + DEADLINE_MILLIS;
    DescriptorStatus status;
    do {
      // Zero hits: a look that counts nothing.
      status = rls.call(request(domain, RlsFixture.withHits(descriptor("user", "probe"), 0))).getStatuses(0);
      if (until.test(status)) {
        return status;
      }
      LockSupport.parkNanos(20_000_000); // between polls, not as a synchronisation
    } while (System.currentTimeMillis() < deadline);
    throw new AssertionError("the reload did not take effect within " + DEADLINE_MILLIS + " ms; last answer " + status);
  }

  private static void awaitCondition(BooleanSupplier condition) {
    long deadline = System.currentTimeMillis() + DEADLINE_MILLIS;
    while (!condition.getAsBoolean()) {
      if (System.currentTimeMillis() > deadline) {
        throw new AssertionError("not within " + DEADLINE_MILLIS + " ms");
      }
      LockSupport.parkNanos(20_000_000); // between polls, not as a synchronisation
    }
  }

  @Test
  void editedAndAddedFilesTakeEffectAndCountersAreKept() {
    try (RlsFixture rls = new RlsFixture("a.yaml", config("edited", 10))) {
      rls.call(request("edited", RlsFixture.withHits(descriptor("user", "probe"), 4)));

      rls.write("a.yaml", config("edited", 100));
      DescriptorStatus raised = pollUntil(rls, "edited", s -> s.getCurrentLimit().getRequestsPerUnit() == 100);
      assertThat(raised.getLimitRemaining()).as("the 4 hits of before are kept").isEqualTo(96);

      // What a SIGHUP calls: reads at once, whatever the watcher has done already.
      rls.write("a.yaml", config("edited", 50));
      assertThat(await(rls.rls().reload()).outcome()).isEqualTo(RlsConfigSource.Outcome.RELOADED);
      assertThat(rls.call(request("edited", descriptor("user", "probe"))).getStatuses(0).getLimitRemaining()).isEqualTo(45);

      rls.write("b.yaml", config("added", 7));
      DescriptorStatus added = pollUntil(rls, "added", DescriptorStatus::hasCurrentLimit);
      assertThat(added.getCurrentLimit().getRequestsPerUnit()).isEqualTo(7);
    }
  }

  @Test
  void aBrokenFileIsRefusedWithOneErrorLineAndTheConfigBeforeStays() {
    try (RlsFixture rls = new RlsFixture("a.yaml", config("kept", 10));
         LogCapture log = new LogCapture(EnvoyRateLimit.class.getName())) {
      rls.write("a.yaml", """
          domain: kept
          descriptors:
            - key: user
              rate_limit:
                unit: fortnight
                requests_per_unit: 100
          """);
      awaitCondition(() -> log.records().stream().anyMatch(r -> r.getLevel() == Level.SEVERE));
      List<LogRecord> errors = log.records().stream().filter(r -> r.getLevel() == Level.SEVERE).toList();
      assertThat(errors).hasSize(1);
      assertThat(errors.get(0).getMessage()).contains("a.yaml:5: descriptors[0].rate_limit.unit: must be one of")
          .contains("found 'fortnight'").contains("the previous one stays in force");
      DescriptorStatus status = rls.call(request("kept", descriptor("user", "x"))).getStatuses(0);
      assertThat(status.getCurrentLimit().getRequestsPerUnit()).isEqualTo(10);

      // The watcher does not repeat the refusal of a file it has already refused.
      rls.write("a.yaml", config("kept", 20));
      pollUntil(rls, "kept", s -> s.getCurrentLimit().getRequestsPerUnit() == 20);
      assertThat(log.records().stream().filter(r -> r.getLevel() == Level.SEVERE)).hasSize(1);
    }
  }
  /** Issue 30, item 8a: a removed file drops its domain's limits, which is said at WARNING, not INFO. */
  @Test
  void aRemovedFileDropsItsDomainWithOneWarning() throws Exception {
    try (RlsFixture rls = new RlsFixture("a.yaml", config("kept", 10), "b.yaml", config("gone", 10));
         LogCapture log = new LogCapture(EnvoyRateLimit.class.getName())) {
      java.nio.file.Files.delete(rls.configDir.resolve("b.yaml"));
      awaitCondition(() -> log.records().stream().anyMatch(r -> r.getLevel() == Level.WARNING));

      List<LogRecord> warnings = log.records().stream().filter(r -> r.getLevel() == Level.WARNING).toList();
      assertThat(warnings).hasSize(1);
      assertThat(warnings.get(0).getMessage()).contains("rate limit config reloaded without domains [gone]")
          .contains("now have no limit").contains("domains [kept]");
      assertThat(rls.call(request("gone", descriptor("user", "x"))).getStatuses(0).hasCurrentLimit()).isFalse();
      assertThat(rls.call(request("kept", descriptor("user", "x"))).getStatuses(0).getCurrentLimit()
          .getRequestsPerUnit()).isEqualTo(10);
    }
  }
  /** A SIGHUP reads the files itself and installs them: the same WARNING for the domains it drops. */
  @Test
  void aSighupInstallThatDropsADomainWarnsToo() throws Exception {
    try (RlsFixture rls = new RlsFixture("a.yaml", config("kept", 10), "b.yaml", config("gone", 10));
         LogCapture log = new LogCapture(EnvoyRateLimit.class.getName())) {
      rls.rls().stopWatching();
      java.nio.file.Files.delete(rls.configDir.resolve("b.yaml"));
      rls.rls().install(io.sluice.verticles.rls.RlsConfigReader.read(rls.configDir));

      assertThat(log.records()).singleElement().satisfies(warning -> {
        assertThat(warning.getLevel()).isEqualTo(Level.WARNING);
        assertThat(warning.getMessage()).contains("rate limit config reloaded without domains [gone]");
      });
      assertThat(rls.call(request("gone", descriptor("user", "x"))).getStatuses(0).hasCurrentLimit()).isFalse();
    }
  }
}
