package io.sluice.verticles.engine.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.verticles.engine.udprate.rate.RateState;
import io.sluice.verticles.engine.udprate.rate.StoredRate;

import java.nio.charset.StandardCharsets;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

/**
 * The heal's contract for every kind of record {@link RecordMerge} knows: at any time, the join
 * leaves no more quota than either copy. A copy past its expiry is gone, so its key is fresh: all
 * the quota there is. (The strategies' states have their own property, StateMergeProperties.)
 */
class RecordMergeProperties {

  @Property(tries = 300)
  void aCounterKeepsTheLowerQuotaUntilTheLaterExpiry(@ForAll long heldValue, @ForAll long incomingValue,
                                                     @ForAll @LongRange(min = 1, max = 1_000) long heldExpiry,
                                                     @ForAll @LongRange(min = 1, max = 1_000) long incomingExpiry,
                                                     @ForAll @LongRange(max = 1_100) long at) {
    RecordCopy held = RecordCopy.counter(3, heldExpiry, heldValue);
    RecordCopy incoming = RecordCopy.counter(4, incomingExpiry, incomingValue);
    RecordCopy joined = RecordMerge.consumedMore(held, incoming);
    assertThat(Long.compareUnsigned(quota(joined, at), minUnsigned(quota(held, at), quota(incoming, at))))
        .isLessThanOrEqualTo(0);
  }

  @Property(tries = 300)
  void aWindowCountKeepsTheHigherCount(@ForAll @LongRange(max = 999_999_999_999L) long heldCount,
                                       @ForAll @LongRange(max = 999_999_999_999L) long incomingCount,
                                       @ForAll @LongRange(min = 1, max = 1_000) long heldExpiry,
                                       @ForAll @LongRange(min = 1, max = 1_000) long incomingExpiry,
                                       @ForAll @LongRange(max = 1_100) long at) {
    RecordCopy held = RecordCopy.buffer(3, heldExpiry, ascii(heldCount));
    RecordCopy incoming = RecordCopy.buffer(3, incomingExpiry, ascii(incomingCount));
    RecordCopy joined = RecordMerge.consumedMore(held, incoming);
    assertThat(used(joined, at)).isGreaterThanOrEqualTo(Math.max(used(held, at), used(incoming, at)));
  }

  @Property(tries = 300)
  void aUdpRateIsNeverLowerThanEitherCopysAtAnyLaterTime(@ForAll @DoubleRange(max = 1e4) double heldRate,
                                                         @ForAll @DoubleRange(max = 1e4) double incomingRate,
                                                         @ForAll @IntRange(max = 600) int heldAt,
                                                         @ForAll @IntRange(max = 600) int incomingAt,
                                                         @ForAll @IntRange(max = 600) int later,
                                                         @ForAll @DoubleRange(min = 0.1, max = 3600) double period) {
    RecordCopy held = RecordCopy.buffer(3, Long.MAX_VALUE, StoredRate.encode(new RateState(heldAt, heldRate)));
    RecordCopy incoming = RecordCopy.buffer(3, Long.MAX_VALUE, StoredRate.encode(new RateState(incomingAt, incomingRate)));
    RateState joined = StoredRate.decode(RecordMerge.consumedMore(held, incoming).buffer());
    double at = Math.max(heldAt, incomingAt) + later;
    assertThat(decayed(joined, at, period)).isGreaterThanOrEqualTo(
        Math.max(decayed(new RateState(heldAt, heldRate), at, period), decayed(new RateState(incomingAt, incomingRate), at, period)));
  }

  /** A counter's quota at {@code at}: its value while it lives; unbounded (fresh) once it expired. */
  private static long quota(RecordCopy copy, long at) {
    return at < copy.expiresAtNanos() ? copy.value() : -1L; // -1 is the largest unsigned quota
  }

  private static long minUnsigned(long a, long b) {
    return Long.compareUnsigned(a, b) <= 0 ? a : b;
  }

  /** A window count's use at {@code at}: nothing once it expired. */
  private static long used(RecordCopy copy, long at) {
    return at < copy.expiresAtNanos() ? Long.parseLong(new String(copy.buffer(), StandardCharsets.US_ASCII)) : 0;
  }

  private static double decayed(RateState state, double at, double period) {
    return state.rate() * Math.exp(-(at - state.tLastSeconds()) / period);
  }

  private static byte[] ascii(long count) {
    return Long.toString(count).getBytes(StandardCharsets.US_ASCII);
  }
}
