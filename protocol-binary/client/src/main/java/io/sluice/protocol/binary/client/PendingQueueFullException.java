package io.sluice.protocol.binary.client;

/**
 * The request was not sent because {@link ThrottrClientOptions#getMaxPending()} requests already
 * wait for their replies. Retry once some of them have completed.
 */
public class PendingQueueFullException extends ThrottrClientException {

  public PendingQueueFullException(String message) {
    super(message);
  }
}
