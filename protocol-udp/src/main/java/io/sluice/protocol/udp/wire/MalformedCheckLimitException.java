package io.sluice.protocol.udp.wire;

/**
 * The argument of {@code check_limit} is not usable: not UTF-8, not JSON, or JSON that is neither an
 * object nor {@code null}. The original server died on such input; Sluice sends no reply.
 */
public final class MalformedCheckLimitException extends Exception {

  private static final long serialVersionUID = 1L;

  public MalformedCheckLimitException(String reason) {
    super(reason);
  }
}
