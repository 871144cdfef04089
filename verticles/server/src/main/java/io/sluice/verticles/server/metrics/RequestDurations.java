package io.sluice.verticles.server.metrics;

import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;

import java.time.Duration;

/**
 * {@code sluice_request_duration_seconds{protocol}}: how long requests spend inside the server, from
 * their arrival to their reply, as a histogram with fixed buckets (10 µs to 1 s). Timed with the
 * registry's monotonic clock: a stopwatch, not the wall time the injectable Clock gives.
 *
 * <p>Throttr ({@code tcp}, {@code websocket}) is timed per read, not per request: from a read's
 * arrival to the first reply written after it, which every request of that read waits for (replies
 * of a read go out together). One observation per read keeps the cost off the per-request path.
 * UDP is timed from a datagram's arrival to its reply, one datagram in 8 (a histogram record costs a
 * few hundred nanoseconds, a datagram is served in a few microseconds), so its {@code _count} is an
 * eighth of the datagrams answered ({@code sluice_requests_total} counts them all).
 */
public final class RequestDurations {

  private static final Duration[] BUCKETS = {
      Duration.ofNanos(10_000), Duration.ofNanos(25_000), Duration.ofNanos(50_000), Duration.ofNanos(100_000),
      Duration.ofNanos(250_000), Duration.ofNanos(500_000), Duration.ofMillis(1), Duration.ofNanos(2_500_000),
      Duration.ofMillis(5), Duration.ofMillis(10), Duration.ofMillis(25), Duration.ofMillis(100),
      Duration.ofMillis(250), Duration.ofSeconds(1)};

  private final MeterRegistry registry;

  public RequestDurations(MeterRegistry registry) {
    this.registry = registry;
  }

  /** Records nothing: for servers without metrics. */
  public static RequestDurations none() {
    return new RequestDurations(new CompositeMeterRegistry());
  }

  /** The timer of one protocol ({@code tcp}, {@code websocket}, {@code udp}). */
  public Timer of(String protocol) {
    return Timer.builder("sluice.request.duration")
        .description("Time from a request's arrival to its reply, inside the server (Throttr: per read)")
        .tag("protocol", protocol)
        .serviceLevelObjectives(BUCKETS)
        .register(registry);
  }

  /** The stopwatch to time them with. */
  public Clock stopwatch() {
    return registry.config().clock();
  }
}
