package io.sluice.verticles.server.udp;

import io.sluice.protocol.udp.rules.Rule;
import io.sluice.protocol.udp.rules.RuleAlgorithm;
import io.sluice.protocol.udp.rules.RuleSet;
import io.sluice.verticles.server.kit.HttpCalls;
import io.sluice.verticles.server.kit.SluiceUnderTest;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A rule with {@code algorithm: sliding-window} over real sockets: 16 sockets at once over one key
 * get exactly the limit admitted, the clock standing still; half a window later the previous
 * window weighs half, and exactly the rest of the limit is admitted again. The key's record in the
 * shards holds the sliding window's own state text.
 */
class UdpSlidingWindowTest {

  private static final int SENDERS = 16;
  private static final int PER_SENDER = 10;
  private static final int LIMIT = 50;
  private static final Duration PERIOD = Duration.ofSeconds(60);

  private final Vertx vertx = Vertx.vertx();
  private final SluiceUnderTest sut = new SluiceUnderTest(vertx, SluiceUnderTest.defaults().withUdp(
      UdpSettings.defaults().withRules(new RuleSet(List.of(), List.of(),
          List.of(Rule.limit("^shared$", LIMIT, PERIOD.toSeconds(), false).withAlgorithm(RuleAlgorithm.SLIDING_WINDOW)),
          Rule.allowAllDefault()))));
  private final ExecutorService threads = Executors.newFixedThreadPool(SENDERS);
  private final HttpCalls http = new HttpCalls(vertx, sut.httpPort());

  @AfterEach
  void stop() {
    threads.shutdownNow();
    http.close();
    sut.close();
    await(vertx.close());
  }

  /** Every sender's replies to over_limit shared, sent one after another from its own socket. */
  private List<String> sendFromEverySender() throws Exception {
    List<Future<List<String>>> runs = new ArrayList<>();
    for (int s = 0; s < SENDERS; s++) {
      runs.add(threads.submit(() -> {
        List<String> replies = new ArrayList<>();
        try (UdpTestClient client = new UdpTestClient(sut.udpPort())) {
          for (int i = 0; i < PER_SENDER; i++) {
            replies.add(client.request("over_limit shared"));
          }
        }
        return replies;
      }));
    }
    List<String> all = new ArrayList<>();
    for (Future<List<String>> run : runs) {
      all.addAll(run.get(60, TimeUnit.SECONDS));
    }
    return all;
  }

  /** The key's record in the shards as the dashboard decodes it. */
  private JsonObject stored() {
    return http.getJson("/api/keys/udp%3Ashared").getJsonObject("decoded");
  }

  private static long admitted(List<String> replies) {
    return replies.stream().filter(reply -> reply.startsWith("ok N ")).count();
  }

  @Test
  void sixteenSendersOverOneKeyGetExactlyTheLimitInEachSlidingWindow() throws Exception {
    long now = sut.clock().epochNanos();
    long start = now - Math.floorMod(now, PERIOD.toNanos());
    sut.clock().set(start);

    List<String> first = sendFromEverySender();
    assertThat(admitted(first)).isEqualTo(LIMIT);
    assertThat(first).allMatch(reply -> reply.matches("ok [YN] \\d+\\.0 50\\.0 60"));
    assertThat(first).filteredOn(reply -> reply.startsWith("ok Y ")).allMatch(reply -> reply.equals("ok Y 50.0 50.0 60"));
    assertThat(stored().getString("kind")).isEqualTo("udp-window");
    assertThat(stored().getString("state")).isEqualTo("71|0|50|" + start);

    sut.advance(PERIOD.multipliedBy(3).dividedBy(2)); // halfway into the next window: the first weighs 25
    List<String> second = sendFromEverySender();
    assertThat(admitted(second)).isEqualTo(LIMIT / 2);
    assertThat(second).filteredOn(reply -> reply.startsWith("ok Y ")).allMatch(reply -> reply.equals("ok Y 50.0 50.0 60"));
    assertThat(stored().getString("state")).isEqualTo("71|50|25|" + (start + PERIOD.toNanos()));
  }
}
