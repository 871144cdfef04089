package io.sluice.protocol.binary.codec;

/** Request type bytes (spec §1.3). 0x0A–0x0F are unused; codes above 0x19 do not exist. */
public enum RequestType {
  INSERT(0x01), QUERY(0x02), UPDATE(0x03), PURGE(0x04), SET(0x05), GET(0x06), LIST(0x07),
  INFO(0x08), STAT(0x09), STATS(0x10), SUBSCRIBE(0x11), UNSUBSCRIBE(0x12), PUBLISH(0x13),
  CONNECTIONS(0x14), CONNECTION(0x15), CHANNELS(0x16), CHANNEL(0x17), WHOAMI(0x18), EVENT(0x19);

  private static final RequestType[] BY_CODE = new RequestType[0x20];

  static {
    for (RequestType type : values()) {
      BY_CODE[type.code] = type;
    }
  }

  private final int code;

  RequestType(int code) {
    this.code = code;
  }

  public int code() {
    return code;
  }

  /** The type for a wire byte, or {@code null} when the byte names no request. */
  public static RequestType ofCode(int code) {
    return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
  }
}
