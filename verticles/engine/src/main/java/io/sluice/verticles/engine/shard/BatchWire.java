package io.sluice.verticles.engine.shard;

import io.netty.buffer.ByteBuf;
import io.sluice.protocol.binary.codec.Listing;
import io.sluice.protocol.binary.codec.Request;
import io.sluice.protocol.binary.codec.RequestDecoder;
import io.sluice.protocol.binary.codec.RequestEncoder;
import io.sluice.protocol.binary.codec.ValueSize;

import java.nio.charset.StandardCharsets;
import io.sluice.verticles.engine.storage.Eviction;
import io.sluice.verticles.engine.storage.StoreLimits;

import java.util.ArrayList;
import java.util.List;

/**
 * {@link ShardBatch}es as bytes, for a key's owner on another node: the entries there, their
 * results back, so the sender's batch ends up filled exactly as if its shard were local. Throttr
 * requests travel in their wire form, {@link KeyLookup}s as their key, {@link ShardTask}s and
 * {@link ShardScan}s (whole or sliced) through their codec; store work stays on its node
 * ({@link #canTravel}).
 *
 * <p>Layout (little-endian): a batch is {@code u16 route, u16 entries}, then per entry {@code u8 1,
 * u32 length, request}, {@code u8 2, u8 codec kind, task}, {@code u8 3, u16 length, key},
 * {@code u8 4, u8 scan kind, scan} or {@code u8 5, u8 scan kind, u32 cursor, scan}. Its results
 * are {@code u8 not-run}, then per entry {@code u8 failed [u16 length, message]} and, for a request
 * always and for the others when not failed, the entry's result: a request's {@code u32 length,
 * reply} and {@code u8 listing kind, items}; a task's or a scan's codec result; a lookup's
 * {@code u8 found} and the record's detail; a slice's {@code u32 cursor} then its scan's result.
 */
public final class BatchWire {

  private static final byte REQUEST = 1;
  private static final byte TASK = 2;
  private static final byte LOOKUP = 3;
  private static final byte SCAN = 4;
  private static final byte SLICE = 5;
  private static final byte NO_LISTING = 0;
  private static final byte KEYS = 1;
  private static final byte KEY_STATS = 2;
  private static final byte SUMMARY = 3;

  private final ValueSize size;
  private final TaskCodecs tasks;

  public BatchWire(ValueSize size, TaskCodecs tasks) {
    this.size = size;
    this.tasks = tasks;
  }

  /** True when every entry can run on another node: Throttr requests, lookups, tasks and scans with a codec. */
  public boolean canTravel(ShardBatch batch) {
    for (int i = 0; i < batch.size(); i++) {
      Object entry = batch.entry(i);
      boolean travels = entry instanceof Request || entry instanceof KeyLookup
          || entry instanceof ShardTask task && tasks.kindOf(task) >= 0
          || entry instanceof ShardScan scan && tasks.kindOf(scan) >= 0
          || entry instanceof SlicedScan sliced && tasks.kindOf(sliced.scan()) >= 0;
      if (!travels) {
        return false;
      }
    }
    return true;
  }

  /** Appends the batch's entries. */
  public void writeBatch(ByteBuf out, ShardBatch batch) {
    out.writeShortLE(batch.shard());
    out.writeShortLE(batch.size());
    for (int i = 0; i < batch.size(); i++) {
      Object entry = batch.entry(i);
      if (entry instanceof Request request) {
        out.writeByte(REQUEST);
        int lengthAt = out.writerIndex();
        out.writeIntLE(0);
        RequestEncoder.encode(out, size, request);
        out.setIntLE(lengthAt, out.writerIndex() - lengthAt - 4);
      } else if (entry instanceof ShardTask task) {
        int kind = tasks.kindOf(task);
        out.writeByte(TASK);
        out.writeByte(kind);
        writeTask(out, tasks.codec(kind), task);
      } else if (entry instanceof KeyLookup lookup) {
        out.writeByte(LOOKUP);
        writeBytes(out, lookup.keyBytes());
      } else if (entry instanceof ShardScan scan) {
        out.writeByte(SCAN);
        writeScan(out, scan);
      } else {
        SlicedScan sliced = (SlicedScan) entry;
        out.writeByte(SLICE);
        int kind = tasks.kindOf(sliced.scan());
        out.writeByte(kind);
        out.writeIntLE(sliced.cursor());
        scanCodec(kind).writeScan(out, sliced.scan());
      }
    }
  }

  private void writeScan(ByteBuf out, ShardScan scan) {
    int kind = tasks.kindOf(scan);
    out.writeByte(kind);
    scanCodec(kind).writeScan(out, scan);
  }

