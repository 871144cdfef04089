package io.sluice.verticles.server.dispatch;

import io.sluice.protocol.binary.client.ThrottrClient;
import io.sluice.protocol.binary.client.ThrottrClientOptions;
import io.sluice.protocol.binary.codec.Request;
import io.sluice.protocol.binary.codec.TtlUnit;
import io.sluice.protocol.binary.codec.ValueSize;
import io.sluice.protocol.binary.codec.response.Response;
import io.sluice.verticles.engine.storage.Eviction;
import io.sluice.verticles.engine.storage.StoreLimits;
import io.sluice.verticles.server.kit.HttpCalls;
import io.sluice.verticles.server.kit.Scrapes;
import io.sluice.verticles.server.kit.SluiceUnderTest;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The attack over a real socket: --max-keys 10000, 100,000 distinct INSERTs with shuffled
 * TTLs. The count stays within the bound, every insert is served, a fresh client is served while
 * the flood runs, and what is left is (mostly: eviction samples) the records that expire last.
 */
class EvictionUnderFloodTest {

  private static final int MAX_KEYS = 10_000;
  private static final int KEYS = 100_000;
  private static final int BATCH = 1_000;
  /** The fresh client's keys outlive every attacker key, so they must all survive. */
  private static final long FRESH_TTL_SECONDS = 10_000_000;

  private final Vertx vertx = Vertx.vertx();
  private final SluiceUnderTest sut = new SluiceUnderTest(vertx, SluiceUnderTest.defaults().withValueSize(ValueSize.UINT32)
      .withRecordLimits(new StoreLimits(MAX_KEYS, StoreLimits.UNLIMITED, Eviction.VOLATILE_TTL)));
  private final ThrottrClient attacker = connect();
  private final ThrottrClient fresh = connect();

  private ThrottrClient connect() {
    return await(ThrottrClient.connect(vertx, new ThrottrClientOptions().setHost("127.0.0.1").setPort(sut.tcpPort())
        .setValueSize(ValueSize.UINT32).setMaxPending(2 * BATCH)));
  }

  @AfterEach
  void stop() {
    await(attacker.close());
    await(fresh.close());
    sut.close();
    await(vertx.close());
  }

  private static byte[] key(String prefix, int i) {
    return (prefix + i).getBytes(StandardCharsets.US_ASCII);
  }

  @Test
  void aFloodOfNewKeysStaysWithinTheBoundAndLeavesTheLatestExpiries() {
    List<Integer> ttls = new ArrayList<>();
    for (int i = 0; i < KEYS; i++) {
      ttls.add(1_000 + i);
    }
    Collections.shuffle(ttls, new Random(20));
    int freshKeys = 0;
    for (int from = 0; from < KEYS; from += BATCH) {
      List<Request> inserts = new ArrayList<>();
      for (int i = from; i < from + BATCH; i++) {
        inserts.add(new Request.Insert(1, TtlUnit.SECONDS.code(), ttls.get(i), key("attacker-", i)));
      }
      Future<List<Response>> flood = attacker.batch(inserts);
      // While the batch is in flight, a client with a new key of its own is served.
      String mine = "fresh-" + freshKeys++;
      assertThat(await(fresh.insert(mine, 7, TtlUnit.SECONDS, FRESH_TTL_SECONDS))).as("fresh insert %s", mine).isTrue();
      assertThat(await(fresh.query(mine)).quota()).isEqualTo(7);
      assertThat(await(fresh.info()).figures().totalKeys()).isLessThanOrEqualTo(MAX_KEYS);
      assertThat(await(flood)).allMatch(reply -> ((Response.Status) reply).ok(), "every insert is served");
      assertThat(await(fresh.info()).figures().totalKeys()).isLessThanOrEqualTo(MAX_KEYS);
    }
    assertThat(await(fresh.info()).figures().totalKeys()).isEqualTo(MAX_KEYS);

    for (int i = 0; i < freshKeys; i++) {
      assertThat(await(fresh.query("fresh-" + i))).as("fresh-%d, the latest expiry of all", i).isNotNull();
    }
    // The exact choice keeps the attacker keys of the 9,900 latest TTLs (the fresh keys hold 100 places).
    int latestAttackerKeys = MAX_KEYS - freshKeys;
    List<Request> queries = new ArrayList<>();
    for (int i = 0; i < KEYS; i++) {
      if (ttls.get(i) >= 1_000 + KEYS - latestAttackerKeys) {
        queries.add(new Request.Query(key("attacker-", i)));
      }
    }
    long kept = 0;
    for (int from = 0; from < queries.size(); from += BATCH) {
      kept += await(attacker.batch(queries.subList(from, Math.min(queries.size(), from + BATCH)))).stream()
          .filter(reply -> reply instanceof Response.QueryResult).count();
    }
    assertThat(kept).as("attacker keys among the latest expiries still held").isGreaterThan(latestAttackerKeys * 80L / 100);

    HttpCalls http = new HttpCalls(vertx, sut.httpPort());
    String scrape = Scrapes.scrape(http);
    http.close();
    assertThat(Scrapes.value(scrape, "sluice_evicted_keys_total{reason=\"max-keys\"}")).isEqualTo(KEYS + freshKeys - MAX_KEYS);
    assertThat(Scrapes.value(scrape, "sluice_max_keys")).isEqualTo(MAX_KEYS);
  }
}
