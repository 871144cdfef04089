package io.sluice.verticles.server.listener;

import io.sluice.protocol.binary.codec.PartialFrameBudget;

/**
 * What one client connection may hold, whichever front carries it: the Throttr TCP front and the
 * WebSocket bridge apply the same bounds, and the HTTP front caps a WebSocket message at the frame.
 *
 * @param maxFrame           the largest request frame accepted; a larger one closes the connection
 * @param maxPendingBytes    what the server holds for one client (requests waiting for their replies,
 *                           replies assembled or queued in the socket) before it stops reading from it
 * @param maxPendingRequests requests decoded but not answered before the server stops reading
 * @param partialFrames      the budget that every connection's incomplete frame is held against:
 *                           ONE object, shared by every front of the server
 * @param maxSubscriptions   subscription records one connection may hold ({@code *} and its own ID
 *                           included); a SUBSCRIBE past it answers 00
 */
public record ConnectionLimits(int maxFrame, int maxPendingBytes, int maxPendingRequests, PartialFrameBudget partialFrames,
                               int maxSubscriptions) {

  /** What {@code --max-partial-bytes} defaults to: 64 MiB. */
  public static final long DEFAULT_MAX_PARTIAL_BYTES = 64L * 1024 * 1024;

  /** What {@code --max-subscriptions} defaults to. */
  public static final int DEFAULT_MAX_SUBSCRIPTIONS = 10_000;

  /** Limits with the default cap on subscriptions. */
  public ConnectionLimits(int maxFrame, int maxPendingBytes, int maxPendingRequests, PartialFrameBudget partialFrames) {
    this(maxFrame, maxPendingBytes, maxPendingRequests, partialFrames, DEFAULT_MAX_SUBSCRIPTIONS);
  }

  /** Limits with a budget of its own for incomplete frames, of the default size. */
  public ConnectionLimits(int maxFrame, int maxPendingBytes, int maxPendingRequests) {
    this(maxFrame, maxPendingBytes, maxPendingRequests, new PartialFrameBudget(DEFAULT_MAX_PARTIAL_BYTES));
  }
}
