package io.sluice.udp;

/**
 * A clock the test moves by hand. {@link #advance} adds with double arithmetic, exactly like the
 * original's tests ({@code $t += 0.1}), so accumulated rounding is the same.
 */
public final class FakeClock implements SecondsClock {

  private double now;

  public FakeClock(double startSeconds) {
    this.now = startSeconds;
  }

  @Override
  public double nowSeconds() {
    return now;
  }

  public void advance(double seconds) {
    now += seconds;
  }

  public void set(double seconds) {
    now = seconds;
  }

  /** Milliseconds for stores that expire entries, on the same time line. */
  public long nowMillis() {
    return (long) Math.floor(now * 1000);
  }
}
