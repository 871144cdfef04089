package io.sluice.verticles.benchmarks.jmh;

import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.sluice.verticles.server.metrics.LimitActivity;
import io.sluice.verticles.server.metrics.RequestDurations;
import io.sluice.verticles.strategies.Decision;
import io.sluice.verticles.strategies.Result;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * What issue 19's measurements add to the hot paths, per observation: timing one Throttr read or
 * one UDP datagram into {@code sluice_request_duration_seconds} (two monotonic clock reads and one
 * histogram record), and counting one check decision for the Limits view. Compare with the work
 * they ride on: a read of 64 pipelined requests, a UDP datagram, an HTTP check (docs/benchmarks.md).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class MetricsCostBenchmark {

  private Timer timer;
  private Clock stopwatch;
  private LimitActivity.PolicyActivity policy;
  private Decision allowed;
  private Decision denied;
  private long now;

  @Setup
  public void setUp() {
    RequestDurations durations = new RequestDurations(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
    timer = durations.of("tcp");
    stopwatch = durations.stopwatch();
    policy = new LimitActivity().policy("p");
    allowed = Decision.of(new Result("default", true, 100, 50, 0, 0));
    denied = Decision.of(new Result("default", false, 100, 0, 0, 1));
  }

  /** One read (or datagram) timed from arrival to reply, as FrontConnection and DatagramReplies do. */
  @Benchmark
  public long timeOneRead() {
    long start = stopwatch.monotonicTime();
    timer.record(stopwatch.monotonicTime() - start, TimeUnit.NANOSECONDS);
    return start;
  }

  /** One allowed check (below the near-limit mark) counted for the Limits view. */
  @Benchmark
  public boolean countAllowedCheck() {
    return policy.decided("alice", allowed, now++);
  }

  /** One denied check counted, with its key among the most denied. */
  @Benchmark
  public boolean countDeniedCheck() {
    return policy.decided("bob", denied, now++);
  }
}
