package io.sluice.verticles.engine.shard;

import java.util.ArrayList;
import java.util.List;

/**
 * The kinds of work that may travel between nodes besides Throttr requests and key lookups: tasks
 * (the check API's, the UDP protocol's, Envoy's rate limit service's) and scans (the dashboard's
 * key pages, UDP's get_size), each under a kind byte (its index in its list). Every node registers
 * the same codecs in the same order. Immutable once built; {@link #NONE} carries nothing.
 */
public final class TaskCodecs {

  public static final TaskCodecs NONE = new TaskCodecs(List.of(), List.of());

  private final List<TaskCodec<?>> codecs;
  private final List<ScanCodec<?>> scans;

  private TaskCodecs(List<TaskCodec<?>> codecs, List<ScanCodec<?>> scans) {
    this.codecs = List.copyOf(codecs);
    this.scans = List.copyOf(scans);
  }

  public static TaskCodecs of(List<TaskCodec<?>> codecs) {
    return new TaskCodecs(codecs, List.of());
  }

  /** These codecs and {@code more} after them. */
  public TaskCodecs with(List<TaskCodec<?>> more) {
    List<TaskCodec<?>> all = new ArrayList<>(codecs);
    all.addAll(more);
    return new TaskCodecs(all, scans);
  }

  /** These codecs and the scan codecs {@code more} after this one's. */
  public TaskCodecs withScans(List<ScanCodec<?>> more) {
    List<ScanCodec<?>> all = new ArrayList<>(scans);
    all.addAll(more);
    return new TaskCodecs(codecs, all);
  }

  /** The kind byte of {@code task}'s codec, or -1 when it cannot travel. */
  int kindOf(ShardTask task) {
    for (int kind = 0; kind < codecs.size(); kind++) {
      if (codecs.get(kind).type() == task.getClass()) {
        return kind;
      }
    }
    return -1;
  }

  /** The kind byte of {@code scan}'s codec, or -1 when it cannot travel. */
  int kindOf(ShardScan scan) {
    for (int kind = 0; kind < scans.size(); kind++) {
      if (scans.get(kind).type() == scan.getClass()) {
        return kind;
      }
    }
    return -1;
  }

  @SuppressWarnings("unchecked")
  <T extends ShardTask> TaskCodec<T> codec(int kind) {
    if (kind < 0 || kind >= codecs.size()) {
      throw new IllegalArgumentException("no task codec of kind " + kind);
    }
    return (TaskCodec<T>) codecs.get(kind);
  }

  @SuppressWarnings("unchecked")
  <S extends ShardScan> ScanCodec<S> scanCodec(int kind) {
    if (kind < 0 || kind >= scans.size()) {
      throw new IllegalArgumentException("no scan codec of kind " + kind);
    }
    return (ScanCodec<S>) scans.get(kind);
  }
}
