package io.sluice.verticles.engine.shard;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The kinds of work that may travel between nodes besides Throttr requests and key lookups: tasks
 * (the check API's, the UDP protocol's, Envoy's rate limit service's) and scans (the dashboard's
 * key pages, UDP's get_size), each under the wire id its codec declares ({@link TaskCodec#id},
 * {@link ScanCodec#id}): registering them in another order changes nothing on the wire. Two codecs
 * of one id, or two for one class, are refused when registered, so a node with such a list fails
 * to start rather than misread another node's work. Immutable once built; {@link #NONE} carries
 * nothing.
 */
public final class TaskCodecs {

  public static final TaskCodecs NONE = new TaskCodecs(List.of(), List.of());

  private static final int IDS = 256;

  private final List<TaskCodec<?>> codecs;
  private final List<ScanCodec<?>> scans;
  private final TaskCodec<?>[] codecById = new TaskCodec<?>[IDS];
  private final ScanCodec<?>[] scanById = new ScanCodec<?>[IDS];
  private final Map<Class<?>, TaskCodec<?>> codecByType = new HashMap<>();
  private final Map<Class<?>, ScanCodec<?>> scanByType = new HashMap<>();

  private TaskCodecs(List<TaskCodec<?>> codecs, List<ScanCodec<?>> scans) {
    this.codecs = List.copyOf(codecs);
    this.scans = List.copyOf(scans);
    register("task", this.codecs, codecById, codecByType, TaskCodec::id, TaskCodec::type);
    register("scan", this.scans, scanById, scanByType, ScanCodec::id, ScanCodec::type);
  }

  private static <C> void register(String what, List<C> all, C[] byId, Map<Class<?>, C> byType,
                                   Function<C, Integer> idOf, Function<C, Class<?>> typeOf) {
    for (C codec : all) {
      int id = idOf.apply(codec);
      if (id < 0 || id >= IDS) {
        throw new IllegalArgumentException("the " + what + " codec " + codec.getClass().getName() + " declares wire id "
            + id + ": a wire id is 0 to " + (IDS - 1));
      }
      if (byId[id] != null) {
        throw new IllegalArgumentException("the " + what + " codecs " + byId[id].getClass().getName() + " and "
            + codec.getClass().getName() + " both declare wire id " + id + ": each kind that travels needs its own");
      }
      C before = byType.putIfAbsent(typeOf.apply(codec), codec);
      if (before != null) {
        throw new IllegalArgumentException("the " + what + " codecs " + before.getClass().getName() + " and "
            + codec.getClass().getName() + " both carry " + typeOf.apply(codec).getName());
      }
      byId[id] = codec;
    }
  }

  public static TaskCodecs of(List<TaskCodec<?>> codecs) {
    return new TaskCodecs(codecs, List.of());
  }

  /** These codecs and {@code more}. */
  public TaskCodecs with(List<TaskCodec<?>> more) {
    List<TaskCodec<?>> all = new ArrayList<>(codecs);
    all.addAll(more);
    return new TaskCodecs(all, scans);
  }

  /** These codecs and the scan codecs {@code more}. */
  public TaskCodecs withScans(List<ScanCodec<?>> more) {
    List<ScanCodec<?>> all = new ArrayList<>(scans);
    all.addAll(more);
    return new TaskCodecs(codecs, all);
  }

  /** The codec of {@code task}'s class, or null when it cannot travel. */
  @SuppressWarnings("unchecked")
  <T extends ShardTask> TaskCodec<T> codecOf(ShardTask task) {
    return (TaskCodec<T>) codecByType.get(task.getClass());
  }

  /** The codec of {@code scan}'s class, or null when it cannot travel. */
  @SuppressWarnings("unchecked")
  <S extends ShardScan> ScanCodec<S> codecOf(ShardScan scan) {
    return (ScanCodec<S>) scanByType.get(scan.getClass());
  }

  @SuppressWarnings("unchecked")
  <T extends ShardTask> TaskCodec<T> codec(int id) {
    if (id < 0 || id >= IDS || codecById[id] == null) {
      throw new IllegalArgumentException("no task codec of wire id " + id);
    }
    return (TaskCodec<T>) codecById[id];
  }

  @SuppressWarnings("unchecked")
  <S extends ShardScan> ScanCodec<S> scanCodec(int id) {
    if (id < 0 || id >= IDS || scanById[id] == null) {
      throw new IllegalArgumentException("no scan codec of wire id " + id);
    }
    return (ScanCodec<S>) scanById[id];
  }
}
