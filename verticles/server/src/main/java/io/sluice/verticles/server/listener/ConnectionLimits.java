package io.sluice.verticles.server.listener;

import io.sluice.protocol.binary.codec.PartialFrameBudget;
import io.sluice.verticles.engine.channel.HistoryLimits;

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
 * @param history            what each channel's owner keeps of its past ({@code --channel-history},
 *                           {@code --channel-history-ttl}); {@link HistoryLimits#OFF} by default
 */
public record ConnectionLimits(int maxFrame, int maxPendingBytes, int maxPendingRequests, PartialFrameBudget partialFrames,
                               int maxSubscriptions, HistoryLimits history) {

  /** What {@code --max-partial-bytes} defaults to: 64 MiB. */
  public static final long DEFAULT_MAX_PARTIAL_BYTES = 64L * 1024 * 1024;

  /** What {@code --max-subscriptions} defaults to. */
  public static final int DEFAULT_MAX_SUBSCRIPTIONS = 10_000;

  /** What a connection may hold by default: the option table's {@code --max-frame} and {@code --max-pending-bytes}. */
  public static final int DEFAULT_MAX_FRAME = 8096;
  public static final int DEFAULT_MAX_PENDING_BYTES = 1 << 20;

  /** Requests decoded but unanswered on one connection before the server stops reading from it. */
  public static final int DEFAULT_MAX_PENDING_REQUESTS = 65_536;

  /** The defaults, with a budget of their own for incomplete frames. */
  public static ConnectionLimits defaults() {
    return new ConnectionLimits(DEFAULT_MAX_FRAME, DEFAULT_MAX_PENDING_BYTES, DEFAULT_MAX_PENDING_REQUESTS,
        new PartialFrameBudget(DEFAULT_MAX_PARTIAL_BYTES), DEFAULT_MAX_SUBSCRIPTIONS, HistoryLimits.OFF);
  }

  public ConnectionLimits withMaxFrame(int maxFrame) {
    return new ConnectionLimits(maxFrame, maxPendingBytes, maxPendingRequests, partialFrames, maxSubscriptions, history);
  }

  public ConnectionLimits withMaxPendingBytes(int maxPendingBytes) {
    return new ConnectionLimits(maxFrame, maxPendingBytes, maxPendingRequests, partialFrames, maxSubscriptions, history);
  }

  public ConnectionLimits withMaxPendingRequests(int maxPendingRequests) {
    return new ConnectionLimits(maxFrame, maxPendingBytes, maxPendingRequests, partialFrames, maxSubscriptions, history);
  }

  /** @param partialFrames the budget every front of the server shares: pass the same object to all */
  public ConnectionLimits withPartialFrames(PartialFrameBudget partialFrames) {
    return new ConnectionLimits(maxFrame, maxPendingBytes, maxPendingRequests, partialFrames, maxSubscriptions, history);
  }

  public ConnectionLimits withMaxSubscriptions(int maxSubscriptions) {
    return new ConnectionLimits(maxFrame, maxPendingBytes, maxPendingRequests, partialFrames, maxSubscriptions, history);
  }

  public ConnectionLimits withHistory(HistoryLimits history) {
    return new ConnectionLimits(maxFrame, maxPendingBytes, maxPendingRequests, partialFrames, maxSubscriptions, history);
  }
}
