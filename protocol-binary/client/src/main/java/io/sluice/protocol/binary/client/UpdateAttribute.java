package io.sluice.protocol.binary.client;

import io.sluice.protocol.binary.codec.Request;

/** What an UPDATE changes (spec §2.3). */
public enum UpdateAttribute {
  QUOTA(Request.Update.ATTRIBUTE_QUOTA),
  TTL(Request.Update.ATTRIBUTE_TTL);

  private final int code;

  UpdateAttribute(int code) {
    this.code = code;
  }

  public int code() {
    return code;
  }
}
