package io.sluice.protocol.binary.codec.response;

/**
 * The reply stream no longer makes sense (a byte that starts no reply, a reply nobody asked for, a
 * length past 2 GiB). Replies are matched by position only, so nothing after this point can be
 * trusted: the connection must be closed.
 */
public class ResponseDecodeException extends RuntimeException {

  public ResponseDecodeException(String message) {
    super(message);
  }
}
