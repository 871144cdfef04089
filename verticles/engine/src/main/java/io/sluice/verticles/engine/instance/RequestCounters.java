package io.sluice.verticles.engine.instance;

import io.sluice.protocol.binary.codec.InfoSnapshot;

import java.util.concurrent.atomic.LongAdder;

/**
 * Instance-wide request counters by type code, with one-minute tumbling windows counted from server
 * start (spec §4). Every front counts here from its own thread; a timer calls {@link #rollTo} with
 * the window the injectable clock is in, so tests move windows by moving the clock.
 */
public final class RequestCounters {

  /** Totals by protocol; the overall totals INFO reports are their sums, so a request costs one add here. */
  private final LongAdder[][] totalsByProtocol = new LongAdder[ConnectionStats.Protocol.values().length][];
  private final LongAdder[] window = adders();
  private final long[] lastWindow = new long[InfoSnapshot.TYPE_SLOTS];
  private final LongAdder readBytesWindow = new LongAdder();
  private final LongAdder writeBytesWindow = new LongAdder();
  private volatile long lastReadBytes;
  private volatile long lastWriteBytes;
  private int closedUpTo;

  public RequestCounters() {
    for (int i = 0; i < totalsByProtocol.length; i++) {
      totalsByProtocol[i] = adders();
    }
  }

  /**
   * Counts one request of a type code that came in over {@code protocol}; codes outside 0..31 (an
   * EVENT's bogus inner type) are ignored.
   */
  public void count(ConnectionStats.Protocol protocol, int typeCode) {
    if (typeCode >= 0 && typeCode < InfoSnapshot.TYPE_SLOTS) {
      totalsByProtocol[protocol.ordinal()][typeCode].increment();
      window[typeCode].increment();
    }
  }

  public void countBytes(long read, long written) {
    if (read != 0) {
      readBytesWindow.add(read);
    }
    if (written != 0) {
      writeBytesWindow.add(written);
    }
  }

  /** Closes every window before {@code currentWindow}; a window with no roll in between counts as idle. */
  public synchronized void rollTo(int currentWindow) {
    if (currentWindow <= closedUpTo) {
      return;
    }
    tick();
    if (currentWindow > closedUpTo + 1) {
      tick();
    }
    closedUpTo = currentWindow;
  }

  private void tick() {
    for (int i = 0; i < lastWindow.length; i++) {
      lastWindow[i] = window[i].sumThenReset();
    }
    lastReadBytes = readBytesWindow.sumThenReset();
    lastWriteBytes = writeBytesWindow.sumThenReset();
  }

  /** Requests of one type code served so far. */
  public long total(int typeCode) {
    long sum = 0;
    for (LongAdder[] protocol : totalsByProtocol) {
      sum += protocol[typeCode].sum();
    }
    return sum;
  }

  /** Requests of one type code served so far over one protocol. */
  public long total(ConnectionStats.Protocol protocol, int typeCode) {
    return totalsByProtocol[protocol.ordinal()][typeCode].sum();
  }

  public long[] totals() {
    long[] values = new long[InfoSnapshot.TYPE_SLOTS];
    for (int i = 0; i < values.length; i++) {
      values[i] = total(i);
    }
    return values;
  }

  public synchronized long[] perMinute() {
    return lastWindow.clone();
  }

  public long readBytesPerMinute() {
    return lastReadBytes;
  }

  public long writeBytesPerMinute() {
    return lastWriteBytes;
  }

  private static LongAdder[] adders() {
    LongAdder[] adders = new LongAdder[InfoSnapshot.TYPE_SLOTS];
    for (int i = 0; i < adders.length; i++) {
      adders[i] = new LongAdder();
    }
    return adders;
  }
}
