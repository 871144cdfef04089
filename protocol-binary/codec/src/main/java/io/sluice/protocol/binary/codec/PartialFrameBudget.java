package io.sluice.protocol.binary.codec;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The bytes that every connection's {@link RequestDecoder} may hold for incomplete frames, together.
 * Each connection holds at most one incomplete frame of at most the maximum frame size, but many
 * connections that each send half of a large frame would otherwise fill the heap between them.
 * Thread-safe: one budget is shared by the connections of every event loop.
 */
public final class PartialFrameBudget {

  private final long limit;
  private final AtomicLong held = new AtomicLong();

  public PartialFrameBudget(long limit) {
    if (limit < 0) {
      throw new IllegalArgumentException("limit must not be negative, was " + limit);
    }
    this.limit = limit;
  }

  /** A budget no realistic load reaches, for decoders whose memory is bounded elsewhere. */
  public static PartialFrameBudget unlimited() {
    return new PartialFrameBudget(Long.MAX_VALUE);
  }

  public long limit() {
    return limit;
  }

  /** Bytes reserved now by every decoder sharing this budget. */
  public long held() {
    return held.get();
  }

  /** Takes {@code bytes} from the budget; false, taking nothing, when that would exceed the limit. */
  boolean reserve(long bytes) {
    long before;
    do {
      before = held.get();
      if (bytes > limit - before) {
        return false;
      }
    } while (!held.compareAndSet(before, before + bytes));
    return true;
  }

  void release(long bytes) {
    held.addAndGet(-bytes);
  }
}
