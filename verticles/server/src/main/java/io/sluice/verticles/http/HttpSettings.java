package io.sluice.verticles.http;

import java.util.List;
import java.util.Optional;

/**
 * The HTTP front: one port for the WebSocket bridge (and, as they land, the dashboard, the check
 * API and metrics).
 *
 * @param allowedOrigins browser origins allowed to open a WebSocket; empty means same origin only,
 *                       {@code *} allows any
 * @param authToken      when present, every HTTP and WebSocket client must present it
 */
public record HttpSettings(int port, List<String> allowedOrigins, Optional<String> authToken) {
}
