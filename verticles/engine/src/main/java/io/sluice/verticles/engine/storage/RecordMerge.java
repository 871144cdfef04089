package io.sluice.verticles.engine.storage;

import io.sluice.verticles.engine.udprate.rate.RateState;
import io.sluice.verticles.engine.udprate.rate.StoredRate;
import io.sluice.verticles.strategies.algorithm.StateMerge;

import java.nio.charset.StandardCharsets;

/**
 * Joins two copies of one key written apart (the two sides of a cluster split, meeting at the heal)
 * into the copy that has consumed more, so that a heal never hands out fresh quota. The contract,
 * for every kind of record: the join leaves no more quota than either copy, now or later.
 * <ul>
 *   <li>a Throttr counter holds the remaining quota: the lower one (unsigned, as the wire's values);
 *   <li>a check API state ({@link StateMerge}): each strategy's stricter state;
 *   <li>a UDP rate ({@link StoredRate}): the higher rate, at the later time (it then decays from
 *       later on); a UDP sliding window rule's state is the check API's {@code sliding_window}
 *       text, merged as that;
 *   <li>a count in ASCII decimal (an Envoy descriptor's window counter) counts up: the higher one;
 *   <li>any other buffer (a Throttr SET's value) has no quota: the held copy's value.
 * </ul>
 * Expiry: the later of the two, with its TTL unit. A record that expires frees its key, which is
 * fresh quota again, so the later expiry is the stricter one; the value kept lasts until then.
 * Two copies of different kinds (a counter and a buffer) cannot be compared: the held copy is kept.
 */
public final class RecordMerge {

  /** The longest decimal count read as one: 19 digits always fit a long. */
  private static final int MAX_COUNT_DIGITS = 19;

  private RecordMerge() {
  }

  /** The copy that has consumed more; {@code held} itself when it has already. */
  public static RecordCopy consumedMore(RecordCopy held, RecordCopy incoming) {
    if (held.counter() != incoming.counter()) {
      return held;
    }
    boolean laterExpiry = incoming.expiresAtNanos() > held.expiresAtNanos();
    int ttlType = laterExpiry ? incoming.ttlType() : held.ttlType();
    long expiresAt = laterExpiry ? incoming.expiresAtNanos() : held.expiresAtNanos();
    if (held.counter()) {
      long value = Long.compareUnsigned(incoming.value(), held.value()) < 0 ? incoming.value() : held.value();
      return value == held.value() && !laterExpiry ? held : RecordCopy.counter(ttlType, expiresAt, value);
    }
    byte[] buffer = stricterBuffer(held.buffer(), incoming.buffer());
    return buffer == held.buffer() && !laterExpiry ? held : RecordCopy.buffer(ttlType, expiresAt, buffer);
  }

  /** The stricter of two buffer values; {@code held} itself when it is, or when they cannot be compared. */
  static byte[] stricterBuffer(byte[] held, byte[] incoming) {
    if (StoredRate.is(held) && StoredRate.is(incoming)) {
      RateState ours = StoredRate.decode(held);
      RateState theirs = StoredRate.decode(incoming);
      RateState joined = new RateState(Math.max(ours.tLastSeconds(), theirs.tLastSeconds()),
          Math.max(ours.rate(), theirs.rate()));
      return joined.equals(ours) ? held : StoredRate.encode(joined);
    }
    long ourCount = count(held);
    long theirCount = count(incoming);
    if (ourCount >= 0 && theirCount >= 0) {
      return theirCount > ourCount ? incoming : held;
    }
    String ours = new String(held, StandardCharsets.ISO_8859_1);
    if (!StateMerge.isState(ours)) {
      return held;
    }
    String joined = StateMerge.stricter(ours, new String(incoming, StandardCharsets.ISO_8859_1));
    return joined.equals(ours) ? held : joined.getBytes(StandardCharsets.ISO_8859_1);
  }

  /** The value as a decimal count, or -1 when it is not one. */
  private static long count(byte[] value) {
    if (value.length == 0 || value.length > MAX_COUNT_DIGITS) {
      return -1;
    }
    long count = 0;
    for (byte digit : value) {
      if (digit < '0' || digit > '9') {
        return -1;
      }
      count = count * 10 + (digit - '0');
    }
    return count;
  }
}
