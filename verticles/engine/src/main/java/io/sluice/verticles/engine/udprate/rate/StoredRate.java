package io.sluice.verticles.engine.udprate.rate;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * A UDP key's {@link RateState} as its record stores it: 18 bytes, {@code u2}, then the rate and
 * t_last as IEEE-754 doubles, big-endian (a Throttr GET shows them so). Decimal text, the first
 * format, cost a tenth of the endpoint's CPU in {@code Double.toString} and {@code parseDouble}.
 */
public final class StoredRate {

  public static final int BYTES = 18;
  private static final byte FORMAT_0 = 'u';
  private static final byte FORMAT_1 = '2';
  private static final VarHandle DOUBLES = MethodHandles.byteArrayViewVarHandle(double[].class, ByteOrder.BIG_ENDIAN);

  private StoredRate() {
  }

  /** Whether {@code value} has this format's length and header (its doubles are not checked). */
  public static boolean is(byte[] value) {
    return value.length == BYTES && value[0] == FORMAT_0 && value[1] == FORMAT_1;
  }

  public static byte[] encode(RateState state) {
    byte[] value = new byte[BYTES];
    value[0] = FORMAT_0;
    value[1] = FORMAT_1;
    DOUBLES.set(value, 2, state.rate());
    DOUBLES.set(value, 10, state.tLastSeconds());
    return value;
  }

  /** Malformed state is an error, never a silent reset. */
  public static RateState decode(byte[] value) {
    if (!is(value)) {
      throw new IllegalStateException("malformed UDP rate state '" + new String(value, StandardCharsets.ISO_8859_1)
          + "' (expected " + BYTES + " bytes starting with u2)");
    }
    return new RateState((double) DOUBLES.get(value, 10), (double) DOUBLES.get(value, 2));
  }
}
