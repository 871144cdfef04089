package io.sluice.verticles.server.grpc;

import java.util.concurrent.CompletionException;

/** What the rate limit service's {@link java.util.concurrent.CompletionStage} failed with. */
final class ServiceFailures {

  private ServiceFailures() {
  }

  /** The failure out of the {@link CompletionException}s a stage's dependents wrap it in. */
  static Throwable cause(Throwable failure) {
    Throwable cause = failure;
    while (cause instanceof CompletionException && cause.getCause() != null) {
      cause = cause.getCause();
    }
    return cause;
  }
}
