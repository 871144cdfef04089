package io.sluice.protocol.binary.client;

/** A request could not get the answer its caller asked for. */
public class ThrottrClientException extends RuntimeException {

  public ThrottrClientException(String message) {
    super(message);
  }
}
