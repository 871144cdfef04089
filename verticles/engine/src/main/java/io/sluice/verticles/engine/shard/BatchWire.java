package io.sluice.verticles.engine.shard;

import io.netty.buffer.ByteBuf;
import io.sluice.protocol.binary.codec.Request;
import io.sluice.protocol.binary.codec.RequestDecoder;
import io.sluice.protocol.binary.codec.RequestEncoder;
import io.sluice.protocol.binary.codec.ValueSize;

import java.nio.charset.StandardCharsets;

/**
 * {@link ShardBatch}es as bytes, for a key's owner on another node: the entries there, their
 * results back, so the sender's batch ends up filled exactly as if its shard were local. Throttr
 * requests travel in their wire form, {@link KeyLookup}s as their key, {@link ShardTask}s and
 * {@link ShardScan}s (whole or sliced) through their codec; store work stays on its node
 * ({@link #canTravel}).
 *
 * <p>Layout (little-endian): a batch is {@code u8 version, u16 route, u16 entries, u8 gathered},
 * then per entry ({@code u16 partition} first in a {@linkplain ShardBatch#gathered gathered}
 * batch, whose entries are all requests) {@code u8 1, u32 length, request}, {@code u8 2, u8 task codec id, task}, {@code u8 3, u16 length,
 * key}, {@code u8 4, u8 scan codec id, scan} or {@code u8 5, u8 scan codec id, u32 cursor, scan}
 * (the ids are each codec's fixed {@link TaskCodec#id} and {@link ScanCodec#id}). Its results
 * are {@code u8 not-run}, then per entry {@code u8 state} (0 ran, 1 failed then {@code u16 length,
 * message}, 2 not run: its partition is not served there, and nothing else follows) and, for a
 * request run or failed and for the others when run, the entry's result: a request's {@code u32 length,
 * reply} and {@code u8 listing kind, items}; a task's or a scan's codec result; a lookup's
 * {@code u8 found} and the record's detail; a slice's {@code u32 cursor} then its scan's result.
 */
public final class BatchWire {

  /** The layout's version, first in each batch: raised whenever the layout changes. */
  public static final int VERSION = 2;

  private static final int RAN = 0;
  private static final int FAILED = 1;
  private static final int NOT_RUN = 2;

  private static final byte REQUEST = 1;
  private static final byte TASK = 2;
  private static final byte LOOKUP = 3;
  private static final byte SCAN = 4;
  private static final byte SLICE = 5;

  private final ValueSize size;
  private final TaskCodecs tasks;

  public BatchWire(ValueSize size, TaskCodecs tasks) {
    this.size = size;
    this.tasks = tasks;
  }

  /** True when every entry can run on another node: Throttr requests, lookups, tasks and scans with a codec. */
  public boolean canTravel(ShardBatch batch) {
    Travels travels = new Travels();
    for (int i = 0; i < batch.size() && travels.yes; i++) {
      batch.entry(i).accept(travels, i);
    }
    return travels.yes;
  }

  /** Appends the batch's entries. */
  public void writeBatch(ByteBuf out, ShardBatch batch) {
    out.writeByte(VERSION);
    out.writeShortLE(batch.route());
    out.writeShortLE(batch.size());
    out.writeBoolean(batch.isGathered());
    EntryWriter writer = new EntryWriter(out, batch);
    for (int i = 0; i < batch.size(); i++) {
      if (batch.isGathered()) {
        out.writeShortLE(batch.partitionOf(i));
      }
      batch.entry(i).accept(writer, i);
    }
  }

