package io.sluice.verticles.engine.shard;

import java.util.ArrayList;
import java.util.List;

/**
 * The task kinds that may travel between nodes, each under a kind byte (its index here): the
 * check API's and the UDP protocol's tasks register theirs. Every node registers the same codecs
 * in the same order. Immutable once built; {@link #NONE} carries no task.
 */
public final class TaskCodecs {

  public static final TaskCodecs NONE = new TaskCodecs(List.of());

  private final List<TaskCodec<?>> codecs;

  private TaskCodecs(List<TaskCodec<?>> codecs) {
    this.codecs = List.copyOf(codecs);
  }

  public static TaskCodecs of(List<TaskCodec<?>> codecs) {
    return new TaskCodecs(codecs);
  }

  /** These codecs and {@code more} after them. */
  public TaskCodecs with(List<TaskCodec<?>> more) {
    List<TaskCodec<?>> all = new ArrayList<>(codecs);
    all.addAll(more);
    return new TaskCodecs(all);
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

  @SuppressWarnings("unchecked")
  <T extends ShardTask> TaskCodec<T> codec(int kind) {
    if (kind < 0 || kind >= codecs.size()) {
      throw new IllegalArgumentException("no task codec of kind " + kind);
    }
    return (TaskCodec<T>) codecs.get(kind);
  }
}
