package io.sluice.verticles.engine.browse;

import io.netty.buffer.ByteBuf;
import io.sluice.verticles.engine.shard.BatchWire;
import io.sluice.verticles.engine.shard.ScanCodec;

import java.util.ArrayList;
import java.util.List;

/**
 * A key page's scan of a partition owned by another node: the search, the cursor and how many keys
 * to keep go; the counts and the kept keys come back and are added to the sender's scan.
 */
public final class KeyPageScanCodec implements ScanCodec<KeyPageScan> {

  /** Its wire id: fixed, see {@link ScanCodec#id}. */
  public static final int ID = 1;

  @Override
  public int id() {
    return ID;
  }

  @Override
  public Class<KeyPageScan> type() {
    return KeyPageScan.class;
  }

  @Override
  public void writeScan(ByteBuf out, KeyPageScan scan) {
    BatchWire.writeBytes(out, scan.search());
    out.writeBoolean(scan.after() != null);
    if (scan.after() != null) {
      BatchWire.writeBytes(out, scan.after());
    }
    out.writeIntLE(scan.keep());
  }

  @Override
  public KeyPageScan readScan(ByteBuf in) {
    byte[] search = BatchWire.readBytes(in);
    byte[] after = in.readBoolean() ? BatchWire.readBytes(in) : null;
    return new KeyPageScan(search, after, in.readIntLE());
  }

  @Override
  public void writeResult(ByteBuf out, KeyPageScan ran) {
    out.writeLongLE(ran.matching());
    out.writeLongLE(ran.atOrBeforeCursor());
    out.writeIntLE(ran.kept().size());
    for (KeySummary key : ran.kept()) {
      BatchWire.writeBytes(out, key.key());
      out.writeBoolean(key.counter());
      out.writeByte(key.ttlType());
      out.writeLongLE(key.expiresAtNanos());
      out.writeIntLE(key.valueBytes());
    }
  }

  @Override
  public void readResult(ByteBuf in, KeyPageScan original) {
    long matching = in.readLongLE();
    long atOrBeforeCursor = in.readLongLE();
    int count = in.readIntLE();
    List<KeySummary> kept = new ArrayList<>(Math.min(count, 1024));
    for (int i = 0; i < count; i++) {
      kept.add(new KeySummary(BatchWire.readBytes(in), in.readBoolean(), in.readUnsignedByte(), in.readLongLE(),
          in.readIntLE()));
    }
    original.absorb(matching, atOrBeforeCursor, kept);
  }
}
