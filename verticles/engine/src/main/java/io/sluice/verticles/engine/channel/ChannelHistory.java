package io.sluice.verticles.engine.channel;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * The latest messages of one channel, each with its offset, and the channel's epoch. Offsets
 * increase by one per message and are never reused within an epoch; a new epoch is drawn when the
 * history is lost (never kept, evicted, expired), so that a client's offset from before cannot be
 * mistaken for one of the new history. Kept between uses as the bytes of one buffer record on the
 * channel's owner ({@link #encode}), so the memory bound, persistence and a cluster's backups see it
 * as any record. Not thread-safe: it lives on its shard's thread.
 */
public final class ChannelHistory {

  private static final byte FORMAT = 1;
  private static final int HEADER = 1 + 8 + 8 + 4;
  private static final byte[] KEY_PREFIX = "\0history:".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

  /** One kept message. */
  public record Entry(long offset, long atNanos, byte[] payload) {
  }

  private final long epoch;
  private long top;
  private final ArrayDeque<Entry> entries;

  private ChannelHistory(long epoch, long top, ArrayDeque<Entry> entries) {
    this.epoch = epoch;
    this.top = top;
    this.entries = entries;
  }

  /**
   * The key of a channel's history record: the name behind a NUL byte and {@code history:}, a key
   * no ordinary client picks by accident. It routes like any key, so a channel's history lives on
   * the owner of this key.
   */
  public static byte[] keyOf(byte[] channel) {
    byte[] key = new byte[KEY_PREFIX.length + channel.length];
    System.arraycopy(KEY_PREFIX, 0, key, 0, KEY_PREFIX.length);
    System.arraycopy(channel, 0, key, KEY_PREFIX.length, channel.length);
    return key;
  }

  /**
   * The history stored as {@code stored}, or a fresh one under {@code newEpoch} when there is none
   * or the record holds something else (a Throttr SET overwrote it: its history is lost).
   */
  public static ChannelHistory loadOrStart(byte[] stored, java.util.function.LongSupplier newEpoch) {
    if (stored != null) {
      try {
        return decode(stored);
      } catch (IllegalArgumentException notAHistory) {
        // lost: a new epoch tells clients so
      }
    }
    return fresh(newEpoch.getAsLong());
  }

  /** Whether {@code key} is a channel's history key ({@link #keyOf}). */
  public static boolean isHistoryKey(byte[] key) {
    return java.util.Arrays.equals(key, 0, Math.min(key.length, KEY_PREFIX.length), KEY_PREFIX, 0, KEY_PREFIX.length);
  }

  /** A new epoch, drawn at random; never 0, which stands for "no epoch". */
  public static long newEpoch() {
    long epoch;
    do {
      epoch = java.util.concurrent.ThreadLocalRandom.current().nextLong();
    } while (epoch == 0);
    return epoch;
  }

  /**
   * The same messages and offsets under {@code newEpoch}, for a copy whose latest messages may be
   * missing (a cluster backup that took over from an owner that crashed before they reached it):
   * the next offsets of this copy may then name other messages than a client saw under the old
   * epoch, so no offset of the old epoch may be taken for one of this copy's. The encoded form
   * keeps its size.
   */
  public ChannelHistory underNewEpoch(long newEpoch) {
    return new ChannelHistory(newEpoch, top, entries);
  }

  /** A history that starts now, empty, under a new {@code epoch}. */
  public static ChannelHistory fresh(long epoch) {
    return new ChannelHistory(epoch, 0, new ArrayDeque<>());
  }

  /**
   * The history stored as {@code stored}. Bytes of another shape (the key was overwritten by a
   * Throttr SET) are refused: the caller starts a fresh epoch over them.
   *
   * @throws IllegalArgumentException when {@code stored} is not a history
   */
  public static ChannelHistory decode(byte[] stored) {
    try {
      ByteBuffer in = ByteBuffer.wrap(stored);
      if (in.get() != FORMAT) {
        throw new IllegalArgumentException("not a channel history");
      }
      long epoch = in.getLong();
      long top = in.getLong();
      int count = in.getInt();
      if (count < 0 || count > top) {
        throw new IllegalArgumentException("not a channel history");
      }
      ArrayDeque<Entry> entries = new ArrayDeque<>(count);
      for (long offset = top - count + 1; offset <= top; offset++) {
        long at = in.getLong();
        byte[] payload = new byte[in.getInt()];
        in.get(payload);
        entries.add(new Entry(offset, at, payload));
      }
      if (in.hasRemaining()) {
        throw new IllegalArgumentException("not a channel history");
      }
      return new ChannelHistory(epoch, top, entries);
    } catch (java.nio.BufferUnderflowException | NegativeArraySizeException e) {
      throw new IllegalArgumentException("not a channel history", e);
    }
  }

