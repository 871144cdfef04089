package io.sluice.verticles.server.dashboard;

import io.sluice.protocol.binary.client.ThrottrClient;
import io.sluice.protocol.binary.client.ThrottrClientOptions;
import io.sluice.protocol.binary.codec.TtlUnit;
import io.sluice.verticles.engine.shard.ShardSummary;
import io.sluice.verticles.engine.storage.Eviction;
import io.sluice.verticles.engine.storage.RecordBudget;
import io.sluice.verticles.engine.storage.StoreLimits;
import io.sluice.verticles.server.kit.HttpCalls;
import io.sluice.verticles.server.kit.SluiceUnderTest;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/** GET /api/overview shows the keys and their memory against --max-keys and --max-memory. */
class OverviewBoundTest {

  private final Vertx vertx = Vertx.vertx();
  private final SluiceUnderTest sut = new SluiceUnderTest(vertx,
      SluiceUnderTest.defaults().withRecordLimits(new StoreLimits(10, 3L << 20, Eviction.VOLATILE_TTL)));
  private final HttpCalls http = new HttpCalls(vertx, sut.httpPort());
  private final ThrottrClient throttr = await(ThrottrClient.connect(vertx,
      new ThrottrClientOptions().setHost("127.0.0.1").setPort(sut.tcpPort())));

  @AfterEach
  void stop() {
    await(throttr.close());
    http.close();
    sut.close();
    await(vertx.close());
  }

  @Test
  void theOverviewShowsRecordsAgainstTheirLimits() {
    for (int i = 0; i < 30; i++) {
      assertThat(await(throttr.insert(String.format("key-%02d", i), 1, TtlUnit.SECONDS, 60 + i))).isTrue();
    }
    JsonObject overview = http.get("/api/overview").json();
    JsonObject bound = overview.getJsonObject("bound");
    long recordBytes = RecordBudget.estimate("key-00".length(), null);
    assertThat(overview.getJsonObject("keys").getLong("total")).isEqualTo(10);
    assertThat(bound.getLong("recordMemoryBytes")).isEqualTo(10 * recordBytes);
    assertThat(bound.getLong("maxKeys")).isEqualTo(10);
    assertThat(bound.getLong("maxMemoryBytes")).isEqualTo(3L << 20);
    assertThat(bound.getString("eviction")).isEqualTo("volatile-ttl");
    assertThat(bound.getJsonObject("evicted")).isEqualTo(new JsonObject().put("max-keys", 20).put("max-memory", 0));
    assertThat(bound.getLong("rejected")).isZero();
    JsonArray shards = overview.getJsonArray("shards");
    assertThat(shards.getJsonObject(0).getLong("memoryBytes") + shards.getJsonObject(1).getLong("memoryBytes"))
        .isEqualTo(10 * recordBytes);
  }

  @Test
  void unlimitedIsNull() {
    ShardSummary unlimited = new ShardSummary(0, 0, 0, 0, 0, 0, 0, 0, 0, StoreLimits.unlimited());
    JsonObject bound = Overview.bound(java.util.List.of(unlimited, unlimited));
    assertThat(bound.getValue("maxKeys")).isNull();
    assertThat(bound.getValue("maxMemoryBytes")).isNull();
  }
}
