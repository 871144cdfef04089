package io.sluice.verticles.engine.shard;

import io.netty.buffer.ByteBuf;

/** A {@link KeyLookup}'s result in {@link BatchWire}'s results: {@code u8 found}, then the record's {@link KeyDetail}. */
final class KeyDetailWire {

  private KeyDetailWire() {
  }

  static void write(ByteBuf out, KeyDetail detail) {
    out.writeBoolean(detail != null);
    if (detail == null) {
      return;
    }
    BatchWire.writeBytes(out, detail.key());
    out.writeBoolean(detail.counter());
    out.writeByte(detail.ttlType());
    out.writeLongLE(detail.ttl());
    out.writeLongLE(detail.expiresAtNanos());
    out.writeLongLE(detail.quota());
    out.writeIntLE(detail.buffer().length);
    out.writeBytes(detail.buffer());
    out.writeLongLE(detail.readsPerMinute());
    out.writeLongLE(detail.writesPerMinute());
    out.writeLongLE(detail.totalReads());
    out.writeLongLE(detail.totalWrites());
  }

  static KeyDetail read(ByteBuf in) {
    if (!in.readBoolean()) {
      return null;
    }
    byte[] key = BatchWire.readBytes(in);
    boolean counter = in.readBoolean();
    int ttlType = in.readUnsignedByte();
    long ttl = in.readLongLE();
    long expiresAtNanos = in.readLongLE();
    long quota = in.readLongLE();
    byte[] buffer = new byte[in.readIntLE()];
    in.readBytes(buffer);
    return new KeyDetail(key, counter, ttlType, ttl, expiresAtNanos, quota, buffer, in.readLongLE(), in.readLongLE(),
        in.readLongLE(), in.readLongLE());
  }
}
