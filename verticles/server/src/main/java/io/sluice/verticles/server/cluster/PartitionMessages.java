package io.sluice.verticles.server.cluster;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.sluice.verticles.engine.routing.PartitionTable;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The messages that move a partition's records between nodes, and how each is read: a handoff
 * (asks a node for a partition) and a replica message (changes, a whole copy, a copy loaded
 * from disk, or a copy served apart during a split). Each names its sender's node id, which the
 * receiver checks against the members it sees; a message that does not read whole (the wrong
 * length, a partition beyond the table, an unknown kind) is refused as a whole and never acted upon.
 *
 * <p>Layouts: handoff {@code partition (u16 LE), sender}; replica {@code kind (u8), partition
 * (u16 LE), sender, images}; change batch {@code kind (u8) = 5, sender, sections}, a section being
 * {@code partition (u16 LE), length (u32 LE), images}; a sender is its length (u8) and its UTF-8
 * bytes. Images are {@link io.sluice.verticles.engine.storage.RecordImage}s.
 */
final class PartitionMessages {

  /**
   * Changes of a served partition's keys, one partition per message: no longer sent (see
   * {@link #CHANGE_BATCH}), still applied when a node of an earlier version sends it.
   */
  static final byte CHANGES = 1;
  /** The whole partition: the backup holds exactly these records. */
  static final byte RESET = 2;
  /** A copy loaded from disk by a node that does not own it: the owner adds the keys it lacks. */
  static final byte MERGE = 3;
  /**
   * A copy of a partition the sender served while the receiver's side of a split served it too:
   * the receiver, its owner now, joins it key by key into the stricter state ({@link SplitCopies}).
   */
  static final byte HEAL = 4;
  /**
   * Changes of several served partitions in one message: what one shard thread of the owner
   * changed in a turn (or while the backup was behind), each key's last state once ({@link ReplicaLane}).
   */
  static final byte CHANGE_BATCH = 5;
  /** The reply failure code of a handoff whose asker is not the partition's owner by the receiver's table (yet). */
  static final int NOT_YOURS = 409;

  /** A change batch: its sections read as {@link #CHANGES} replicas, one per partition. */
  record ChangeBatch(String sender, List<Replica> sections) {
  }

  /** A node asks for a partition, to own it. */
  record Handoff(int partition, String sender) {
  }

  /** Images for one partition's copy on this node; {@code images} is a slice of the message. */
  record Replica(byte kind, int partition, String sender, ByteBuf images) {
  }

  private PartitionMessages() {
  }

  static ByteBuf handoff(int partition, String sender) {
    ByteBuf out = Unpooled.buffer(3 + sender.length());
    out.writeShortLE(partition);
    writeSender(out, sender);
    return out;
  }

  /** The handoff, or null when the message is not one. */
  static Handoff readHandoff(ByteBuf in) {
    if (in.readableBytes() < 3) {
      return null;
    }
    int partition = in.readUnsignedShortLE();
    String sender = readSender(in);
    return partition < PartitionTable.PARTITIONS && sender != null && !in.isReadable()
        ? new Handoff(partition, sender) : null;
  }

  /** Takes over {@code images}. */
  static ByteBuf replica(byte kind, int partition, String sender, ByteBuf images) {
    ByteBuf out = Unpooled.buffer(4 + sender.length() + images.readableBytes());
    out.writeByte(kind).writeShortLE(partition);
    writeSender(out, sender);
    out.writeBytes(images);
    images.release();
    return out;
  }

  /** The replica message, or null when the message is not one. */
  static Replica readReplica(ByteBuf in) {
    if (in.readableBytes() < 4) {
      return null;
    }
    byte kind = in.readByte();
    int partition = in.readUnsignedShortLE();
    String sender = readSender(in);
    return kind >= CHANGES && kind <= HEAL && partition < PartitionTable.PARTITIONS && sender != null
        ? new Replica(kind, partition, sender, in.slice()) : null;
  }

  /** A change batch with no section yet (see {@link #startSection}). */
  static ByteBuf changeBatch(String sender) {
    ByteBuf out = Unpooled.buffer(256);
    out.writeByte(CHANGE_BATCH);
    writeSender(out, sender);
    return out;
  }

  /** Starts a partition's section of a change batch; its images follow, then {@link #endSection}. */
  static int startSection(ByteBuf batch, int partition) {
    batch.writeShortLE(partition);
    int length = batch.writerIndex();
    batch.writeIntLE(0);
    return length;
  }

  /** Ends the section {@link #startSection} returned {@code section} for: sets its length. */
  static void endSection(ByteBuf batch, int section) {
    batch.setIntLE(section, batch.writerIndex() - section - 4);
  }

  /** Whether {@code in} (not consumed) holds a change batch rather than another replica message. */
  static boolean isChangeBatch(ByteBuf in) {
    return in.isReadable() && in.getByte(in.readerIndex()) == CHANGE_BATCH;
  }

  /**
   * The change batch, or null when the message does not read whole as one: a partition beyond the
   * table, a section longer than what is left, or no section.
   */
  static ChangeBatch readChangeBatch(ByteBuf in) {
    if (in.readableBytes() < 2 || in.readByte() != CHANGE_BATCH) {
      return null;
    }
    String sender = readSender(in);
    if (sender == null) {
      return null;
    }
    List<Replica> sections = new ArrayList<>();
    while (in.isReadable()) {
      if (in.readableBytes() < 6) {
        return null;
      }
      int partition = in.readUnsignedShortLE();
      long length = in.readUnsignedIntLE();
      if (partition >= PartitionTable.PARTITIONS || length > in.readableBytes()) {
        return null;
      }
      sections.add(new Replica(CHANGES, partition, sender, in.readSlice((int) length)));
    }
    return sections.isEmpty() ? null : new ChangeBatch(sender, sections);
  }

  /** The images of a replica message written by {@link #replica}, copied (to send again). */
  static ByteBuf imagesOf(ByteBuf message) {
    ByteBuf read = message.duplicate();
    read.skipBytes(3);
    read.skipBytes(read.readUnsignedByte());
    return read.copy();
  }

  /** Whether a handoff failed because the asker is not the owner by the receiver's table yet. */
  static boolean notYours(Throwable failure) {
    return failure instanceof ReplyException e && e.failureType() == ReplyFailure.RECIPIENT_FAILURE
        && e.failureCode() == NOT_YOURS;
  }

  private static void writeSender(ByteBuf out, String sender) {
    byte[] bytes = sender.getBytes(StandardCharsets.UTF_8);
    if (bytes.length > 255) {
      throw new IllegalArgumentException("a node id of " + bytes.length + " bytes: at most 255");
    }
    out.writeByte(bytes.length).writeBytes(bytes);
  }

  private static String readSender(ByteBuf in) {
    int length = in.readUnsignedByte();
    if (length == 0 || length > in.readableBytes()) {
      return null;
    }
    String sender = in.toString(in.readerIndex(), length, StandardCharsets.UTF_8);
    in.skipBytes(length);
    return sender;
  }
}
