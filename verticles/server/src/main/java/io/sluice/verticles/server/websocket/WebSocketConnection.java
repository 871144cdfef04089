package io.sluice.verticles.server.websocket;

import io.sluice.protocol.binary.codec.RequestType;
import io.sluice.verticles.engine.instance.ConnectionStats;
import io.sluice.verticles.server.pubsub.ChannelMessage;
import io.sluice.verticles.server.front.FrontConnection;
import io.sluice.verticles.server.front.FrontKind;
import io.sluice.verticles.server.front.FrontLoop;
import io.sluice.verticles.server.front.Wire;
import io.sluice.verticles.server.http.ProtectedMode;
import io.sluice.verticles.server.wsauth.ChannelAccess;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http.websocketx.CorruptedWebSocketFrameException;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClosedException;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.http.WebSocketFrame;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;

import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * One WebSocket client of the bridge. Binary messages carry raw Throttr frames, run by the same
 * {@link ThrottrSession} as TCP (one message in, its replies out as one message). Text messages
 * carry JSON channel commands, one {@code handleX} per op; what the client may do, and its tokens'
 * {@code auth} and {@code refresh}, are {@link ConnectionTokens}'. Pushes go out in the client's
 * language: Throttr push frames once it has sent a binary message, JSON messages otherwise.
 */
final class WebSocketConnection extends FrontConnection implements MessageAssembler.Sink {

  private static final System.Logger LOG = System.getLogger(WebSocketConnection.class.getName());
  private static final short POLICY_VIOLATION = 1008;
  private static final FrontKind KIND = new FrontKind("WebSocket", ConnectionStats.Protocol.WEBSOCKET, true);

  private final ServerWebSocket socket;
  private final EventLoop eventLoop;
  private final Optional<PublishRate> publishRate;
  private final Vertx vertx;
  private final MessageAssembler messages;
  private final PresenceCensus presenceCensus;
  private final ConnectionPresence presence;
  private final HistoryCommands history;
  private final ConnectionTokens tokens;
  private final boolean writesRefused;
  private final int maxSubscriptions;
  private boolean binaryClient;
  private boolean repauseScheduled;
  private short closeStatus = POLICY_VIOLATION;

  /**
   * @param channel       the Netty channel under the socket (the upgraded HTTP connection's)
   * @param access        what the token presented at the upgrade earned, or the anonymous access
   * @param publishRate   the limit on publishes ({@code --ws-publish-rate}), if any
   * @param presenceLoop  presence on this loop: the node's registry, join/leave events, the cluster's query
   * @param writesRefused protected mode: this client may subscribe, not publish nor send Throttr frames,
   *                      until it presents a token
   */
  WebSocketConnection(ServerWebSocket socket, Channel channel, FrontLoop loop, Admission admission,
                      ChannelAccess access, boolean writesRefused, Optional<PublishRate> publishRate,
                      PresenceLoop presenceLoop) {
    super(KIND, loop, new Wire(socket.remoteAddress(), socket, socket, channel));
    this.socket = socket;
    this.eventLoop = channel.eventLoop();
    this.vertx = Vertx.currentContext().owner();
    this.publishRate = publishRate;
    this.writesRefused = writesRefused;
    this.maxSubscriptions = loop.limits().maxSubscriptions();
    this.messages = new MessageAssembler(loop.limits().maxFrame(), this);
    this.presenceCensus = presenceLoop.census();
    this.presence = new ConnectionPresence(presenceLoop, stats.idHex(), this::pushPresenceEvent);
    this.history = new HistoryCommands(channels, this::sendText, () -> closed);
    this.tokens = new ConnectionTokens(admission, vertx, instance.clock(), stats, channels, access, this::sendText,
        this::refuse);
  }

  void start() {
    tokens.start(this::open);
    socket.frameHandler(this::onFrame);
    socket.closeHandler(v -> {
      tokens.stop();
      presence.leaveAll();
      closed();
    });
  }

  private void onFrame(WebSocketFrame frame) {
    switch (frame.type()) {
      case TEXT, BINARY, CONTINUATION -> messages.add(frame);
      case PING, PONG -> onControl(frame);
      default -> { } // CLOSE: Vert.x answers it and then calls the close handler
    }
  }

  /**
   * Vert.x answers each ping with a pong as it decodes it, outside our writes: a client that pings
   * and never reads would grow the outbound queue without bound. Control frames count as input, and
   * their pongs obey the same bound as replies: the server stops reading until they drain.
   */
  private void onControl(WebSocketFrame frame) {
    countRead(frame.binaryData().length());
    stopReadingWhileQueueFull();
    if (readingPaused()) {
      keepPaused();
    }
  }

  /**
   * Vert.x asks for one more frame after delivering a control frame, which would undo our pause
   * and let a stream of pings through; pause again once this delivery has returned.
   */
  private void keepPaused() {
    if (!repauseScheduled) {
      repauseScheduled = true;
      eventLoop.execute(() -> {
        repauseScheduled = false;
        if (readingPaused()) {
          socket.pause();
        }
      });
    }
  }

