package io.sluice.protocol.binary.client;

/** The connection closed before the reply arrived, or was already closed when the request was made. */
public class ConnectionClosedException extends ThrottrClientException {

  public ConnectionClosedException(String message) {
    super(message);
  }
}
