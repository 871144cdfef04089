package io.sluice.verticles.engine.udprate;

import io.sluice.verticles.engine.time.ManualClock;
import io.sluice.protocol.udp.rules.Rule;
import io.sluice.protocol.udp.rules.RuleSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the UDP engine answers whatever store holds its rate state: one subclass per store runs it
 * (the in-memory store here, the storage shards in verticles/server, from this module's test-jar).
 * Holds the derived golden traces of spec §13.2, the original's exact replies with a clock moved by
 * hand, and the state's retention.
 */
public abstract class UdpEngineKit {

  /** One engine over the store under test, its clock moved only by the test. */
  public interface Server extends AutoCloseable {

    /** The reply to a request given as text (one byte per char), or {@code null} for none. */
    String request(String request);

    ManualClock clock();

    @Override
    void close();
  }

  private final List<Server> started = new ArrayList<>();

  /** Starts an engine with {@code rules} over a fresh store of the kind under test. */
  protected abstract Server start(RuleSet rules);

  @AfterEach
  void stopServers() {
    started.forEach(Server::close);
  }

  /** {@code seconds} as a duration, rounded to the nanosecond. */
  public static Duration seconds(double seconds) {
    return Duration.ofNanos(Math.round(seconds * 1e9));
  }

  private Server server(double limit, double period, boolean strict) {
    Server server = start(RuleSet.singleRule(Rule.forAnyKey(limit, period, strict).withKeepStats(true)));
    started.add(server);
    return server;
  }

  private static String overLimit(Server server, String key) {
    return server.request("over_limit " + key);
  }

  private static void advance(Server server, double seconds) {
    server.clock().advance(seconds(seconds));
  }

  /** Request number (1-based) → reply, for the strict 22/20 sequence of tests #11/#12. */
  private Map<Integer, String> strictTrace() {
    Server server = server(22, 20, true);
    Map<Integer, String> replies = new LinkedHashMap<>();
    int request = 0;
    for (int i = 0; i < 300; i++) {
      replies.put(++request, overLimit(server, "dummy"));
      advance(server, 1);
    }
    for (int i = 0; i < 100; i++) {
      replies.put(++request, overLimit(server, "dummy"));
      advance(server, 0.1);
    }
    return replies;
  }

  @Test
  void strict22Per20() {
    Map<Integer, String> replies = strictTrace();
    assertThat(replies.get(1)).isEqualTo("ok N 0.0 22.0 20");
    assertThat(replies.get(2)).isEqualTo("ok N 1.0 22.0 20");
    assertThat(replies.get(3)).isEqualTo("ok N 1.9 22.0 20");
    assertThat(replies.get(4)).isEqualTo("ok N 2.8 22.0 20");
    assertThat(replies.get(5)).isEqualTo("ok N 3.6 22.0 20");
    assertThat(replies.get(6)).isEqualTo("ok N 4.4 22.0 20");
    for (int request = 296; request <= 301; request++) {
      assertThat(replies.get(request)).as("request %d", request).isEqualTo("ok N 20.0 22.0 20");
    }
    assertThat(replies.get(302)).isEqualTo("ok N 20.9 22.0 20");
    assertThat(replies.get(303)).isEqualTo("ok N 21.8 22.0 20");
    assertThat(replies.get(304)).isEqualTo("ok Y 22.7 22.0 20");
    assertThat(replies.get(305)).isEqualTo("ok Y 23.6 22.0 20");
    assertThat(replies.get(310)).isEqualTo("ok Y 27.9 22.0 20");
    assertThat(replies.get(321)).isEqualTo("ok Y 37.1 22.0 20");
    assertThat(replies.get(400)).isEqualTo("ok Y 90.3 22.0 20");
  }

  @Test
  void nonStrict125Per10() {
    Server server = server(125, 10, false);
    List<String> replies = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      replies.add(overLimit(server, "dummy"));
      advance(server, 0.1);
    }
    for (int i = 0; i < 200; i++) {
      replies.add(overLimit(server, "dummy"));
      advance(server, 0.05);
    }
    assertThat(replies.get(0)).isEqualTo("ok N 0.0 125.0 10");
    assertThat(replies.get(1)).isEqualTo("ok N 1.0 125.0 10");
    assertThat(replies.get(199)).isEqualTo("ok N 86.3 125.0 10");
    assertThat(replies.get(200)).isEqualTo("ok N 86.5 125.0 10");
    assertThat(replies.get(226)).isEqualTo("ok N 100.3 125.0 10");
    assertThat(replies.subList(385, 400)).containsExactly(
        "ok N 124.4 125.0 10", "ok N 124.8 125.0 10", "ok Y 125.2 125.0 10", "ok N 124.6 125.0 10",
        "ok N 124.9 125.0 10", "ok Y 125.3 125.0 10", "ok N 124.7 125.0 10", "ok Y 125.1 125.0 10",
        "ok N 124.5 125.0 10", "ok N 124.8 125.0 10", "ok Y 125.2 125.0 10", "ok N 124.6 125.0 10",
        "ok N 125.0 125.0 10", "ok Y 125.3 125.0 10", "ok N 124.7 125.0 10");
    List<String> phaseTwo = replies.subList(200, 400);
    assertThat(phaseTwo.stream().filter(reply -> reply.startsWith("ok N"))).hasSize(156);
    assertThat(server.request("get_stats dummy")).startsWith("n_req=400 n_over=44 ");
  }

  @Test
  void knifeEdgeRequest398IsJustBelowTheLimit() {
    Server server = server(125, 10, false);
    for (int i = 0; i < 200; i++) {
      overLimit(server, "dummy");
      advance(server, 0.1);
    }
    String reply = null;
    for (int i = 0; i < 198; i++) {
      reply = overLimit(server, "dummy");
      advance(server, 0.05);
    }
    assertThat(reply).as("124.96…, printed 125.0, still N").isEqualTo("ok N 125.0 125.0 10");
  }

  /** Replies' verdicts and rates, each request {@code offsets[i]} seconds after the server's start. */
  private static List<String> verdictsAndRates(Server server, double[] offsets) {
    List<String> replies = new ArrayList<>();
    long start = server.clock().epochNanos();
    for (double offset : offsets) {
      server.clock().set(start + seconds(offset).toNanos());
      String reply = overLimit(server, "k");
      replies.add(reply.substring(3, reply.indexOf(' ', 5)));
    }
    return replies;
  }

  @Test
  void smallVectorsLimit3Period10SameInstant() {
    double[] sameInstant = new double[8];
    assertThat(verdictsAndRates(server(3, 10, true), sameInstant))
        .containsExactly("N 0.0", "N 1.0", "N 2.0", "Y 3.0", "Y 4.0", "Y 5.0", "Y 6.0", "Y 7.0");
    assertThat(verdictsAndRates(server(3, 10, false), sameInstant))
        .containsExactly("N 0.0", "N 1.0", "N 2.0", "Y 3.0", "Y 3.0", "Y 3.0", "Y 3.0", "Y 3.0");
  }

  @Test
  void smallVectorsLimit3Period10OneSecondApart() {
    assertThat(verdictsAndRates(server(3, 10, false), new double[] {0, 1, 2, 3, 4, 5}))
        .containsExactly("N 0.0", "N 1.0", "N 1.8", "N 2.6", "Y 3.3", "Y 3.0");
  }

  @Test
  void smallVectorsLimit2Period1() {
    double[] timing = {0, 0, 0, 0, 0.5, 2.5, 2.5};
    assertThat(verdictsAndRates(server(2, 1, true), timing))
        .containsExactly("N 0.0", "N 1.0", "N 2.0", "Y 3.0", "Y 2.6", "N 0.8", "N 1.8");
    assertThat(verdictsAndRates(server(2, 1, false), timing))
        .containsExactly("N 0.0", "N 1.0", "N 2.0", "Y 3.0", "N 2.0", "N 0.7", "N 1.7");
  }

  @ParameterizedTest(name = "period {0}, strict {1}: n_over={2}")
  @CsvSource({"1, true, 9", "1, false, 9", "10, true, 10", "10, false, 10"})
  void twentySameInstantRequestsLimit10Stats(double period, boolean strict, int overCount) {
    Server server = server(10, period, strict);
    for (int i = 0; i < 20; i++) {
      overLimit(server, "k");
    }
    assertThat(server.request("get_stats k")).isEqualTo("n_req=20 n_over=" + overCount + " last_max_rate=0 key=k");
  }

  /** Each key's state is kept for StateRetention's TTL after its last write (here the 5-minute floor), then forgotten. */
  @Test
  void stateIsCountedWhileKeptAndForgottenAfterItsRetention() {
    Server server = server(10, 1, true);
    assertThat(server.request("get_size")).isEqualTo("size=0 keys=0");
    overLimit(server, "a");
    overLimit(server, "b");
    advance(server, 1);
    assertThat(overLimit(server, "a")).as("a remembered key").isEqualTo("ok N 0.6 10.0 1");
    assertThat(server.request("get_size")).isEqualTo("size=2 keys=2");

    advance(server, 299);
    assertThat(server.request("get_size")).as("b: 300 s after its write").isEqualTo("size=1 keys=1");
    advance(server, 0.999);
    assertThat(server.request("get_size")).as("a: 1 ms before its TTL").isEqualTo("size=1 keys=1");
    advance(server, 0.001);
    assertThat(server.request("get_size")).isEqualTo("size=0 keys=0");
    assertThat(overLimit(server, "a")).as("a forgotten key starts afresh").isEqualTo("ok N 0.0 10.0 1");
  }
}
