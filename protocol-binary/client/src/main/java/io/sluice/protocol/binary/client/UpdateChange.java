package io.sluice.protocol.binary.client;

import io.sluice.protocol.binary.codec.Request;

/** How an UPDATE applies its value (spec §2.3). */
public enum UpdateChange {
  PATCH(Request.Update.CHANGE_PATCH),
  INCREASE(Request.Update.CHANGE_INCREASE),
  DECREASE(Request.Update.CHANGE_DECREASE);

  private final int code;

  UpdateChange(int code) {
    this.code = code;
  }

  public int code() {
    return code;
  }
}