  private ScanCodec<ShardScan> scanCodec(int kind) {
    return tasks.scanCodec(kind);
  }

  @SuppressWarnings("unchecked")
  private static <T extends ShardTask> void writeTask(ByteBuf out, TaskCodec<T> codec, ShardTask task) {
    codec.writeTask(out, (T) task);
  }

  /** Reads one batch written by {@link #writeBatch}, to run here. */
  public ShardBatch readBatch(ByteBuf in) {
    ShardBatch batch = new ShardBatch(in.readUnsignedShortLE());
    int entries = in.readUnsignedShortLE();
    for (int i = 0; i < entries; i++) {
      byte kind = in.readByte();
      if (kind == REQUEST) {
        int length = in.readIntLE();
        batch.add(RequestDecoder.parse(in, in.readerIndex(), length, size));
        in.skipBytes(length);
      } else if (kind == TASK) {
        batch.add(tasks.codec(in.readUnsignedByte()).readTask(in));
      } else if (kind == LOOKUP) {
        batch.add(new KeyLookup(readBytes(in)));
      } else if (kind == SCAN) {
        batch.add(scanCodec(in.readUnsignedByte()).readScan(in));
      } else if (kind == SLICE) {
        ScanCodec<ShardScan> codec = scanCodec(in.readUnsignedByte());
        int cursor = in.readIntLE();
        batch.add(new SlicedScan(codec.readScan(in), cursor));
      } else {
        throw new IllegalArgumentException("unknown batch entry kind " + kind);
      }
    }
    return batch;
  }

  /** Appends the results of a batch that ran here (or was refused: see {@link ShardBatch#notRun}). */
  public void writeResults(ByteBuf out, ShardBatch batch) {
    out.writeBoolean(batch.notRun());
    if (batch.notRun()) {
      return;
    }
    int replyStart = 0;
    for (int i = 0; i < batch.size(); i++) {
      Throwable failure = batch.failure(i);
      out.writeBoolean(failure != null);
      if (failure != null) {
        writeString(out, String.valueOf(failure));
      }
      Object entry = batch.entry(i);
      if (entry instanceof Request) {
        int end = batch.replyEnd(i);
        out.writeIntLE(end - replyStart);
        out.writeBytes(batch.replies(), replyStart, end - replyStart);
        replyStart = end;
        writeListing(out, batch.collected(i));
      } else if (failure == null) {
        writeResult(out, entry);
      }
    }
  }

  private void writeResult(ByteBuf out, Object entry) {
    if (entry instanceof ShardTask task) {
      writeResult(out, tasks.codec(tasks.kindOf(task)), task);
    } else if (entry instanceof KeyLookup lookup) {
      writeDetail(out, lookup.detail());
    } else if (entry instanceof ShardScan scan) {
      scanCodec(tasks.kindOf(scan)).writeResult(out, scan);
    } else {
      SlicedScan sliced = (SlicedScan) entry;
      out.writeIntLE(sliced.cursor());
      scanCodec(tasks.kindOf(sliced.scan())).writeResult(out, sliced.scan());
    }
  }

  private void readResult(ByteBuf in, Object entry) {
    if (entry instanceof ShardTask task) {
      tasks.codec(tasks.kindOf(task)).readResult(in, cast(task));
    } else if (entry instanceof KeyLookup lookup) {
      KeyDetail detail = readDetail(in);
      if (detail != null) {
        lookup.found(detail);
      }
    } else if (entry instanceof ShardScan scan) {
      scanCodec(tasks.kindOf(scan)).readResult(in, scan);
    } else {
      SlicedScan sliced = (SlicedScan) entry;
      sliced.ranElsewhere(in.readIntLE());
      scanCodec(tasks.kindOf(sliced.scan())).readResult(in, sliced.scan());
    }
  }

