package io.sluice.protocol.udp.wire;

import java.util.Objects;

/**
 * One recognised request.
 *
 * @param requestId the digits that prefixed the request, exactly as sent (leading zeros kept, any
 *                  length), or {@code null} when the request had no id
 * @param command   what is asked
 */
public record UdpRequest(String requestId, UdpCommand command) {

  public UdpRequest {
    Objects.requireNonNull(command, "command");
  }

  public boolean hasRequestId() {
    return requestId != null;
  }
}
