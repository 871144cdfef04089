package io.sluice.protocol.binary.client;

import io.sluice.protocol.binary.client.impl.ThrottrClientImpl;
import io.sluice.protocol.binary.codec.ConnectionItem;
import io.sluice.protocol.binary.codec.Listing;
import io.sluice.protocol.binary.codec.Request;
import io.sluice.protocol.binary.codec.RequestType;
import io.sluice.protocol.binary.codec.SubscriberItem;
import io.sluice.protocol.binary.codec.TtlUnit;
import io.sluice.protocol.binary.codec.response.Response;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * One TCP connection to a Throttr server. Requests may be pipelined freely: the server answers in
 * request order and the client matches replies to requests by position.
 *
 * <p>Every method may be called from any thread. Futures complete, and the push and close
 * handlers run, on the connection's event loop; a push that arrives before a reply is handled
 * before that reply's future completes. Keys and channels are at most 255 bytes; a request that
 * cannot be encoded fails without being sent. String keys, channels and payloads are sent as
 * UTF-8.
 *
 * <p>At most {@link ThrottrClientOptions#getMaxPending()} requests wait for replies at once; past
 * that, requests fail at once with {@link PendingQueueFullException}. When the connection closes,
 * every waiting request fails ({@link ConnectionClosedException}, or the
 * {@link io.sluice.protocol.binary.codec.response.ResponseDecodeException} that made the client close it).
 */
public interface ThrottrClient {

  static Future<ThrottrClient> connect(Vertx vertx, ThrottrClientOptions options) {
    return ThrottrClientImpl.connect(vertx, options);
  }

  /** Connects to 127.0.0.1:9000 with uint16 values. */
  static Future<ThrottrClient> connect(Vertx vertx) {
    return connect(vertx, new ThrottrClientOptions());
  }

  /** Sends any request; a failure reply ({@code 00}) is a successful {@code Status(false)}. */
  Future<Response> send(Request request);

  /**
   * Sends all requests in one socket write and completes with their replies, in request order.
   * Either all are sent or none is.
   */
  Future<List<Response>> batch(List<Request> requests);

  /** Called for every pushed pub/sub message on this connection. */
  ThrottrClient pushHandler(Handler<Response.Push> handler);

  /** Called once when the connection has closed, whichever side closed it. */
  ThrottrClient closeHandler(Handler<Void> handler);

  Future<Void> close();

  /** INSERT: {@code true} if created, {@code false} if the key exists. */
  default Future<Boolean> insert(byte[] key, long quota, TtlUnit ttlUnit, long ttl) {
    return send(new Request.Insert(quota, ttlUnit.code(), ttl, key))
        .map(reply -> Replies.ok(reply, RequestType.INSERT));
  }

  default Future<Boolean> insert(String key, long quota, TtlUnit ttlUnit, long ttl) {
    return insert(utf8(key), quota, ttlUnit, ttl);
  }

  /** QUERY: the counter, or {@code null} if there is no such key. */
  default Future<Response.QueryResult> query(byte[] key) {
    return send(new Request.Query(key))
        .map(reply -> Replies.orNullOnFailure(reply, Response.QueryResult.class, RequestType.QUERY));
  }

  default Future<Response.QueryResult> query(String key) {
    return query(utf8(key));
  }

  /** UPDATE: {@code false} if the key is missing or the change is refused (spec §2.3). */
  default Future<Boolean> update(byte[] key, UpdateAttribute attribute, UpdateChange change, long value) {
    return send(new Request.Update(attribute.code(), change.code(), value, key))
        .map(reply -> Replies.ok(reply, RequestType.UPDATE));
  }

  default Future<Boolean> update(String key, UpdateAttribute attribute, UpdateChange change, long value) {
    return update(utf8(key), attribute, change, value);
  }

  /** PURGE: {@code true} if a record was removed. */
  default Future<Boolean> purge(byte[] key) {
    return send(new Request.Purge(key)).map(reply -> Replies.ok(reply, RequestType.PURGE));
  }

  default Future<Boolean> purge(String key) {
    return purge(utf8(key));
  }

  /** SET: {@code false} if the key holds a counter. */
  default Future<Boolean> set(byte[] key, byte[] value, TtlUnit ttlUnit, long ttl) {
    return send(new Request.Set(ttlUnit.code(), ttl, key, value)).map(reply -> Replies.ok(reply, RequestType.SET));
  }

  default Future<Boolean> set(String key, byte[] value, TtlUnit ttlUnit, long ttl) {
    return set(utf8(key), value, ttlUnit, ttl);
  }

  /** GET: the buffer, or {@code null} if there is no such key. */
  default Future<Response.GetResult> get(byte[] key) {
    return send(new Request.Get(key))
        .map(reply -> Replies.orNullOnFailure(reply, Response.GetResult.class, RequestType.GET));
  }

  default Future<Response.GetResult> get(String key) {
    return get(utf8(key));
  }

  /** STAT: the record's metrics, or {@code null} if there is no such key. */
  default Future<Response.StatResult> stat(byte[] key) {
    return send(new Request.Stat(key))
        .map(reply -> Replies.orNullOnFailure(reply, Response.StatResult.class, RequestType.STAT));
  }

  default Future<Response.StatResult> stat(String key) {
    return stat(utf8(key));
  }

  default Future<List<Listing.KeyItem>> list() {
    return send(Request.Bare.LIST)
        .map(reply -> Replies.required(reply, Response.KeyList.class, RequestType.LIST).keys());
  }

  default Future<List<Listing.KeyStatsItem>> stats() {
    return send(Request.Bare.STATS)
        .map(reply -> Replies.required(reply, Response.KeyStatsList.class, RequestType.STATS).keys());
  }

  default Future<Response.Info> info() {
    return send(Request.Bare.INFO).map(reply -> Replies.required(reply, Response.Info.class, RequestType.INFO));
  }

  /** WHOAMI: this connection's 16-byte ID. */
  default Future<byte[]> whoami() {
    return send(Request.Bare.WHOAMI)
        .map(reply -> Replies.required(reply, Response.WhoAmI.class, RequestType.WHOAMI).id());
  }

  default Future<List<ConnectionItem>> connections() {
    return send(Request.Bare.CONNECTIONS)
        .map(reply -> Replies.required(reply, Response.ConnectionList.class, RequestType.CONNECTIONS).connections());
  }

  /** CONNECTION: the connection with this 16-byte ID, or {@code null} if there is none. */
  default Future<ConnectionItem> connection(byte[] id) {
    return send(new Request.Connection(id)).map(reply -> {
      Response.Connection found = Replies.orNullOnFailure(reply, Response.Connection.class, RequestType.CONNECTION);
      return found == null ? null : found.item();
    });
  }

  default Future<List<Listing.ChannelItem>> channels() {
    return send(Request.Bare.CHANNELS)
        .map(reply -> Replies.required(reply, Response.ChannelList.class, RequestType.CHANNELS).channels());
  }

  /** CHANNEL: the channel's subscription records; empty when nobody is subscribed. */
  default Future<List<SubscriberItem>> channel(byte[] name) {
    return send(new Request.Channel(name)).map(reply -> {
      Response.ChannelSubscribers found =
          Replies.orNullOnFailure(reply, Response.ChannelSubscribers.class, RequestType.CHANNEL);
      return found == null ? List.<SubscriberItem>of() : found.subscribers();
    });
  }

  default Future<List<SubscriberItem>> channel(String name) {
    return channel(utf8(name));
  }

  /** SUBSCRIBE: pushes for the channel then reach {@link #pushHandler}. */
  default Future<Boolean> subscribe(byte[] channel) {
    return send(new Request.Subscribe(channel)).map(reply -> Replies.ok(reply, RequestType.SUBSCRIBE));
  }

  default Future<Boolean> subscribe(String channel) {
    return subscribe(utf8(channel));
  }

  default Future<Boolean> unsubscribe(byte[] channel) {
    return send(new Request.Unsubscribe(channel)).map(reply -> Replies.ok(reply, RequestType.UNSUBSCRIBE));
  }

  default Future<Boolean> unsubscribe(String channel) {
    return unsubscribe(utf8(channel));
  }

  /**
   * PUBLISH: {@code false} if the channel has no subscribers. When this connection is subscribed
   * too, its own pushes reach {@link #pushHandler} before this future completes.
   */
  default Future<Boolean> publish(byte[] channel, byte[] payload) {
    return send(new Request.Publish(channel, payload)).map(reply -> Replies.ok(reply, RequestType.PUBLISH));
  }

  default Future<Boolean> publish(String channel, byte[] payload) {
    return publish(utf8(channel), payload);
  }

  default Future<Boolean> publish(String channel, String payload) {
    return publish(utf8(channel), utf8(payload));
  }

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
