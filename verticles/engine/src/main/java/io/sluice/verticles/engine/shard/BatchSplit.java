package io.sluice.verticles.engine.shard;

import io.netty.buffer.ByteBuf;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntUnaryOperator;

/**
 * A {@linkplain ShardBatch#gathered gathered} batch whose entries go different ways (to several
 * nodes, several shard threads, or again after a gate refused some), split into one part per way
 * and joined back once every part is filled: the joined batch answers slot for slot as if the whole
 * had run in one place. Parts keep the whole's order among their own entries, so the order of a
 * connection's requests to one key is kept. Not thread-safe: split and join on the sender's thread.
 */
public final class BatchSplit {

  private final ShardBatch whole;
  /** The parts, each replaced by its filled batch once back; part 0 is the whole itself after {@link #unrunOf}. */
  private final List<ShardBatch> parts = new ArrayList<>();
  private final int firstToSend;
  private final int[] partOf;
  private final int[] indexInPart;

  private BatchSplit(ShardBatch whole, int firstToSend) {
    this.whole = whole;
    this.firstToSend = firstToSend;
    this.partOf = new int[whole.size()];
    this.indexInPart = new int[whole.size()];
  }

  /**
   * Splits {@code whole} by {@code wayOf(slot)} (any small non-negative number per way); the parts
   * come in the order their ways first appear.
   */
  public static BatchSplit by(ShardBatch whole, IntUnaryOperator wayOf) {
    BatchSplit split = new BatchSplit(whole, 0);
    int[] partOfWay = new int[0];
    for (int slot = 0; slot < whole.size(); slot++) {
      int way = wayOf.applyAsInt(slot);
      if (way >= partOfWay.length) {
        int grown = partOfWay.length;
        partOfWay = Arrays.copyOf(partOfWay, way + 1);
        Arrays.fill(partOfWay, grown, partOfWay.length, -1);
      }
      if (partOfWay[way] < 0) {
        partOfWay[way] = split.parts.size();
        split.parts.add(ShardBatch.gathered(whole.route()));
      }
      split.place(slot, partOfWay[way]);
    }
    return split;
  }

  /**
   * The entries of a filled {@code whole} that came back unrun, as the one part to send again;
   * the others keep the results they have.
   */
  public static BatchSplit unrunOf(ShardBatch whole) {
    BatchSplit split = new BatchSplit(whole, 1);
    split.parts.add(whole);
    split.parts.add(ShardBatch.gathered(whole.route()));
    for (int slot = 0; slot < whole.size(); slot++) {
      if (whole.notRun(slot)) {
        split.place(slot, 1);
      } else {
        // Kept in the whole itself, at its own slot.
        split.partOf[slot] = 0;
        split.indexInPart[slot] = slot;
      }
    }
    return split;
  }

  private void place(int slot, int part) {
    ShardBatch batch = parts.get(part);
    partOf[slot] = part;
    indexInPart[slot] = batch.size();
    batch.add(whole.request(slot), whole.partitionOf(slot));
  }

  /** The parts to send, each a gathered batch of the whole's route. */
  public List<ShardBatch> toSend() {
    return parts.subList(firstToSend, parts.size());
  }

  /** Part {@code index} of {@link #toSend} came back filled as {@code filled}. */
  public void filled(int index, ShardBatch filled) {
    parts.set(firstToSend + index, filled);
  }

  /**
   * A batch like the whole (same route, same requests in the same slots) filled from the parts:
   * each slot's reply, listing part, failure and unrun mark. Call once every part is filled.
   */
  public ShardBatch join() {
    ShardBatch joined = ShardBatch.gathered(whole.route());
    for (int slot = 0; slot < whole.size(); slot++) {
      joined.add(whole.request(slot), whole.partitionOf(slot));
    }
    ByteBuf out = joined.startReplies();
    for (int slot = 0; slot < whole.size(); slot++) {
      ShardBatch part = parts.get(partOf[slot]);
      int index = indexInPart[slot];
      if (part.notRun() || part.replies() == null) {
        // Refused whole, so nothing of it ran.
        joined.markNotRun(slot);
      } else {
        int start = index == 0 ? 0 : part.replyEnd(index - 1);
        out.writeBytes(part.replies(), start, part.replyEnd(index) - start);
        ShardListing listing = part.collected(index);
        if (listing != null) {
          joined.collect(slot, listing);
        }
        Throwable failure = part.failure(index);
        if (failure != null) {
          joined.fail(slot, failure);
        }
        if (part.notRun(index)) {
          joined.markNotRun(slot);
        }
      }
      joined.endReply(slot);
    }
    return joined;
  }
}
