package io.sluice.verticles.engine.session;

import io.netty.buffer.ByteBuf;
import io.sluice.protocol.binary.codec.ConnectionItem;
import io.sluice.protocol.binary.codec.InfoSnapshot;
import io.sluice.protocol.binary.codec.Listing;
import io.sluice.protocol.binary.codec.Request;
import io.sluice.protocol.binary.codec.Responses;
import io.sluice.verticles.engine.channel.Channels;
import io.sluice.verticles.engine.instance.ConnectionStats;
import io.sluice.verticles.engine.instance.Instance;
import io.sluice.verticles.engine.routing.ShardRouter;
import io.sluice.verticles.engine.shard.ShardBatch;
import io.sluice.verticles.engine.shard.ShardListing;
import io.sluice.verticles.engine.shard.ShardSummary;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Writes the replies of one connection's read once everything it waited for is back, in request
 * order: a key request's reply cut from its shard's batch, a listing joined from every shard's
 * part (or its failure status when one shard's part failed), a connection another node answered,
 * and what the connection answers itself (WHOAMI, channels, connections). For {@link ThrottrSession}.
 * Not thread-safe: runs on the connection's thread.
 */
final class ReplyAssembly {

  private final Instance instance;
  private final ConnectionStats connection;
  private final Channels channels;
  private final ShardRouter router;

  ReplyAssembly(Instance instance, ConnectionStats connection, Channels channels, ShardRouter router) {
    this.instance = instance;
    this.connection = connection;
    this.channels = channels;
    this.router = router;
  }

  /** Appends the replies to every request of {@code read}, in order; its shards are all done. */
  void answer(PendingRead read, ByteBuf out) {
    int[] nextEntry = new int[router.lanes()];
    int[] nextByte = new int[router.lanes()];
    for (int i = 0; i < read.size(); i++) {
      Request target = read.request(i);
      if (target instanceof Request.Event event) {
        for (int level = 0; level < event.depth(); level++) {
          out.writeByte(Responses.SUCCESS);
        }
        target = event.inner();
      }
      if (target == null) {
        Responses.status(out, false);
        continue;
      }
      int lane = read.lane(i);
      if (lane >= 0) {
        ShardBatch batch = read.batches[lane];
        int end = batch.replyEnd(nextEntry[lane]++);
        out.writeBytes(batch.replies(), nextByte[lane], end - nextByte[lane]);
        nextByte[lane] = end;
      } else if (lane == PendingRead.EVERY_SHARD) {
        ShardListing.Parts parts = new ShardListing.Parts();
        boolean failed = false;
        // Each route's part, in its lane's batch in route order (as PendingRead added them).
        for (int route = 0; route < router.routes(); route++) {
          int itsLane = router.laneOf(route);
          ShardBatch batch = read.batches[itsLane];
          int entry = nextEntry[itsLane]++;
          nextByte[itsLane] = batch.replyEnd(entry);
          ShardListing part = batch.collected(entry);
          if (part != null) {
            part.joinInto(parts);
          }
          failed |= batch.failure(entry) != null;
        }
        if (failed) {
          // A listing missing one shard's part would be a lie: its failure status instead.
          Responses.status(out, false);
        } else {
          answerFromEveryShard(target, parts, out);
        }
      } else if (lane == PendingRead.ELSEWHERE) {
        byte[] item = read.answeredElsewhere(i);
        if (item == null) {
          Responses.status(out, false);
        } else {
          out.writeByte(Responses.SUCCESS);
          out.writeBytes(item);
        }
      } else {
        answerLocally(read, target, out);
      }
    }
  }

  private void answerFromEveryShard(Request request, ShardListing.Parts parts, ByteBuf out) {
    switch (request.type()) {
      case LIST:
        Listing.write(out, parts.keys(), Listing.keys(instance.valueSize()));
        break;
      case STATS:
        Listing.write(out, parts.keyStats(), Listing.KEY_STATS);
        break;
      default:
        Responses.info(out, info(parts.summaries()));
    }
  }

  private void answerLocally(PendingRead read, Request request, ByteBuf out) {
    switch (request.type()) {
      case WHOAMI:
        Responses.whoami(out, connection.id());
        break;
      case CONNECTION: {
        ConnectionStats found = instance.connections().find(((Request.Connection) request).id());
        if (found == null) {
          Responses.status(out, false);
        } else {
          Responses.connection(out, found.toItem());
        }
        break;
      }
      case CONNECTIONS: {
        List<ConnectionItem> items = new ArrayList<>();
        instance.connections().all().forEach(c -> items.add(c.toItem()));
        Listing.write(out, items, Listing.CONNECTIONS);
        break;
      }
      case SUBSCRIBE: {
        boolean subscribed = channels.subscribe(((Request.Subscribe) request).channel());
        read.subscribed |= subscribed && channels.spansNodes();
        Responses.status(out, subscribed);
        break;
      }
      case UNSUBSCRIBE:
        Responses.status(out, channels.unsubscribe(((Request.Unsubscribe) request).channel()));
        break;
      case PUBLISH:
        answerPublish((Request.Publish) request, read, out);
        break;
      case CHANNEL: {
        byte[] channel = ((Request.Channel) request).channel();
        Responses.channel(out, read.otherNodes == null ? channels.subscribers(channel)
            : channels.subscribers(channel, read.nextOtherNodes()));
        break;
      }
      case CHANNELS:
        Listing.write(out, read.otherNodes == null ? channels.channels() : channels.channels(read.nextOtherNodes()),
            Listing.CHANNELS);
        break;
      default:
        throw new IllegalArgumentException(request.type() + " is not answered locally");
    }
  }

  /** The publisher's own pushes come before its status byte: the Java SDK depends on that order. */
  private void answerPublish(Request.Publish publish, PendingRead read, ByteBuf out) {
    int own = read.otherNodes == null ? channels.publish(publish.channel(), publish.payload())
        : channels.publish(publish.channel(), publish.payload(), read.nextOtherNodes());
    if (own < 0) {
      Responses.status(out, false);
      return;
    }
    for (int i = 0; i < own; i++) {
      Responses.push(out, instance.valueSize(), publish.channel(), publish.payload());
    }
    connection.addPublishedBytes((long) own * publish.payload().length);
    Responses.status(out, true);
  }

  private InfoSnapshot info(List<ShardSummary> summaries) {
    long records = 0;
    long counters = 0;
    long buffers = 0;
    long bufferBytes = 0;
    for (ShardSummary summary : summaries) {
      records += summary.records();
      counters += summary.counters();
      buffers += summary.buffers();
      bufferBytes += summary.bufferBytes();
    }
    long now = instance.clock().epochNanos();
    return new InfoSnapshot(
        TimeUnit.NANOSECONDS.toSeconds(now),
        instance.counters().totals(),
        instance.counters().perMinute(),
        instance.connections().totalReadBytes(),
        instance.counters().readBytesPerMinute(),
        instance.connections().totalWriteBytes(),
        instance.counters().writeBytesPerMinute(),
        records,
        counters,
        buffers,
        counters * instance.valueSize().bytes(),
        bufferBytes,
        instance.channels().totalSubscriptions(),
        instance.channels().totalChannels(),
        instance.startedAtNanos(),
        instance.connections().size(),
        instance.version());
  }
}
