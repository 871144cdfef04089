package io.sluice.verticles.server.grpc;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The bytes gRPC connections hold for their clients ({@link GrpcBacklog}), for every front event
 * loop: {@code sluice_grpc_pending_bytes}, what all hold now, and
 * {@code sluice_grpc_pending_bytes_peak}, the most one connection has held (what
 * {@code --max-pending-bytes} bounds, give or take one read's calls).
 */
final class PendingBytes {

  private final AtomicLong now = new AtomicLong();
  private final AtomicLong peak = new AtomicLong();

  PendingBytes(MeterRegistry metrics) {
    Gauge.builder("sluice.grpc.pending.bytes", now, AtomicLong::get).baseUnit("bytes")
        .description("Bytes gRPC connections hold: requests not answered and answers not yet written")
        .register(metrics);
    Gauge.builder("sluice.grpc.pending.bytes.peak", peak, AtomicLong::get).baseUnit("bytes")
        .description("The most bytes one gRPC connection has held")
        .register(metrics);
  }

  /** A connection holds {@code bytes} more, {@code connectionHeld} in all. */
  void held(long bytes, long connectionHeld) {
    now.addAndGet(bytes);
    peak.accumulateAndGet(connectionHeld, Math::max);
  }

  void released(long bytes) {
    now.addAndGet(-bytes);
  }
}