  @Override
  public void binary(Buffer message) {
    ChannelAccess access = tokens.access();
    if (!access.mayUseThrottrFrames()) {
      countRead(message.length());
      close(access.admitted() ? "binary Throttr frames need the admin token" : "binary message before authentication");
      return;
    }
    if (writesRefused()) {
      countRead(message.length());
      close(ProtectedMode.REASON);
      return;
    }
    binaryClient = true;
    onFrames(message);
  }

  @Override
  public void text(String text) {
    countRead(ByteBufUtil.utf8Bytes(text));
    answerText(text);
    stopReadingWhileQueueFull();
  }

  /** Protected mode holds for clients that have proved nothing; a token proves who they are. */
  private boolean writesRefused() {
    return writesRefused && tokens.access() instanceof ChannelAccess.Anonymous;
  }

  /** Back-pressure as for binary messages: a client not reading its replies is not read from either. */
  private void stopReadingWhileQueueFull() {
    if (writable() && socket.writeQueueFull()) {
      session.setWritable(false);
    }
  }

  private void answerText(String text) {
    JsonObject command;
    try {
      command = new JsonObject(text);
    } catch (DecodeException | ClassCastException e) {
      sendText(JsonFrames.error(JsonFrames.notACommand(e), null));
      return;
    }
    Object id = command.getValue("id");
    String op = command.getValue("op") instanceof String name ? name : "";
    try {
      if (!tokens.access().admitted() && !op.equals("auth")) {
        sendText(JsonFrames.error("authenticate first: {\"op\":\"auth\",\"token\":\"…\"}", id));
        return;
      }
      switch (op) {
        case "auth": tokens.auth(command, id); break;
        case "refresh": tokens.refresh(command, id); break;
        case "subscribe": handleSubscribe(command, id); break;
        case "unsubscribe": handleUnsubscribe(command, id); break;
        case "publish": handlePublish(command, id); break;
        case "presence": handlePresence(command, id); break;
        case "history": handleHistory(command, id); break;
        default: sendText(JsonFrames.error("unknown op '" + op
            + "' (subscribe, unsubscribe, publish, history, presence, auth, refresh)", id));
      }
    } catch (IllegalArgumentException e) {
      sendText(JsonFrames.error(e.getMessage(), id));
    }
  }

  private void handleSubscribe(JsonObject command, Object id) {
    String channel = channel(command);
    boolean joinLeave = ConnectionPresence.asksJoinLeave(command);
    ChannelAccess access = tokens.access();
    // Join and leave events tell whoever is there: the right to ask for presence.
    if (!access.maySubscribe(channel, stats.idHex()) || joinLeave && !access.presence()) {
      sendText(JsonFrames.forbidden("subscribe", channel, id));
      return;
    }
    countRequest(RequestType.SUBSCRIBE);
    byte[] name = channel.getBytes(StandardCharsets.UTF_8);
    // The user joins presence once the subscribe is acknowledged, so that the client's own join
    // event never comes before its ack; an unsubscribe or a close meanwhile means no join.
    Runnable acknowledged = () -> {
      if (channels.holds(name)) {
        presence.join(channel, access.user(), joinLeave);
      }
    };
    boolean recovering = command.containsKey("since");
    boolean subscribed = recovering ? history.subscribeSince(channel, command.getValue("since"), id, acknowledged)
        : channels.subscribe(name);
    if (!subscribed) {
      sendText(JsonFrames.error("this connection holds " + maxSubscriptions
          + " subscriptions, the most it may (--max-subscriptions)", id));
      return;
    }
    // A recovering subscribe is acknowledged once the history is read, a plain one once messages
    // published on any node reach it: at once, but for the moments after a cluster node started.
    if (!recovering) {
      channels.whenHeardEverywhere(() -> {
        if (!closed) {
          sendText(JsonFrames.ack("subscribe", channel, true, id));
          acknowledged.run();
        }
      });
    }
  }

  /** The latest messages of a channel the client may subscribe to. */
  private void handleHistory(JsonObject command, Object id) {
    String channel = channel(command);
    if (!tokens.access().maySubscribe(channel, stats.idHex())) {
      sendText(JsonFrames.forbidden("history", channel, id));
      return;
    }
    history.history(channel, command, id);
  }

  private void handleUnsubscribe(JsonObject command, Object id) {
    String channel = channel(command);
    countRequest(RequestType.UNSUBSCRIBE);
    presence.leave(channel);
    sendText(JsonFrames.ack("unsubscribe", channel, channels.unsubscribe(channel.getBytes(StandardCharsets.UTF_8)), id));
  }

