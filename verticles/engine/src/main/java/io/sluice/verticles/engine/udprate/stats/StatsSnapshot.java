package io.sluice.verticles.engine.udprate.stats;

/**
 * What {@code get_stats} reports for one key.
 *
 * @param requests    uses counted since start ({@code n_req})
 * @param overLimit   of which answered {@code Y} ({@code n_over})
 * @param lastMaxRate integer part of the highest rate in the previous complete 5-minute bucket
 *                    ({@code last_max_rate})
 */
public record StatsSnapshot(long requests, long overLimit, long lastMaxRate) {

  public static final StatsSnapshot NONE = new StatsSnapshot(0, 0, 0);
}
