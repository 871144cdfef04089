package io.sluice.verticles.server.grpc;

import java.util.concurrent.CompletionException;

/** What a failed decision failed with, out of the wrapping a {@link java.util.concurrent.CompletionStage} adds. */
final class RlsFailures {

  private RlsFailures() {
  }

  static Throwable unwrap(Throwable failure) {
    Throwable cause = failure;
    while (cause instanceof CompletionException && cause.getCause() != null) {
      cause = cause.getCause();
    }
    return cause;
  }
}
