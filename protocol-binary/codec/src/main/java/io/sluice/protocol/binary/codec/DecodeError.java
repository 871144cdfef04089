package io.sluice.protocol.binary.codec;

/** Why a byte stream cannot be decoded any further. The connection must be closed. */
public record DecodeError(Reason reason, String message) {

  public enum Reason {
    UNKNOWN_TYPE, FRAME_TOO_LARGE, EVENT_TOO_DEEP, PARTIAL_FRAMES_OVER_LIMIT
  }
}
