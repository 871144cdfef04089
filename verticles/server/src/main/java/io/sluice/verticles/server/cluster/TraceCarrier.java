package io.sluice.verticles.server.cluster;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;

import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Carries a request's trace across a cluster hop. A batch is dispatched within its request's trace,
 * but the message to its owner node is sent later, in the event loop's own turn, where no trace is
 * current; made current again around the send, Vert.x's tracer opens the hop's span in it and puts
 * its traceparent on the message, which the owner node continues. One message carries the batches
 * of many requests and can have only one parent: the first traced one's. Without tracing no
 * context holds a span and the send runs as it is.
 */
final class TraceCarrier {

  private TraceCarrier() {
  }

  /** Runs {@code send} in the first trace of {@code parcel} that holds a span, else as it is. */
  static <W, T> T within(List<W> parcel, Function<W, Context> traceOf, Supplier<T> send) {
    for (W waiting : parcel) {
      Context trace = traceOf.apply(waiting);
      if (Span.fromContext(trace).getSpanContext().isValid()) {
        try (Scope ignored = trace.makeCurrent()) {
          return send.get();
        }
      }
    }
    return send.get();
  }
}