  /** Who is in the channel across the cluster: for the admin, and users whose token has {@code presence}. */
  private void handlePresence(JsonObject command, Object id) {
    String channel = channel(command);
    ChannelAccess access = tokens.access();
    if (!access.presence() || !access.maySubscribe(channel, stats.idHex())) {
      sendText(JsonFrames.forbidden("presence", channel, id));
      return;
    }
    presenceCensus.ask(vertx, channel).onSuccess(part -> sendText(JsonFrames.presence(channel, part, id)));
  }

  /** As pushes are: dropped, and counted, when the client does not read fast enough. */
  private void pushPresenceEvent(String event) {
    if (writable() && !socket.writeQueueFull()) {
      sendPush(() -> sendText(event));
    } else if (writable()) {
      stats.countDroppedPush();
    }
  }

  /** As in the binary protocol, this client's own pushes come before its acknowledgement. */
  private void handlePublish(JsonObject command, Object id) {
    if (writesRefused()) {
      sendText(JsonFrames.error(ProtectedMode.REASON, id));
      return;
    }
    String channel = channel(command);
    if (!tokens.access().mayPublish(channel)) {
      sendText(JsonFrames.forbidden("publish", channel, id));
      return;
    }
    countRequest(RequestType.PUBLISH);
    byte[] payload = JsonFrames.data(command);
    if (publishRate.isEmpty()) {
      publish(channel, payload, id);
      return;
    }
    // Answered once the shard has counted it: commands sent after it may be answered first.
    String key = tokens.access().user().map(user -> "user:" + user).orElse("connection:" + stats.idHex());
    publishRate.get().take(key).onComplete(verdict -> {
      if (closed) {
        return;
      }
      if (verdict.failed()) {
        sendText(JsonFrames.error("publish limit not checked: " + verdict.cause().getMessage(), id));
      } else if (!verdict.result().allowed()) {
        sendText(JsonFrames.rateLimited(verdict.result().retryAfterMillis(), id));
      } else {
        try {
          publish(channel, payload, id);
        } catch (IllegalArgumentException e) {
          sendText(JsonFrames.error(e.getMessage(), id));
        }
      }
    });
  }

  /** With history, the channel's owner numbers the message and every subscription gets it from there. */
  private void publish(String channel, byte[] payload, Object id) {
    if (history.enabled()) {
      history.publish(channel, payload, id);
      return;
    }
    byte[] name = channel.getBytes(StandardCharsets.UTF_8);
    int own = channels.publish(name, payload);
    ChannelMessage message = new ChannelMessage(name, payload, stats.id());
    for (int i = 0; i < own; i++) {
      push(message);
    }
    if (own > 0) {
      stats.addPublishedBytes((long) own * payload.length);
    }
    sendText(JsonFrames.ack("publish", channel, own >= 0, id));
  }

  private static String channel(JsonObject command) {
    if (!(command.getValue("channel") instanceof String channel)) {
      throw new IllegalArgumentException("\"channel\" must be a string");
    }
    if (channel.getBytes(StandardCharsets.UTF_8).length > 255) {
      throw new IllegalArgumentException("a channel name is at most 255 bytes");
    }
    return channel;
  }

  /** JSON clients get pushes as JSON text; binary clients as Throttr push frames. */
  @Override
  public boolean push(ChannelMessage message) {
    if (binaryClient) {
      return super.push(message);
    }
    if (!writable() || socket.writeQueueFull()) {
      return false;
    }
    String text = message.text(JsonFrames::message);
    sendPush(() -> sendText(text));
    return true;
  }

  private void sendText(String text) {
    if (writable()) {
      socket.writeTextMessage(text).onSuccess(v -> countWritten(ByteBufUtil.utf8Bytes(text)));
    }
  }

  /** The peer may have closed before our close handler ran; writing then would throw. */
  @Override
  protected boolean writable() {
    return super.writable() && !socket.isClosed();
  }

  /** Bad WebSocket input: closes with the status RFC 6455 §7.4.1 gives its cause. */
  @Override
  public void refuse(short status, String reason) {
    closeStatus = status;
    close(reason);
  }

  /**
   * The decoder's refusals carry their close status (1002 protocol error, 1009 frame too big); a
   * peer that went away without a close handshake is routine. Anything else is a Sluice bug.
   */
  @Override
  protected void onException(Throwable error) {
    if (error instanceof CorruptedWebSocketFrameException corrupted) {
      refuse((short) corrupted.closeStatus().code(), corrupted.getMessage());
    } else if (error instanceof HttpClosedException) {
      LOG.log(System.Logger.Level.DEBUG, "WebSocket " + peer() + " went away without a close handshake");
    } else {
      super.onException(error);
    }
  }

  /** Other closes (bad Throttr input, authentication) are policy violations, 1008. */
  @Override
  protected void closeTransport(String reason) {
    socket.close(closeStatus, reason.length() > 120 ? reason.substring(0, 120) : reason);
    // Reading was stopped at the bad input; without the peer's answering close frame Vert.x would
    // keep the TCP connection for its closing timeout (10 s). Frames that come meanwhile are dropped.
    socket.frameHandler(ignored -> { });
    readTheClosingHandshake();
  }
}
