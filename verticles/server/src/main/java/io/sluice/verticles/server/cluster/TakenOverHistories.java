package io.sluice.verticles.server.cluster;

import io.sluice.verticles.engine.channel.ChannelHistory;
import io.sluice.verticles.engine.storage.Record;
import io.sluice.verticles.engine.storage.Store;

import java.util.ArrayList;
import java.util.List;

/**
 * The channel histories of a partition this node serves from its own copy, its previous owner's
 * records having not come (the owner crashed, or did not answer): each gets a new epoch. Backups
 * are asynchronous, so the owner may have numbered and fanned out messages that never reached this
 * copy; this copy's next publish would reuse their offsets, and a client that saw one would
 * recover past the new message. Under a new epoch its recovery answers {@code epoch changed}
 * instead, as for any lost history, and it reloads. A handoff carries the records whole: no new
 * epoch then. Runs on the partition's shard thread, before it serves the partition.
 */
final class TakenOverHistories {

  private TakenOverHistories() {
  }

  /** Draws a new epoch for every channel history in {@code store}; returns how many. */
  static int renew(Store store) {
    List<Record> histories = new ArrayList<>();
    store.forEachLive(record -> {
      if (!record.isCounter() && ChannelHistory.isHistoryKey(record.key())) {
        histories.add(record);
      }
    });
    int renewed = 0;
    for (Record record : histories) {
      ChannelHistory history;
      try {
        history = ChannelHistory.decode(record.buffer());
      } catch (IllegalArgumentException notAHistory) {
        continue; // a Throttr SET overwrote it: the next publish starts a new epoch anyway
      }
      // The same size: the overwrite needs no room, so it neither fails nor evicts another record.
      store.overwriteBuffer(record, history.underNewEpoch(ChannelHistory.newEpoch()).encode(), record.ttlType(),
          record.expiresAtNanos());
      renewed++;
    }
    return renewed;
  }
}
