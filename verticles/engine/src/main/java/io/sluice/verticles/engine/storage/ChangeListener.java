package io.sluice.verticles.engine.storage;

/**
 * Told of every change a {@link Store} makes to its records, on the shard's thread, right after it
 * is made: the one feed that replication to backups, the append-only log and anything else that
 * must see every write listens to. A listener gets the record itself and reads its whole state
 * there (see {@link RecordImage}), so several changes to one record in a batch may be shipped as
 * its last state once.
 *
 * <p>Expiry is not a change: a record's absolute expiry time travels with it, and every copy
 * drops it at the same instant by itself.
 */
public interface ChangeListener {

  /** The listener of a store that has none: costs a call the JIT removes. */
  ChangeListener NONE = new ChangeListener() {
    @Override
    public void changed(Record record) {
    }

    @Override
    public void removed(Record record) {
    }
  };

  /** A record was created, or its value or expiry changed; it holds its whole new state. */
  void changed(Record record);

  /** A live record was deleted before its expiry: PURGE, a task's removal, an eviction. */
  void removed(Record record);

  /** Both listeners, {@code first} told first. */
  static ChangeListener both(ChangeListener first, ChangeListener second) {
    if (first == NONE) {
      return second;
    }
    if (second == NONE) {
      return first;
    }
    return new ChangeListener() {
      @Override
      public void changed(Record record) {
        first.changed(record);
        second.changed(record);
      }

      @Override
      public void removed(Record record) {
        first.removed(record);
        second.removed(record);
      }
    };
  }
}