  /**
   * Reads one batch written by {@link #writeBatch}, to run here.
   *
   * @throws IllegalArgumentException when the batch is of another {@link #VERSION} (a node of
   *                                  another release): it is refused whole, never misread
   */
  public ShardBatch readBatch(ByteBuf in) {
    int version = in.readUnsignedByte();
    if (version != VERSION) {
      throw new IllegalArgumentException("a batch of wire version " + version + " cannot be read by this node,"
          + " which reads version " + VERSION + " (are the cluster's nodes of different releases?)");
    }
    int route = in.readUnsignedShortLE();
    int entries = in.readUnsignedShortLE();
    boolean gathered = in.readBoolean();
    ShardBatch batch = gathered ? ShardBatch.gathered(route) : new ShardBatch(route);
    for (int i = 0; i < entries; i++) {
      int partition = gathered ? in.readUnsignedShortLE() : route;
      byte kind = in.readByte();
      if (gathered && kind != REQUEST) {
        throw new IllegalArgumentException("a gathered batch carries Throttr requests only, not entry kind " + kind);
      }
      switch (kind) {
        case REQUEST: {
          int length = in.readIntLE();
          Request request = RequestDecoder.parse(in, in.readerIndex(), length, size);
          if (gathered) {
            batch.add(request, partition);
          } else {
            batch.add(request);
          }
          in.skipBytes(length);
          break;
        }
        case TASK:
          batch.add(tasks.codec(in.readUnsignedByte()).readTask(in));
          break;
        case LOOKUP:
          batch.add(new KeyLookup(readBytes(in)));
          break;
        case SCAN:
          batch.add(tasks.scanCodec(in.readUnsignedByte()).readScan(in));
          break;
        case SLICE: {
          ScanCodec<ShardScan> codec = tasks.scanCodec(in.readUnsignedByte());
          int cursor = in.readIntLE();
          batch.add(new SlicedScan(codec.readScan(in), cursor));
          break;
        }
        default:
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
    ResultWriter writer = new ResultWriter(out, batch);
    for (int i = 0; i < batch.size(); i++) {
      Throwable failure = batch.failure(i);
      if (batch.notRun(i)) {
        out.writeByte(NOT_RUN);
        writer.skip(i);
        continue;
      }
      out.writeByte(failure != null ? FAILED : RAN);
      if (failure != null) {
        writeString(out, String.valueOf(failure));
      }
      writer.slot = i;
      batch.entry(i).accept(writer, i);
    }
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
    ResultReader reader = new ResultReader(in, batch, batch.startReplies());
    for (int i = 0; i < batch.size(); i++) {
      int state = in.readUnsignedByte();
      if (state == NOT_RUN) {
        batch.markNotRun(i);
        batch.endReply(i);
        continue;
      }
      Throwable failure = state == FAILED ? new RemoteFailure(readString(in)) : null;
      if (failure != null) {
        batch.fail(i, failure);
      }
      reader.slot = i;
      reader.failure = failure;
      batch.entry(i).accept(reader, i);
      batch.endReply(i);
    }
    return true;
  }

  /** Whether every entry visited can travel: store work and work without a codec stay here. */
  private final class Travels implements ShardWork.Kinds {

    private boolean yes = true;

    @Override
    public void request(int slot) {
    }

    @Override
    public void task(ShardTask task) {
      yes = tasks.codecOf(task) != null;
    }

    @Override
    public void lookup(KeyLookup lookup) {
    }

    @Override
    public void scan(ShardScan scan) {
      yes = tasks.codecOf(scan) != null;
    }

    @Override
    public void slice(SlicedScan slice) {
      yes = tasks.codecOf(slice.scan()) != null;
    }

    @Override
    public void storeWork(StoreWork work) {
      yes = false;
    }
  }

  /** Writes each entry visited, its kind first. */
  private final class EntryWriter implements ShardWork.Kinds {

    private final ByteBuf out;
    private final ShardBatch batch;

    EntryWriter(ByteBuf out, ShardBatch batch) {
      this.out = out;
      this.batch = batch;
    }

    @Override
    public void request(int slot) {
      Request request = batch.request(slot);
      out.writeByte(REQUEST);
      int lengthAt = out.writerIndex();
      out.writeIntLE(0);
      RequestEncoder.encode(out, size, request);
      out.setIntLE(lengthAt, out.writerIndex() - lengthAt - 4);
    }

    @Override
    public void task(ShardTask task) {
      TaskCodec<ShardTask> codec = tasks.codecOf(task);
      out.writeByte(TASK);
      out.writeByte(codec.id());
      codec.writeTask(out, task);
    }

    @Override
    public void lookup(KeyLookup lookup) {
      out.writeByte(LOOKUP);
      writeBytes(out, lookup.keyBytes());
    }

    @Override
    public void scan(ShardScan scan) {
      ScanCodec<ShardScan> codec = tasks.codecOf(scan);
      out.writeByte(SCAN);
      out.writeByte(codec.id());
      codec.writeScan(out, scan);
    }

    @Override
    public void slice(SlicedScan slice) {
      ScanCodec<ShardScan> codec = tasks.codecOf(slice.scan());
      out.writeByte(SLICE);
      out.writeByte(codec.id());
      out.writeIntLE(slice.cursor());
      codec.writeScan(out, slice.scan());
    }

    @Override
    public void storeWork(StoreWork work) {
      throw new IllegalArgumentException("store work does not travel: " + work.getClass().getName());
    }
  }

  /**
   * Writes the result of each entry visited: a request's {@code u32 length, reply} and listing
   * always; the others' only when they did not fail.
   */
  private final class ResultWriter implements ShardWork.Kinds {

    private final ByteBuf out;
    private final ShardBatch batch;
    private int slot;
    private int replyStart;

    ResultWriter(ByteBuf out, ShardBatch batch) {
      this.out = out;
      this.batch = batch;
    }

    private boolean failed() {
      return batch.failure(slot) != null;
    }

    /** Entry {@code slot} was not run: its (empty) reply is passed over. */
    void skip(int slot) {
      replyStart = batch.replyEnd(slot);
    }

    @Override
    public void request(int slot) {
      int end = batch.replyEnd(slot);
      out.writeIntLE(end - replyStart);
      out.writeBytes(batch.replies(), replyStart, end - replyStart);
      replyStart = end;
      ListingWire.write(out, batch.collected(slot));
    }

    @Override
    public void task(ShardTask task) {
      if (!failed()) {
        tasks.codecOf(task).writeResult(out, task);
      }
    }

    @Override
    public void lookup(KeyLookup lookup) {
      if (!failed()) {
        KeyDetailWire.write(out, lookup.detail());
      }
    }

    @Override
    public void scan(ShardScan scan) {
      if (!failed()) {
        tasks.codecOf(scan).writeResult(out, scan);
      }
    }

    @Override
    public void slice(SlicedScan slice) {
      if (!failed()) {
        out.writeIntLE(slice.cursor());
        tasks.codecOf(slice.scan()).writeResult(out, slice.scan());
      }
    }

    @Override
    public void storeWork(StoreWork work) {
      throw new IllegalArgumentException("store work does not travel: " + work.getClass().getName());
    }
  }

  /** Reads back what {@link ResultWriter} wrote, into the sender's entries. */
  private final class ResultReader implements ShardWork.Kinds {

    private final ByteBuf in;
    private final ShardBatch batch;
    private final ByteBuf replies;
    private int slot;
    private Throwable failure;

    ResultReader(ByteBuf in, ShardBatch batch, ByteBuf replies) {
      this.in = in;
      this.batch = batch;
      this.replies = replies;
    }

    @Override
    public void request(int slot) {
      replies.writeBytes(in, in.readIntLE());
      ShardListing listing = ListingWire.read(in);
      if (listing != null) {
        batch.collect(slot, listing);
      }
    }

    @Override
    public void task(ShardTask task) {
      if (failure != null) {
        task.failed(failure);
      } else {
        tasks.codecOf(task).readResult(in, task);
      }
    }

    @Override
    public void lookup(KeyLookup lookup) {
      KeyDetail detail = failure == null ? KeyDetailWire.read(in) : null;
      if (detail != null) {
        lookup.found(detail);
      }
    }

    @Override
    public void scan(ShardScan scan) {
      if (failure == null) {
        tasks.codecOf(scan).readResult(in, scan);
      }
    }

    @Override
    public void slice(SlicedScan slice) {
      if (failure == null) {
        slice.ranElsewhere(in.readIntLE());
        tasks.codecOf(slice.scan()).readResult(in, slice.scan());
      }
    }

    @Override
    public void storeWork(StoreWork work) {
      throw new IllegalArgumentException("store work does not travel: " + work.getClass().getName());
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
