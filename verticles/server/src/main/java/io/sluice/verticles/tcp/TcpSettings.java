package io.sluice.verticles.tcp;

/**
 * Per-connection limits of the Throttr TCP front.
 *
 * @param maxFrame           the largest request frame accepted; a larger one closes the connection
 * @param maxPendingBytes    reply bytes queued for a client before the server stops reading from it
 * @param maxPendingRequests requests decoded but not answered before the server stops reading
 */
public record TcpSettings(int maxFrame, int maxPendingBytes, int maxPendingRequests) {
}
