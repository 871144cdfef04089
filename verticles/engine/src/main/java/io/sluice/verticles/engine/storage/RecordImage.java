package io.sluice.verticles.engine.storage;

import io.netty.buffer.ByteBuf;

/**
 * A record's whole state, or its removal, as bytes: what a backup, the append-only log, a
 * snapshot and a partition moving to another node all carry. Applying an image is idempotent (it
 * sets state, it does not add to it), so an image applied twice, or an older one followed by a
 * newer one, leaves the newest state: what a replica catching up or a replayed log needs.
 *
 * <p>Layout, little-endian like the Throttr wire:
 * <pre>
 *   u8  kind        1 counter, 2 buffer, 3 removal
 *   u16 key length, then the key
 *   (counter, buffer) u8 TTL type, i64 absolute expiry (Unix epoch nanoseconds)
 *   (counter)         i64 value
 *   (buffer)          u32 length, then the value
 * </pre>
 * Integrity (checksums, versions) belongs to whoever frames many images: a log block, a parcel.
 */
public final class RecordImage {

  static final byte COUNTER = 1;
  static final byte BUFFER = 2;
  static final byte REMOVAL = 3;

  /** Keys longer than this cannot be imaged; no front accepts one (the UDP front's limit is 1,000). */
  public static final int MAX_KEY_LENGTH = 0xffff;

  private RecordImage() {
  }

  /** Appends the record's whole current state. */
  public static void writeState(ByteBuf out, Record record) {
    out.writeByte(record.isCounter() ? COUNTER : BUFFER);
    writeKey(out, record.key());
    out.writeByte(record.ttlType());
    out.writeLongLE(record.expiresAtNanos());
    if (record.isCounter()) {
      out.writeLongLE(record.counter());
    } else {
      byte[] buffer = record.buffer();
      out.writeIntLE(buffer.length);
      out.writeBytes(buffer);
    }
  }

  /** Appends the removal of {@code key}. */
  public static void writeRemoval(ByteBuf out, byte[] key) {
    out.writeByte(REMOVAL);
    writeKey(out, key);
  }

  private static void writeKey(ByteBuf out, byte[] key) {
    if (key.length > MAX_KEY_LENGTH) {
      throw new IllegalArgumentException("a key of " + key.length + " bytes cannot be imaged");
    }
    out.writeShortLE(key.length);
    out.writeBytes(key);
  }

  /**
   * Reads one image from {@code in} and applies it to {@code store}: the record takes exactly the
   * imaged state (created, replaced, or removed). A state whose expiry has passed removes the key,
   * as the record would be gone by now anyway.
   *
   * @throws MalformedImageException if {@code in} does not hold one whole image; {@code in}'s
   *     reader index is then where it was
   */
  public static void apply(ByteBuf in, Store store) {
    apply(in, store, false);
  }

  /**
   * Like {@link #apply}, but only for a key the store does not hold (live): what a second copy of
   * a partition adds to the copy that serves it. A removal is not applied.
   */
  public static void applyIfAbsent(ByteBuf in, Store store) {
    apply(in, store, true);
  }

  /**
   * Like {@link #apply}, but joins the imaged state with the key's live record, if any, into the
   * one that has consumed more ({@link RecordMerge}): what a copy of a partition that served apart
   * (a split) adds to the copy that serves it now. A removal, or a state already expired, is not
   * applied: the key keeps what it has.
   *
   * @throws MalformedImageException as {@link #apply} does
   */
  public static void applyStricter(ByteBuf in, Store store) {
    int start = in.readerIndex();
    try {
      byte kind = in.readByte();
      byte[] key = new byte[in.readUnsignedShortLE()];
      in.readBytes(key);
      if (kind == REMOVAL) {
        return;
      }
      if (kind != COUNTER && kind != BUFFER) {
        throw new MalformedImageException("unknown image kind " + kind);
      }
      int ttlType = in.readUnsignedByte();
      long expiresAt = in.readLongLE();
      RecordCopy incoming = kind == COUNTER ? RecordCopy.counter(ttlType, expiresAt, in.readLongLE())
          : RecordCopy.buffer(ttlType, expiresAt, readBuffer(in));
      long now = store.now();
      if (expiresAt <= now) {
        return;
      }
      Record live = store.find(key, store.hash(key), now);
      RecordCopy held = live == null ? null : RecordCopy.of(live);
      RecordCopy kept = held == null ? incoming : RecordMerge.consumedMore(held, incoming);
      if (kept == held) {
        return;
      }
      if (kept.counter()) {
        store.restoreCounter(key, kept.ttlType(), kept.expiresAtNanos(), kept.value());
      } else {
        store.restoreBuffer(key, kept.ttlType(), kept.expiresAtNanos(), kept.buffer());
      }
    } catch (IndexOutOfBoundsException cut) {
      in.readerIndex(start);
      throw new MalformedImageException("the image is cut short");
    } catch (MalformedImageException bad) {
      in.readerIndex(start);
      throw bad;
    }
  }

  private static void apply(ByteBuf in, Store store, boolean onlyAbsent) {
    int start = in.readerIndex();
    try {
      byte kind = in.readByte();
      byte[] key = new byte[in.readUnsignedShortLE()];
      in.readBytes(key);
      if (onlyAbsent && (kind == REMOVAL || store.find(key, store.hash(key), store.now()) != null)) {
        skipState(in, kind);
        return;
      }
      switch (kind) {
        case REMOVAL -> store.restoreRemoval(key);
        case COUNTER -> {
          int ttlType = in.readUnsignedByte();
          long expiresAt = in.readLongLE();
          store.restoreCounter(key, ttlType, expiresAt, in.readLongLE());
        }
        case BUFFER -> {
          int ttlType = in.readUnsignedByte();
          long expiresAt = in.readLongLE();
          store.restoreBuffer(key, ttlType, expiresAt, readBuffer(in));
        }
        default -> throw new MalformedImageException("unknown image kind " + kind);
      }
    } catch (IndexOutOfBoundsException cut) {
      in.readerIndex(start);
      throw new MalformedImageException("the image is cut short");
    } catch (MalformedImageException bad) {
      in.readerIndex(start);
      throw bad;
    }
  }

  /** A buffer image's value: its length, then its bytes. */
  private static byte[] readBuffer(ByteBuf in) {
    byte[] value = new byte[bufferLength(in)];
    in.readBytes(value);
    return value;
  }

  /** A buffer image's length, checked against the bytes left. */
  private static int bufferLength(ByteBuf in) {
    int length = in.readIntLE();
    if (length < 0 || length > in.readableBytes()) {
      throw new MalformedImageException("a buffer of " + Integer.toUnsignedString(length)
          + " bytes with " + in.readableBytes() + " left");
    }
    return length;
  }

  /** Moves past the state that follows an image's key. */
  private static void skipState(ByteBuf in, byte kind) {
    switch (kind) {
      case REMOVAL -> { }
      case COUNTER -> in.skipBytes(1 + 8 + 8);
      case BUFFER -> {
        in.skipBytes(1 + 8);
        in.skipBytes(bufferLength(in));
      }
      default -> throw new MalformedImageException("unknown image kind " + kind);
    }
  }

  /** Bytes that do not hold a record image. */
  public static final class MalformedImageException extends IllegalArgumentException {
    MalformedImageException(String message) {
      super(message);
    }
  }
}
