package io.sluice.verticles.engine.session;

import static io.sluice.verticles.engine.session.SessionHarness.WHOAMI;
import static io.sluice.verticles.engine.session.SessionHarness.insert;
import static io.sluice.verticles.engine.session.SessionHarness.purge;
import static io.sluice.verticles.engine.session.SessionHarness.query;
import static io.sluice.verticles.engine.session.SessionHarness.queryReply;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.Test;

/** Replies go out strictly in request order, whatever order the shards finish in. */
class ReplyOrderTest {

  private final SessionHarness h = new SessionHarness(2);
  private final String a = h.keyOn(0, "a");
  private final String b = h.keyOn(1, "b");

  @Test
  void repliesOfOneReadKeepRequestOrderWhenShardsFinishInReverse() {
    h.read(insert(1, 60, a), WHOAMI, insert(2, 60, b), query(b), query(a), purge(b));
    assertThat(h.transport.dispatched).hasSize(2);

    h.transport.complete(1);
    assertThat(h.transport.writes).isEmpty();
    h.transport.complete(0);

    assertThat(h.transport.writes).containsExactly(String.join(" ",
        "01", "01 " + h.idHex(), "01", queryReply(2, 60), queryReply(1, 60), "01"));
  }

  @Test
  void completeReadsAtTheHeadGoOutTogetherAndLaterOnesFollowInOrder() {
    h.read(insert(1, 60, a));
    h.read(insert(2, 60, b));
    h.read(query(b), query(a));

    // Shard 1 finishes everything first; then shard 0 finishes read 1, and after it read 3.
    h.transport.complete(1);
    h.transport.complete(3);
    assertThat(h.transport.writes).isEmpty();
    h.transport.complete(0);
    assertThat(h.transport.writes).containsExactly("01 01");
    h.transport.complete(2);

    assertThat(h.transport.writes).containsExactly("01 01", queryReply(2, 60) + " " + queryReply(1, 60));
  }

  @Test
  void headReadIsWrittenAsSoonAsItIsCompleteWhileLaterOnesWait() {
    h.read(insert(1, 60, a));
    h.read(insert(2, 60, b));

    h.transport.complete(0);
    assertThat(h.transport.writes).containsExactly("01");

    h.transport.complete(1);
    assertThat(h.transport.writes).containsExactly("01", "01");
  }

  @Test
  void readAnsweredLocallyWaitsBehindAReadStillAtTheShards() {
    h.read(insert(1, 60, a));
    h.read(WHOAMI);
    assertThat(h.transport.writes).isEmpty();

    h.transport.complete(0);

    assertThat(h.transport.writes).containsExactly("01 01 " + h.idHex());
  }

  @Test
  void readAnsweredLocallyIsWrittenAtOnceWhenNothingIsPending() {
    h.read(WHOAMI);

    assertThat(h.transport.dispatched).isEmpty();
    assertThat(h.transport.writes).containsExactly("01 " + h.idHex());
  }

  @Test
  void laterReadsFinishingFirstAreHeldUntilTheEarlierOneFinishes() {
    h.read(insert(1, 60, a));
    h.read(insert(2, 60, b));
    h.read(query(b));

    h.transport.complete(1);
    h.transport.complete(2);
    assertThat(h.transport.writes).isEmpty();
    assertThat(h.session.pendingRequests()).isEqualTo(3);
    h.transport.complete(0);

    assertThat(h.transport.writes).containsExactly("01 01 " + queryReply(2, 60));
    assertThat(h.session.pendingRequests()).isZero();
  }

  @Test
  void frameSplitAcrossReadsIsAnsweredOnceComplete() {
    String frame = insert(7, 60, a);
    String first = frame.substring(0, 8);
    String rest = frame.substring(8);

    h.read(first);
    assertThat(h.transport.dispatched).isEmpty();
    assertThat(h.transport.writes).isEmpty();
    assertThat(h.session.pendingRequests()).isZero();

    h.read(rest, query(a));
    h.transport.completeAllInReverse();
    assertThat(h.transport.writes).containsExactly("01 " + queryReply(7, 60));
  }

  @Test
  void endOfReadWithNothingDecodedDoesNothing() {
    h.session.endOfRead();
    h.session.endOfRead();

    assertThat(h.transport.dispatched).isEmpty();
    assertThat(h.transport.writes).isEmpty();
  }

  @Test
  void shardsThatCompleteWithinDispatchGiveOneWritePerRead() {
    h.transport.completeAtOnce = true;

    h.read(insert(1, 60, a), insert(2, 60, b), WHOAMI);
    h.clock.advance(Duration.ofMillis(1));
    h.read(query(a), query(b));

    assertThat(h.transport.writes).containsExactly(
        "01 01 01 " + h.idHex(),
        queryReply(1, 59) + " " + queryReply(2, 59));
    assertThat(h.session.pendingRequests()).isZero();
  }
}
