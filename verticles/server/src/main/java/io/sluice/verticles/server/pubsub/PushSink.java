package io.sluice.verticles.server.pubsub;

/** Where a connection's pushed messages go: its socket, in the front's own framing. */
public interface PushSink {

  /**
   * Sends one message to the client, or drops it when the client is not reading fast enough.
   *
   * @return false when the message was dropped
   */
  boolean push(ChannelMessage message);
}
