package io.sluice.verticles.engine.channel;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.ToLongFunction;

/**
 * One subscription's messages of a channel with history, delivered once each and in offset order.
 * During a recovery the live subscription exists before the history is read (so nothing published
 * meanwhile is missed); live messages are held until the history arrives, then those at or below
 * the top offset the history was read at are dropped, being in it. After that, a live message at or
 * below the last delivered offset is a copy and is dropped too. Offsets belong to one epoch: a
 * message of another epoch (the owner lost the history) starts counting again.
 *
 * @param <M> the message, whose offset {@code offsetOf} reads
 */
public final class RecoveryMerge<M> {

  private final ToLongFunction<M> offsetOf;
  private final ToLongFunction<M> epochOf;
  private List<M> held;
  private long last;
  private long epoch;

  /** A merge that holds live messages until {@link #recovered} is called. */
  public static <M> RecoveryMerge<M> holding(ToLongFunction<M> offsetOf, ToLongFunction<M> epochOf) {
    return new RecoveryMerge<>(offsetOf, epochOf, new ArrayList<>());
  }

  /** A merge with nothing to recover: live messages pass, each offset once. */
  public static <M> RecoveryMerge<M> passing(ToLongFunction<M> offsetOf, ToLongFunction<M> epochOf) {
    return new RecoveryMerge<>(offsetOf, epochOf, null);
  }

  private RecoveryMerge(ToLongFunction<M> offsetOf, ToLongFunction<M> epochOf, List<M> held) {
    this.offsetOf = offsetOf;
    this.epochOf = epochOf;
    this.held = held;
  }

  /** True while the history has not arrived: live messages are being held. */
  public boolean holding() {
    return held != null;
  }

  /** A live message: delivered to {@code out} now, held, or dropped as a copy. */
  public void live(M message, Consumer<M> out) {
    if (held != null) {
      held.add(message);
    } else if (admit(message)) {
      out.accept(message);
    }
  }

  /**
   * The history arrived: {@code missed} (oldest first) then the held live messages go to
   * {@code out}, each offset once; from now on live messages pass through.
   *
   * @param top the latest offset of {@code epoch} when the history was read
   */
  public void recovered(long epoch, long top, List<M> missed, Consumer<M> out) {
    this.epoch = epoch;
    for (M message : missed) {
      if (admit(message)) {
        out.accept(message);
      }
    }
    last = Math.max(last, top);
    List<M> live = held;
    held = null;
    for (M message : live) {
      if (admit(message)) {
        out.accept(message);
      }
    }
  }

  private boolean admit(M message) {
    long offset = offsetOf.applyAsLong(message);
    long messageEpoch = epochOf.applyAsLong(message);
    if (messageEpoch != epoch) {
      epoch = messageEpoch;
      last = offset;
      return true;
    }
    if (offset <= last) {
      return false;
    }
    last = offset;
    return true;
  }
}
