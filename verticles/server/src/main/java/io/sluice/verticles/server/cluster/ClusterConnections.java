package io.sluice.verticles.server.cluster;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.sluice.protocol.binary.codec.Responses;
import io.sluice.verticles.engine.instance.ConnectionRegistry;
import io.sluice.verticles.engine.instance.ConnectionStats;
import io.sluice.verticles.engine.instance.ConnectionsElsewhere;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.internal.buffer.BufferInternal;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * CONNECTION across a cluster. Connection IDs are random per node and no node keeps a directory
 * of the others' (a connection comes and goes far more often than a key moves), so each node
 * answers for its own connections at its address, and a CONNECTION for an ID this node does not
 * have asks every other member at once: the first that has it answers with the connection's
 * CONNECTION item in the Throttr wire form, which the asking session copies as it is. No member
 * having it (or none answering within {@link #TIMEOUT_MILLIS}) answers {@code 00}, as an unknown
 * ID does on one node.
 */
final class ClusterConnections implements ConnectionsElsewhere {

  static final long TIMEOUT_MILLIS = 2_000;

  private final Vertx vertx;
  private final ClusterNode node;
  private final DeliveryOptions options = new DeliveryOptions().setSendTimeout(TIMEOUT_MILLIS);

  private ClusterConnections(Vertx vertx, ClusterNode node) {
    this.vertx = vertx;
    this.node = node;
  }

  /** Answers the other nodes for {@code connections}, and lets them look in the other nodes' from now on. */
  static Future<Void> start(Vertx vertx, ClusterNode node, ConnectionRegistry connections) {
    MessageConsumer<Buffer> consumer = vertx.eventBus().consumer(ClusterAddress.connection(node.self()),
        message -> answer(message, connections));
    return consumer.completion().onSuccess(v -> connections.lookElsewhereWith(new ClusterConnections(vertx, node)));
  }

  private static void answer(Message<Buffer> message, ConnectionRegistry connections) {
    ConnectionStats found = connections.find(message.body().getBytes());
    ByteBuf item = Unpooled.buffer(found == null ? 0 : Responses.CONNECTION_ITEM_LENGTH);
    if (found != null) {
      found.toItem().writeTo(item);
    }
    message.reply(BufferInternal.buffer(item));
  }

  @Override
  public boolean any() {
    return node.table().members().size() > 1;
  }

  @Override
  public CompletionStage<byte[]> find(byte[] id) {
    List<String> others = node.table().members().stream().filter(member -> !member.equals(node.self())).toList();
    CompletableFuture<byte[]> found = new CompletableFuture<>();
    if (others.isEmpty()) {
      found.complete(null);
      return found;
    }
    // Replies complete on the asking event loop, one at a time.
    int[] waiting = {others.size()};
    for (String member : others) {
      vertx.eventBus().<Buffer>request(ClusterAddress.connection(member), Buffer.buffer(id), options).onComplete(reply -> {
        // Anything but a whole item (none there, or a member of another version) is "not there".
        if (reply.succeeded() && reply.result().body().length() == Responses.CONNECTION_ITEM_LENGTH) {
          found.complete(reply.result().body().getBytes());
        }
        if (--waiting[0] == 0) {
          found.complete(null);
        }
      });
    }
    return found;
  }
}
