package io.sluice.verticles.server.reload;

import java.util.Optional;

/** The report of the latest reload, kept for the admin API; written by the reloading thread only. */
public final class LastReload {

  private volatile ReloadReport last;

  public void record(ReloadReport report) {
    last = report;
  }

  /** Empty until the first reload. */
  public Optional<ReloadReport> get() {
    return Optional.ofNullable(last);
  }
}