  private static void writeDetail(ByteBuf out, KeyDetail detail) {
    out.writeBoolean(detail != null);
    if (detail == null) {
      return;
    }
    writeBytes(out, detail.key());
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

  private static KeyDetail readDetail(ByteBuf in) {
    if (!in.readBoolean()) {
      return null;
    }
    byte[] key = readBytes(in);
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

  @SuppressWarnings("unchecked")
  private static <T extends ShardTask> void writeResult(ByteBuf out, TaskCodec<T> codec, ShardTask task) {
    codec.writeResult(out, (T) task);
  }

  /**
   * Fills the sender's {@code batch} with the results {@link #writeResults} wrote for it.
   *
   * @return false when the owner refused it unrun: it may be sent again
   */
  public boolean readResults(ByteBuf in, ShardBatch batch) {
    if (in.readBoolean()) {
      return false;
    }
    ByteBuf replies = batch.startReplies();
    for (int i = 0; i < batch.size(); i++) {
      Throwable failure = in.readBoolean() ? new RemoteFailure(readString(in)) : null;
      if (failure != null) {
        batch.fail(i, failure);
      }
      Object entry = batch.entry(i);
      if (entry instanceof Request) {
        int length = in.readIntLE();
        replies.writeBytes(in, length);
        Object listing = readListing(in);
        if (listing != null) {
          batch.collect(i, listing);
        }
      } else if (failure != null) {
        if (entry instanceof ShardTask task) {
          task.failed(failure);
        }
      } else {
        readResult(in, entry);
      }
      batch.endReply(i);
    }
    return true;
  }

  @SuppressWarnings("unchecked")
  private static <T extends ShardTask> T cast(ShardTask task) {
    return (T) task;
  }

  private static void writeListing(ByteBuf out, Object collected) {
    if (collected instanceof ShardSummary summary) {
      out.writeByte(SUMMARY);
      out.writeLongLE(summary.records());
      out.writeLongLE(summary.counters());
      out.writeLongLE(summary.buffers());
      out.writeLongLE(summary.bufferBytes());
      out.writeLongLE(summary.expiredReclaimed());
      out.writeLongLE(summary.estimatedBytes());
      out.writeLongLE(summary.evictedForKeys());
      out.writeLongLE(summary.evictedForMemory());
      out.writeLongLE(summary.rejected());
      out.writeLongLE(summary.limits().maxRecords());
      out.writeLongLE(summary.limits().maxBytes());
      out.writeByte(summary.limits().eviction().ordinal());
    } else if (collected instanceof List<?> items && (items.isEmpty() || items.get(0) instanceof Listing.KeyItem)) {
      out.writeByte(KEYS);
      out.writeIntLE(items.size());
      for (Object item : items) {
        Listing.KeyItem key = (Listing.KeyItem) item;
        writeBytes(out, key.key());
        out.writeByte(key.keyType());
        out.writeByte(key.ttlType());
        out.writeLongLE(key.expiresAtNanos());
        out.writeLongLE(key.bytesUsed());
      }
    } else if (collected instanceof List<?> items) {
      out.writeByte(KEY_STATS);
      out.writeIntLE(items.size());
      for (Object item : items) {
        Listing.KeyStatsItem stats = (Listing.KeyStatsItem) item;
        writeBytes(out, stats.key());
        out.writeLongLE(stats.readsPerMinute());
        out.writeLongLE(stats.writesPerMinute());
        out.writeLongLE(stats.totalReads());
        out.writeLongLE(stats.totalWrites());
      }
    } else {
      out.writeByte(NO_LISTING);
    }
  }

  private static Object readListing(ByteBuf in) {
    byte kind = in.readByte();
    switch (kind) {
      case SUMMARY:
        return new ShardSummary(in.readLongLE(), in.readLongLE(), in.readLongLE(), in.readLongLE(), in.readLongLE(),
            in.readLongLE(), in.readLongLE(), in.readLongLE(), in.readLongLE(),
            new StoreLimits(in.readLongLE(), in.readLongLE(), Eviction.values()[in.readUnsignedByte()]));
      case KEYS: {
        int count = in.readIntLE();
        List<Listing.KeyItem> items = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
          items.add(new Listing.KeyItem(readBytes(in), in.readUnsignedByte(), in.readUnsignedByte(), in.readLongLE(),
              in.readLongLE()));
        }
        return items;
      }
      case KEY_STATS: {
        int count = in.readIntLE();
        List<Listing.KeyStatsItem> items = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
          items.add(new Listing.KeyStatsItem(readBytes(in), in.readLongLE(), in.readLongLE(), in.readLongLE(),
              in.readLongLE()));
        }
        return items;
      }
      default:
        return null;
    }
  }

  /** Writes {@code u16 length, bytes}: a key or a short argument. */
  public static void writeBytes(ByteBuf out, byte[] bytes) {
    out.writeShortLE(bytes.length);
    out.writeBytes(bytes);
  }

  public static byte[] readBytes(ByteBuf in) {
    byte[] bytes = new byte[in.readUnsignedShortLE()];
    in.readBytes(bytes);
    return bytes;
  }

  public static void writeString(ByteBuf out, String text) {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    writeBytes(out, bytes.length > 0xffff ? java.util.Arrays.copyOf(bytes, 0xffff) : bytes);
  }

  public static String readString(ByteBuf in) {
    return new String(readBytes(in), StandardCharsets.UTF_8);
  }

  /** What an entry threw on the owner, as the owner described it. */
  public static final class RemoteFailure extends RuntimeException {
    RemoteFailure(String message) {
      super("on the key's owner: " + message, null, false, false);
    }
  }
}
