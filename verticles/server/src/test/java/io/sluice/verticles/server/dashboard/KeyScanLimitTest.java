package io.sluice.verticles.server.dashboard;

import io.sluice.verticles.engine.routing.ShardRouter;
import io.sluice.verticles.engine.instance.Instance;
import io.sluice.verticles.engine.shard.ShardBatch;
import io.sluice.verticles.engine.shard.ThrottrShard;
import io.sluice.verticles.engine.storage.Store;
import io.sluice.verticles.engine.time.ManualClock;
import io.sluice.protocol.binary.codec.Request;
import io.sluice.protocol.binary.codec.TtlUnit;
import io.sluice.protocol.binary.codec.ValueSize;
import io.sluice.verticles.server.bus.LocalObjectCodec;
import io.sluice.verticles.server.http.BearerToken;
import io.sluice.verticles.server.http.ProtectedMode;
import io.sluice.verticles.server.persistence.PersistentShards;
import io.sluice.verticles.server.listener.ListenerGuards;
import io.sluice.verticles.server.http.HttpFrontVerticle;
import io.sluice.verticles.server.kit.HttpCalls;
import io.sluice.verticles.server.kit.HttpCalls.Answer;
import io.sluice.verticles.server.dispatch.ShardAddress;
import io.sluice.verticles.server.dispatch.ShardDirectory;
import io.sluice.verticles.server.dispatch.ShardParcel;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * At most {@link KeyScans#AT_ONCE} key scans run at once (issue 12), over a real HTTP socket. The
 * shards are real {@link ThrottrShard}s behind a gate on their event-bus addresses, so the test,
 * not the clock, decides when a slice runs: with two scans held there, a third page is answered
 * 503 at once; once they are let through, pages are served again.
 */
class KeyScanLimitTest {

  private static final int SHARDS = 2;
  private static final DeliveryOptions LOCAL = new DeliveryOptions().setLocalOnly(true);

  private final Vertx vertx = Vertx.vertx();
  private final Context shardLoop = vertx.getOrCreateContext();
  private final List<ThrottrShard> shards = new ArrayList<>();
  private final List<Message<ShardParcel>> held = new ArrayList<>();
  private CountDownLatch heldBatches;
  private boolean open;
  private HttpCalls http;

  @AfterEach
  void stop() {
    if (http != null) {
      http.close();
    }
    await(vertx.close());
  }

  /** Serves the keys API of a dashboard whose shards answer only when the gate is open. */
  private void start(int batchesToHold) {
    heldBatches = new CountDownLatch(batchesToHold);
    ManualClock clock = new ManualClock();
    vertx.eventBus().registerDefaultCodec(ShardParcel.class, new LocalObjectCodec<>(ShardParcel.class));
    for (int i = 0; i < SHARDS; i++) {
      shards.add(new ThrottrShard(new Store(clock, clock.epochNanos()), ValueSize.UINT16));
      int shard = i;
      await(Future.<Void>future(registered -> shardLoop.runOnContext(v ->
          vertx.eventBus().<ShardParcel>consumer(ShardAddress.of(shard), this::arrived).completion()
              .onComplete(registered))));
    }
    for (int i = 0; i < 100; i++) {
      byte[] key = String.format("key:%03d", i).getBytes(StandardCharsets.US_ASCII);
      ShardBatch batch = new ShardBatch(ShardRouter.routeOf(key, SHARDS));
      batch.add(new Request.Insert(5, TtlUnit.SECONDS.code(), 60, key));
      shards.get(batch.route()).execute(batch);
    }
    Dashboard dashboard = new Dashboard(Instance.start("test", ValueSize.UINT16, SHARDS, clock),
        new ShardDirectory(SHARDS), new BearerToken(Optional.empty(), clock), DashboardData.empty(), ProtectedMode.off(),
        PersistentShards.none());
    HttpFrontVerticle front = new HttpFrontVerticle("127.0.0.1", 0, 8096, List.of(dashboard), ListenerGuards.none(clock));
    await(vertx.deployVerticle(front));
    http = new HttpCalls(vertx, front.actualPort());
  }

  private void arrived(Message<ShardParcel> parcel) {
    if (open) {
      serve(parcel);
    } else {
      held.add(parcel);
      // Count batches, not parcels: scans dispatched in one loop turn share one parcel per shard.
      parcel.body().batches().forEach(batch -> heldBatches.countDown());
    }
  }

  private void serve(Message<ShardParcel> parcel) {
    parcel.body().batches().forEach(batch -> shards.get(batch.route()).execute(batch));
    parcel.reply(parcel.body(), LOCAL);
  }

  private void openTheGate() {
    shardLoop.runOnContext(v -> {
      open = true;
      held.forEach(this::serve);
      held.clear();
    });
  }

  private static List<String> keysOf(JsonObject page) {
    return page.getJsonArray("items").stream().map(item -> ((JsonObject) item).getString("key")).toList();
  }

  @Test
  void aThirdScanWhileTwoRunIsAnswered503AndPagesAreServedOnceTheyEnd() throws Exception {
    start(KeyScans.AT_ONCE * SHARDS);
    List<Future<Answer>> running = new ArrayList<>();
    for (int i = 0; i < KeyScans.AT_ONCE; i++) {
      running.add(http.sendAsync(HttpMethod.GET, "/api/keys?limit=3", null));
    }
    assertThat(heldBatches.await(20, TimeUnit.SECONDS)).as("both scans reached both shards").isTrue();

    Answer busy = http.get("/api/keys?limit=3");
    assertThat(busy.status()).isEqualTo(503);
    assertThat(busy.header("Content-Type")).isEqualTo("application/json");
    assertThat(busy.header("Retry-After")).isEqualTo("1");
    assertThat(busy.json().getString("error")).contains("busy");

    openTheGate();
    for (Future<Answer> scan : running) {
      Answer page = await(scan);
      assertThat(page.status()).isEqualTo(200);
      assertThat(keysOf(page.json())).containsExactly("key:000", "key:001", "key:002");
    }
    Answer after = http.get("/api/keys?limit=3");
    assertThat(after.status()).isEqualTo(200);
    assertThat(after.json().getLong("total")).isEqualTo(100);
  }
}
