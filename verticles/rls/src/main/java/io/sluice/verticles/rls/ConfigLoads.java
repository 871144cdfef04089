package io.sluice.verticles.rls;

import java.util.concurrent.atomic.LongAdder;

/**
 * envoyproxy/ratelimit's {@code ratelimit.service.config_load_success} and
 * {@code config_load_error}: every config put in force (the one read at startup, each file reload,
 * each xDS version accepted) and every one refused (a file that does not read, a version NACKed).
 * A look at unchanged files is neither.
 */
public final class ConfigLoads {

  private final LongAdder successes = new LongAdder();
  private final LongAdder errors = new LongAdder();

  void succeeded() {
    successes.increment();
  }

  /** A config refused where it was read (an xDS version NACKed): the one in force stays. */
  public void failed() {
    errors.increment();
  }

  public long successes() {
    return successes.sum();
  }

  public long errors() {
    return errors.sum();
  }
}
