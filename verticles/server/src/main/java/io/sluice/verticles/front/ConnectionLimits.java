package io.sluice.verticles.front;

/**
 * What one client connection may hold, whichever front carries it: the Throttr TCP front and the
 * WebSocket bridge apply the same bounds, and the HTTP front caps a WebSocket message at the frame.
 *
 * @param maxFrame           the largest request frame accepted; a larger one closes the connection
 * @param maxPendingBytes    reply bytes queued for a client before the server stops reading from it
 * @param maxPendingRequests requests decoded but not answered before the server stops reading
 */
public record ConnectionLimits(int maxFrame, int maxPendingBytes, int maxPendingRequests) {
}
