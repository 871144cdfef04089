package io.sluice.verticles.engine.persist;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.sluice.verticles.engine.storage.RecordImage;
import io.sluice.verticles.engine.storage.Store;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * One snapshot of a shard, walked in slices on the shard's thread so that it never holds the shard
 * for long: each slice images the live records of at most {@link #WORK_PER_SLICE} buckets and
 * records and hands them to the writer, in blocks of about a megabyte; the next slice runs once they are written, so at most one
 * slice of images waits in memory. Requests run between slices. Records changed meanwhile are in
 * the new log too, and images are whole states, so the snapshot plus that log is exact.
 */
public final class SnapshotRun {

  /**
   * The dashboard's key pages' slice size: about 1 ms of the shard's CPU with a million keys
   * (SnapshotCpuTimes, docs/benchmarks.md); 16,384 took 4.6 ms on average and 10 ms at worst.
   */
  public static final int WORK_PER_SLICE = 4_096;

  private final ShardPersistence persistence;
  private final Store store;
  private final long generation;
  private int cursor;
  private int slices;
  private long worstSliceNanos;

  SnapshotRun(ShardPersistence persistence, Store store, long generation) {
    this.persistence = persistence;
    this.store = store;
    this.generation = generation;
  }

  /**
   * Runs one slice. When more remain, {@code again} is run (on the writer's thread) once this one is
   * written: run the next slice on the shard's thread then. After the last, {@code finished} gets
   * the snapshot's failure, or null once it is in place.
   */
  public void slice(Runnable again, Consumer<Throwable> finished) {
    long start = System.nanoTime();
    List<ByteBuf> images = new ArrayList<>();
    cursor = image(store, cursor, images);
    slices++;
    worstSliceNanos = Math.max(worstSliceNanos, System.nanoTime() - start);
    if (cursor == 0) {
      persistence.snapshotPart(images, () -> { });
      persistence.finishSnapshot(generation, worstSliceNanos, finished);
    } else {
      persistence.snapshotPart(images, again);
    }
  }

  /**
   * Appends the images of the live records of one slice from {@code cursor} on to {@code images}, in
   * blocks of about {@link Block#TARGET_LENGTH}; answers the next cursor, 0 when the walk is done.
   * The whole of a slice's work on the shard's thread (JMH {@code SnapshotBenchmark} times it).
   */
  public static int image(Store store, int cursor, List<ByteBuf> images) {
    images.add(Unpooled.buffer(128 * 1024));
    return store.scanLive(cursor, WORK_PER_SLICE, record -> {
      ByteBuf last = images.get(images.size() - 1);
      if (last.readableBytes() >= Block.TARGET_LENGTH) {
        last = Unpooled.buffer(128 * 1024);
        images.add(last);
      }
      RecordImage.writeState(last, record);
    });
  }

  public int slices() {
    return slices;
  }

  public long worstSliceNanos() {
    return worstSliceNanos;
  }
}
