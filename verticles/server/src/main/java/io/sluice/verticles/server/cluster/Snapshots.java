package io.sluice.verticles.server.cluster;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.sluice.verticles.engine.storage.Record;
import io.sluice.verticles.engine.storage.RecordImage;
import io.sluice.verticles.engine.storage.Store;

import java.util.ArrayList;
import java.util.List;

/** A partition's whole store as record images, and back: what a handoff and a new backup's seed carry. */
final class Snapshots {

  private Snapshots() {
  }

  /** Every live record of the store. */
  static ByteBuf take(Store store) {
    ByteBuf out = Unpooled.buffer(store.size() * 32 + 16);
    store.forEachLive(record -> RecordImage.writeState(out, record));
    return out;
  }

  /** Makes the store hold exactly the images: what it held before is dropped first. */
  static void install(Store store, ByteBuf images) {
    clear(store);
    apply(store, images);
  }

  /** Applies every image, in order. */
  static void apply(Store store, ByteBuf images) {
    while (images.isReadable()) {
      RecordImage.apply(images, store);
    }
  }

  /**
   * Adds the images of keys the store does not hold; the store's own records win. Joins a copy
   * loaded from disk with the copy that serves (docs/cluster.md, "Persistence").
   */
  static void merge(Store store, ByteBuf images) {
    while (images.isReadable()) {
      RecordImage.applyIfAbsent(images, store);
    }
  }

  /**
   * Joins the images into the store key by key, keeping for a key both hold the state that has
   * consumed more ({@link RecordImage#applyStricter}); keys only one holds are kept. Joins two
   * copies of a partition that served apart during a split (docs/cluster.md, "A network split").
   */
  static void joinStricter(Store store, ByteBuf images) {
    while (images.isReadable()) {
      RecordImage.applyStricter(images, store);
    }
  }

  /** Drops every record: a copy this node no longer keeps. */
  static void clear(Store store) {
    List<Record> all = new ArrayList<>(store.size());
    store.forEachLive(all::add);
    all.forEach(store::remove);
  }
}
