package io.sluice.protocol.binary.codec;

import io.netty.buffer.ByteBuf;

/**
 * One connection as CONNECTION and CONNECTIONS describe it: 237 bytes (spec §6.2).
 *
 * @param requestCounts request totals indexed by type code (32 slots)
 */
public record ConnectionItem(
    byte[] id,
    int type,
    int kind,
    String ip,
    int port,
    long connectedAtNanos,
    long readBytes,
    long writeBytes,
    long publishedBytes,
    long receivedBytes,
    long[] requestCounts) {

  public static final int TYPE_CLIENT = 0x00;
  public static final int TYPE_AGENT = 0x01;
  public static final int KIND_TCP = 0x00;
  public static final int KIND_UNIX = 0x01;

  public void writeTo(ByteBuf out) {
    out.writeBytes(id, 0, 16);
    out.writeByte(type);
    out.writeByte(kind);
    out.writeByte(ip.indexOf(':') >= 0 ? 0x06 : 0x04);
    Responses.writePadded(out, ip, 16);
    out.writeShortLE(port);
    out.writeLongLE(connectedAtNanos);
    out.writeLongLE(readBytes);
    out.writeLongLE(writeBytes);
    out.writeLongLE(publishedBytes);
    out.writeLongLE(receivedBytes);
    out.writeLongLE(0); // allocated bytes: always 0 in the reference
    out.writeLongLE(0); // consumed bytes: always 0 in the reference
    for (RequestType counted : Responses.CONNECTION_COUNTER_ORDER) {
      out.writeLongLE(requestCounts[counted.code()]);
    }
  }
}