  /** The stored form: format, epoch, top offset, count, then each message's time and payload. */
  public byte[] encode() {
    int size = HEADER;
    for (Entry entry : entries) {
      size += 12 + entry.payload.length;
    }
    ByteBuffer out = ByteBuffer.allocate(size);
    out.put(FORMAT).putLong(epoch).putLong(top).putInt(entries.size());
    for (Entry entry : entries) {
      out.putLong(entry.atNanos).putInt(entry.payload.length).put(entry.payload);
    }
    return out.array();
  }

  public long epoch() {
    return epoch;
  }

  /** The offset of the latest message ever appended in this epoch; 0 before the first. */
  public long top() {
    return top;
  }

  /** Messages held now (after {@link #trim}). */
  public int size() {
    return entries.size();
  }

  /** Appends a message under the next offset, then drops what {@code limits} no longer keep. */
  public Entry append(byte[] payload, long nowNanos, HistoryLimits limits) {
    Entry entry = new Entry(++top, nowNanos, payload);
    entries.addLast(entry);
    trim(nowNanos, limits);
    return entry;
  }

  /** Drops the oldest messages beyond the size, and those older than the TTL. */
  public void trim(long nowNanos, HistoryLimits limits) {
    while (entries.size() > limits.messages()) {
      entries.removeFirst();
    }
    if (limits.ttlNanos() > 0) {
      while (!entries.isEmpty() && nowNanos - entries.peekFirst().atNanos >= limits.ttlNanos()) {
        entries.removeFirst();
      }
    }
  }

  /** At most {@code limit} of the latest messages, oldest first. */
  public List<Entry> latest(int limit) {
    List<Entry> latest = new ArrayList<>(Math.min(limit, entries.size()));
    Iterator<Entry> newestFirst = entries.descendingIterator();
    while (latest.size() < limit && newestFirst.hasNext()) {
      latest.add(0, newestFirst.next());
    }
    return latest;
  }

  /**
   * What a client that last saw {@code offset} of {@code epoch} missed: every held message after
   * it, and whether that is all it missed.
   */
  public Recovery recover(long offset, long sinceEpoch) {
    if (sinceEpoch != epoch) {
      return new Recovery(epoch, top, List.of(), Recovery.EPOCH_CHANGED, entries.size());
    }
    List<Entry> missed = new ArrayList<>();
    for (Entry entry : entries) {
      if (entry.offset > offset) {
        missed.add(entry);
      }
    }
    long firstHeld = entries.isEmpty() ? top + 1 : entries.peekFirst().offset;
    boolean complete = offset <= top && offset + 1 >= firstHeld;
    return new Recovery(epoch, top, missed, complete ? null : offset > top ? Recovery.UNKNOWN_OFFSET
        : Recovery.MESSAGES_DROPPED, entries.size());
  }

  /**
   * The answer to a recovery.
   *
   * @param top      the latest offset when it was read: live messages at or below it are in
   *                 {@code messages} or were never missed, and must not be delivered again
   * @param messages held messages after the client's offset, oldest first
   * @param lost     why recovery is incomplete, or null when {@code messages} is all that was missed
   * @param held     how many messages the history held (the dashboard's history size)
   */
  public record Recovery(long epoch, long top, List<Entry> messages, String lost, int held) {

    public static final String EPOCH_CHANGED = "epoch changed";
    public static final String MESSAGES_DROPPED = "messages dropped";
    public static final String UNKNOWN_OFFSET = "offset not yet reached";

    public boolean recovered() {
      return lost == null;
    }
  }
}
