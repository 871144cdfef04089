package io.sluice.verticles.benchmarks.load;

/**
 * One attack of {@code bench attack}: {@link #launch} puts it in place (connections it holds stay
 * open) and says what the server answered; {@link #release} ends what it holds (once; closing releases too).
 */
interface Attack extends AutoCloseable {

  /** Runs the attack against {@code target} and answers a one-line account of it. */
  String launch(AttackTarget target) throws Exception;

  /** Lets go of what the attack holds (connections) and answers what happened then, or "" (the default: nothing held). */
  default String release() throws Exception {
    return "";
  }

  @Override
  default void close() throws Exception {
    release();
  }
}
