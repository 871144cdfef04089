package io.sluice.verticles.server.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.function.ToDoubleFunction;

/**
 * The one owner of {@code sluice_requests_total{protocol,command}}: every front registers its
 * series here, so the name, the description and the tags cannot drift apart. Commands come from
 * each protocol's fixed set, never from the client.
 */
public final class RequestMeters {

  private static final String NAME = "sluice.requests";
  private static final String DESCRIPTION =
      "Requests served, by protocol and command (Throttr: EVENT's inner requests included)";

  private RequestMeters() {
  }

  /** A counter the caller increments: the UDP endpoint's and the check API's commands. */
  public static Counter counter(MeterRegistry registry, String protocol, String command) {
    return Counter.builder(NAME).description(DESCRIPTION).tag("protocol", protocol).tag("command", command)
        .register(registry);
  }

  /** A series read from counts kept elsewhere: the Throttr fronts' per-connection counters. */
  public static <T> void readFrom(MeterRegistry registry, String protocol, String command, T counts,
                                  ToDoubleFunction<T> total) {
    FunctionCounter.builder(NAME, counts, total).description(DESCRIPTION).tag("protocol", protocol)
        .tag("command", command).register(registry);
  }
}
