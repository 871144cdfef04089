package io.sluice.verticles.engine.shard;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.verticles.engine.storage.Store;
import io.sluice.verticles.engine.testsupport.Wire;
import io.sluice.verticles.engine.time.ManualClock;
import io.sluice.protocol.binary.codec.Request;
import io.sluice.protocol.binary.codec.ValueSize;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** One shard on a manual clock, driven with requests written as wire hex. */
final class ShardFixture {

  final ManualClock clock = new ManualClock();
  final ValueSize size;
  final Store store;
  final ThrottrShard shard;

  ShardFixture(ValueSize size) {
    this.size = size;
    this.store = new Store(clock, clock.epochNanos());
    this.shard = new ThrottrShard(store, size);
  }

  ShardFixture() {
    this(ValueSize.UINT16);
  }

  /** Runs one request frame (hex) alone in a batch and answers the reply as spaced hex. */
  String run(String requestHex) {
    return run(Wire.request(size, requestHex));
  }

  String run(Request request) {
    return replies(execute(request)).get(0);
  }

  /** Runs several requests in ONE batch. */
  ShardBatch execute(Request... requests) {
    ShardBatch batch = new ShardBatch(0);
    for (Request request : requests) {
      batch.add(request);
    }
    shard.execute(batch);
    return batch;
  }

  ShardBatch executeHex(String... requestHexes) {
    Request[] requests = new Request[requestHexes.length];
    for (int i = 0; i < requests.length; i++) {
      requests[i] = Wire.request(size, requestHexes[i]);
    }
    return execute(requests);
  }

  /** The reply of each request of an executed batch, cut at its replyEnd. */
  static List<String> replies(ShardBatch batch) {
    List<String> replies = new ArrayList<>();
    int start = 0;
    for (int i = 0; i < batch.size(); i++) {
      int end = batch.replyEnd(i);
      assertThat(end).isGreaterThanOrEqualTo(start);
      replies.add(Wire.hex(batch.replies(), start, end));
      start = end;
    }
    assertThat(batch.replies().writerIndex()).isEqualTo(start);
    return replies;
  }

  void advance(Duration duration) {
    clock.advance(duration);
  }

  void advanceMillis(long millis) {
    clock.advance(Duration.ofMillis(millis));
  }

  static byte[] key(String text) {
    return Wire.ascii(text);
  }

  // Typed request builders for parameterised value sizes.

  static Request insert(long quota, int ttlType, long ttl, String key) {
    return new Request.Insert(quota, ttlType, ttl, key(key));
  }

  static Request query(String key) {
    return new Request.Query(key(key));
  }

  static Request get(String key) {
    return new Request.Get(key(key));
  }

  static Request purge(String key) {
    return new Request.Purge(key(key));
  }

  static Request stat(String key) {
    return new Request.Stat(key(key));
  }

  static Request set(int ttlType, long ttl, String key, byte[] value) {
    return new Request.Set(ttlType, ttl, key(key), value);
  }

  static Request update(int attribute, int change, long value, String key) {
    return new Request.Update(attribute, change, value, key(key));
  }

  /** A QUERY reply in wire hex for this fixture's value size. */
  String queryReply(long quota, int ttlType, long ttl) {
    io.netty.buffer.ByteBuf out = io.netty.buffer.Unpooled.buffer();
    io.sluice.protocol.binary.codec.Responses.query(out, size, quota, ttlType, ttl);
    return Wire.hex(out);
  }

  /** What the listing at {@code index} collected, as the session joins it. */
  static ShardListing.Parts collected(ShardBatch batch, int index) {
    ShardListing.Parts parts = new ShardListing.Parts();
    batch.collected(index).joinInto(parts);
    return parts;
  }

  /** The keys of a LIST item collection, as ASCII. */
  static List<String> collectedKeys(ShardBatch batch, int index) {
    List<String> keys = new ArrayList<>();
    for (io.sluice.protocol.binary.codec.Listing.KeyItem item : collected(batch, index).keys()) {
      keys.add(new String(item.key(), java.nio.charset.StandardCharsets.US_ASCII));
    }
    return keys;
  }
}
