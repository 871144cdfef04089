package io.sluice.verticles.server.udp;

import io.sluice.verticles.server.kit.SluiceUnderTest;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * 10,000 over_limit requests from 8 client sockets at once, each socket keeping 8 in flight with
 * ids of its own: every request is answered, every reply carries the id of a request of that
 * socket, and — the clock standing still — every key's replies are exactly the same-instant
 * sequence, whichever sockets its requests came from: no update lost or doubled across the shards.
 *
 * <p>64 requests in flight in all: the server socket keeps the kernel's default receive buffer
 * (net.core.rmem_default, 212,992 bytes on Linux), which holds only about 200 small datagrams; with
 * 8 × 32 in flight the kernel dropped some (UDP may, and the protocol's clients fail open).
 */
class UdpParallelClientsTest {

  private static final int SOCKETS = 8;
  private static final int PER_SOCKET = 1_250;
  private static final int KEYS = 400;
  private static final int IN_FLIGHT = 8;
  private static final Pattern REPLY = Pattern.compile("(\\d+) ok ([YN]) (\\d+\\.\\d) 22\\.0 20");

  private final Vertx vertx = Vertx.vertx();
  private final SluiceUnderTest sut = new SluiceUnderTest(vertx, SluiceUnderTest.musicBrainzRules());
  private final ExecutorService threads = Executors.newFixedThreadPool(SOCKETS);

  @AfterEach
  void stop() {
    threads.shutdownNow();
    sut.close();
    await(vertx.close());
  }

  /** Key of the {@code j}-th request of socket {@code s}: each of the 400 keys gets exactly 25 requests, from all 8 sockets. */
  private static String key(int s, int j) {
    int k = (j + s * (KEYS / SOCKETS)) % KEYS;
    return "ws ip=192.0." + (k / 256) + "." + (k % 256);
  }

  /** One socket's run: its replies as key → verdicts and rates. */
  private Map<String, List<String>> runSocket(int s) {
    Map<String, List<String>> byKey = new HashMap<>();
    Map<String, String> outstanding = new HashMap<>();
    try (UdpTestClient client = new UdpTestClient(sut.udpPort())) {
      int sent = 0;
      int received = 0;
      while (received < PER_SOCKET) {
        while (sent < PER_SOCKET && sent - received < IN_FLIGHT) {
          // Ids unique per socket, some with leading zeros, some beyond 64 bits.
          String id = (sent % 3 == 0 ? "00" : sent % 3 == 1 ? "" : "99999999999999999999") + (s * 1_000_000 + sent);
          String key = key(s, sent);
          outstanding.put(id, key);
          client.send(id + " over_limit " + key);
          sent++;
        }
        String reply = client.receive();
        Matcher m = REPLY.matcher(reply);
        assertThat(m.matches()).as("reply '%s'", reply).isTrue();
        String key = outstanding.remove(m.group(1));
        assertThat(key).as("reply id %s matches an outstanding request of socket %d", m.group(1), s).isNotNull();
        byKey.computeIfAbsent(key, k -> new ArrayList<>()).add(m.group(2) + " " + m.group(3));
        received++;
      }
      assertThat(outstanding).isEmpty();
    }
    return byKey;
  }

  @Test
  void tenThousandRequestsFromEightSocketsAreAllAnsweredAndMatched() throws Exception {
    List<Future<Map<String, List<String>>>> runs = new ArrayList<>();
    for (int s = 0; s < SOCKETS; s++) {
      int socket = s;
      runs.add(threads.submit(() -> runSocket(socket)));
    }
    Map<String, List<String>> byKey = new HashMap<>();
    int answered = 0;
    for (Future<Map<String, List<String>>> run : runs) {
      for (Map.Entry<String, List<String>> entry : run.get(60, TimeUnit.SECONDS).entrySet()) {
        byKey.computeIfAbsent(entry.getKey(), k -> new ArrayList<>()).addAll(entry.getValue());
        answered += entry.getValue().size();
      }
    }
    assertThat(answered).isEqualTo(SOCKETS * PER_SOCKET);
    List<String> sameInstant = new ArrayList<>();
    for (int k = 0; k < 25; k++) {
      sameInstant.add((k < 22 ? "N " : "Y ") + k + ".0");
    }
    assertThat(byKey).hasSize(KEYS);
    byKey.forEach((key, verdicts) ->
        assertThat(verdicts).as("key %s", key).containsExactlyInAnyOrderElementsOf(sameInstant));
    try (UdpTestClient client = new UdpTestClient(sut.udpPort())) {
      assertThat(client.request("get_size")).isEqualTo("size=400 keys=400");
    }
  }
}
