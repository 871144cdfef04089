package io.sluice.verticles.server.pubsub;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.sluice.protocol.binary.codec.Listing;
import io.sluice.protocol.binary.codec.Request;
import io.sluice.protocol.binary.codec.SubscriberItem;
import io.sluice.verticles.engine.channel.ChannelDirectory;
import io.sluice.verticles.engine.channel.ChannelName;
import io.sluice.verticles.engine.channel.OtherNodes;
import io.sluice.verticles.engine.log.LogText;
import io.sluice.verticles.engine.time.Clock;
import io.sluice.verticles.server.bus.EveryMember;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.internal.buffer.BufferInternal;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The channels of a whole cluster: each node answers, at {@link #address}, what its own
 * subscribers are (from its {@link ChannelDirectory}), and asks the other nodes the same for its
 * PUBLISH, CHANNEL and CHANNELS requests: one event-bus request per node for all of a read's
 * questions, each with a bounded timeout ({@link EveryMember}). Who the other nodes are is the
 * cluster manager's member list. A node that has no one answering there (still starting, or gone)
 * holds no subscriber; one that does not answer in time is left out and logged.
 */
public final class ChannelCensus {

  private static final System.Logger LOG = System.getLogger(ChannelCensus.class.getName());
  /** The failure code of a question that could not be read. */
  static final int UNREADABLE = 400;
  private static final byte PUBLISH = 1;
  private static final byte CHANNEL = 2;
  private static final byte CHANNELS = 3;

  private final EveryMember members;
  private final ChannelDirectory directory;

  private ChannelCensus(EveryMember members, ChannelDirectory directory) {
    this.members = members;
    this.directory = directory;
  }

  /** The census of a clustered Vert.x, or null on a single node. */
  public static ChannelCensus of(Vertx vertx, ChannelDirectory directory, Clock clock) {
    EveryMember members = new EveryMember(vertx, clock, LOG, "a channel answer");
    return members.clustered() ? new ChannelCensus(members, directory) : null;
  }

  /** Where {@code node} answers questions about its subscribers. */
  public static String address(String node) {
    return "sluice.cluster.channels." + node;
  }

  /** Answers the other nodes' questions on the caller's event loop; Vert.x spreads them among the loops that do. */
  MessageConsumer<Buffer> answerOn(Vertx vertx) {
    return vertx.eventBus().consumer(address(members.self()), this::answer);
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
    List<OtherNodes> answers = new ArrayList<>(requests.size());
    requests.forEach(request -> answers.add(OtherNodes.NONE));
    members.<Buffer, Buffer>ask(vertx, ChannelCensus::address, () -> questions(requests),
        answer -> {
          List<OtherNodes> parts = read(((BufferInternal) answer).getByteBuf(), requests);
          for (int i = 0; i < parts.size(); i++) {
            answers.set(i, answers.get(i).and(parts.get(i)));
          }
        },
        // A node that did not answer: its subscribers are not counted, and it may have some.
        () -> answers.replaceAll(part -> part.and(OtherNodes.NOT_ASKED)),
        () -> done.accept(answers));
  }

  private static Buffer questions(List<Request> requests) {
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
    return BufferInternal.buffer(questions);
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
