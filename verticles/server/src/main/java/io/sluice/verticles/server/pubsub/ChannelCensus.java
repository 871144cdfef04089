package io.sluice.verticles.server.pubsub;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.sluice.protocol.binary.codec.Listing;
import io.sluice.protocol.binary.codec.Request;
import io.sluice.protocol.binary.codec.SubscriberItem;
import io.sluice.verticles.engine.channel.ChannelDirectory;
import io.sluice.verticles.engine.channel.ChannelName;
import io.sluice.verticles.engine.channel.OtherNodes;
import io.sluice.verticles.engine.log.LogLimiter;
import io.sluice.verticles.engine.log.LogText;
import io.sluice.verticles.engine.time.Clock;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.internal.buffer.BufferInternal;
import io.vertx.core.spi.cluster.ClusterManager;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The channels of a whole cluster: each node answers, at {@link #address}, what its own
 * subscribers are (from its {@link ChannelDirectory}), and asks the other nodes the same for its
 * PUBLISH, CHANNEL and CHANNELS requests: one event-bus request per node for all of a read's
 * questions, each with a bounded timeout. Who the other nodes are is the cluster manager's member
 * list. A node that has no one answering there (still starting, or gone) holds no subscriber; one
 * that does not answer in time is left out and logged.
 */
public final class ChannelCensus {

  private static final System.Logger LOG = System.getLogger(ChannelCensus.class.getName());
  /** How long a node waits for another's answer before leaving it out. */
  static final long TIMEOUT_MILLIS = 2_000;
  /** The failure code of a question that could not be read. */
  static final int UNREADABLE = 400;
  private static final byte PUBLISH = 1;
  private static final byte CHANNEL = 2;
  private static final byte CHANNELS = 3;

  private final ClusterManager cluster;
  private final ChannelDirectory directory;
  private final LogLimiter unanswered;
  private final DeliveryOptions options = new DeliveryOptions().setSendTimeout(TIMEOUT_MILLIS);

  private ChannelCensus(ClusterManager cluster, ChannelDirectory directory, Clock clock) {
    this.cluster = cluster;
    this.directory = directory;
    this.unanswered = new LogLimiter(clock, 10_000_000_000L);
  }

  /** The census of a clustered Vert.x, or null on a single node. */
  public static ChannelCensus of(Vertx vertx, ChannelDirectory directory, Clock clock) {
    ClusterManager cluster = ((VertxInternal) vertx).clusterManager();
    return cluster == null ? null : new ChannelCensus(cluster, directory, clock);
  }

  /** Where {@code node} answers questions about its subscribers. */
  public static String address(String node) {
    return "sluice.cluster.channels." + node;
  }

  /** Answers the other nodes' questions on the caller's event loop; Vert.x spreads them among the loops that do. */
  MessageConsumer<Buffer> answerOn(Vertx vertx) {
    return vertx.eventBus().consumer(address(cluster.getNodeId()), this::answer);
  }

  private void answer(Message<Buffer> message) {
    ByteBuf out;
    try {
      ByteBuf in = ((BufferInternal) message.body()).getByteBuf();
      int questions = in.readUnsignedShortLE();
      out = Unpooled.buffer(64 * questions);
      for (int i = 0; i < questions; i++) {
        byte kind = in.readByte();
        byte[] channel = new byte[in.readInt()];
        in.readBytes(channel);
        switch (kind) {
          case PUBLISH -> out.writeInt(directory.subscriptions(new ChannelName(channel)));
          case CHANNEL -> writeSubscribers(out, directory.subscribers(new ChannelName(channel)));
          case CHANNELS -> writeChannels(out, directory.channels());
          default -> throw new IllegalArgumentException("unknown question " + kind);
        }
      }
    } catch (RuntimeException unreadable) {
      LOG.log(System.Logger.Level.ERROR, "a channel question from another node could not be read: "
          + LogText.failure(unreadable));
      message.fail(UNREADABLE, String.valueOf(unreadable));
      return;
    }
    message.reply(BufferInternal.buffer(out));
  }

  /**
   * Asks every other node its part of these PUBLISH, CHANNEL and CHANNELS requests. {@code done}
   * gets one answer per request on the caller's event loop, at once when this node is alone.
   */
  void ask(Vertx vertx, List<Request> requests, Consumer<List<OtherNodes>> done) {
    List<String> others = new ArrayList<>(cluster.getNodes());
    others.remove(cluster.getNodeId());
    List<OtherNodes> answers = new ArrayList<>(requests.size());
    requests.forEach(request -> answers.add(OtherNodes.NONE));
    if (others.isEmpty()) {
      done.accept(answers);
      return;
    }
    ByteBuf questions = Unpooled.buffer(16 * requests.size());
    questions.writeShortLE(requests.size());
    for (Request request : requests) {
      byte[] channel = request instanceof Request.Publish publish ? publish.channel()
          : request instanceof Request.Channel named ? named.channel() : new byte[0];
      questions.writeByte(switch (request.type()) {
        case PUBLISH -> PUBLISH;
        case CHANNEL -> CHANNEL;
        case CHANNELS -> CHANNELS;
        default -> throw new IllegalArgumentException(request.type() + " is not a channel question");
      });
      questions.writeInt(channel.length).writeBytes(channel);
    }
    Buffer ask = BufferInternal.buffer(questions);
    int[] waiting = {others.size()};
    for (String node : others) {
      vertx.eventBus().<Buffer>request(address(node), ask, options).onComplete(reply -> {
        try {
          if (reply.succeeded()) {
            List<OtherNodes> parts = read(((BufferInternal) reply.result().body()).getByteBuf(), requests);
            for (int i = 0; i < parts.size(); i++) {
              answers.set(i, answers.get(i).and(parts.get(i)));
            }
          } else if (!(reply.cause() instanceof ReplyException e && e.failureType() == ReplyFailure.NO_HANDLERS)) {
            leaveOut(node, answers, reply.cause());
          }
        } catch (RuntimeException unreadable) {
          leaveOut(node, answers, unreadable);
        }
        if (--waiting[0] == 0) {
          done.accept(answers);
        }
      });
    }
  }

  /** A node that did not answer: its subscribers are not counted, and it may have some. */
  private void leaveOut(String node, List<OtherNodes> answers, Throwable why) {
    unanswered.log(LOG, System.Logger.Level.WARNING, "node " + node + " is left out of a channel answer: "
        + LogText.failure(why));
    answers.replaceAll(part -> part.and(OtherNodes.NOT_ASKED));
  }

  private static List<OtherNodes> read(ByteBuf in, List<Request> requests) {
    List<OtherNodes> parts = new ArrayList<>(requests.size());
    for (Request request : requests) {
      parts.add(read(in, request));
    }
    return parts;
  }

  private static OtherNodes read(ByteBuf in, Request request) {
    return switch (request.type()) {
      case PUBLISH -> new OtherNodes(in.readInt(), List.of(), List.of(), true);
      case CHANNEL -> new OtherNodes(0, readSubscribers(in), List.of(), true);
      default -> new OtherNodes(0, List.of(), readChannels(in), true);
    };
  }

  private static void writeSubscribers(ByteBuf out, List<SubscriberItem> items) {
    out.writeInt(items.size());
    items.forEach(item -> item.writeTo(out));
  }

  private static List<SubscriberItem> readSubscribers(ByteBuf in) {
    int count = in.readInt();
    List<SubscriberItem> items = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      byte[] id = new byte[16];
      in.readBytes(id);
      items.add(new SubscriberItem(id, in.readLongLE(), in.readLongLE(), in.readLongLE()));
    }
    return items;
  }

  private static void writeChannels(ByteBuf out, List<Listing.ChannelItem> items) {
    out.writeInt(items.size());
    for (Listing.ChannelItem item : items) {
      out.writeInt(item.channel().length).writeBytes(item.channel());
      out.writeLongLE(item.readBytes()).writeLongLE(item.writeBytes()).writeLongLE(item.subscriptions());
    }
  }

  private static List<Listing.ChannelItem> readChannels(ByteBuf in) {
    int count = in.readInt();
    List<Listing.ChannelItem> items = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      byte[] name = new byte[in.readInt()];
      in.readBytes(name);
      items.add(new Listing.ChannelItem(name, in.readLongLE(), in.readLongLE(), in.readLongLE()));
    }
    return items;
  }
}
