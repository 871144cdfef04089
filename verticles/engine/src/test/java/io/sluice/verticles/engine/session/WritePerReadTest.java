package io.sluice.verticles.engine.session;

import static io.sluice.verticles.engine.session.SessionHarness.WHOAMI;
import static io.sluice.verticles.engine.session.SessionHarness.insert;
import static io.sluice.verticles.engine.session.SessionHarness.query;
import static io.sluice.verticles.engine.session.SessionHarness.queryReply;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * A message transport (WebSocket) answers each read with a write of its own, still in request
 * order; a stream transport (TCP) joins the replies of every read ready at once into one write.
 */
class WritePerReadTest {

  private final SessionHarness messages = new SessionHarness(2, 1_000, true);
  private final SessionHarness stream = new SessionHarness(2, 1_000, false);

  private static void threeReadsFinishingLastFirst(SessionHarness h) {
    String a = h.keyOn(0, "a");
    String b = h.keyOn(1, "b");
    h.read(insert(1, 60, a), insert(2, 60, b));
    h.read(query(b));
    h.read(WHOAMI);
    h.transport.complete(1);
    h.transport.complete(2);
    h.transport.complete(0);
  }

  @Test
  void messageTransportGetsOneWritePerReadInOrder() {
    threeReadsFinishingLastFirst(messages);

    assertThat(messages.transport.writes).containsExactly("01 01", queryReply(2, 60), "01 " + messages.idHex());
    assertThat(messages.session.pendingRequests()).isZero();
  }

  @Test
  void streamTransportGetsTheReadyReadsJoinedInOneWrite() {
    threeReadsFinishingLastFirst(stream);

    assertThat(stream.transport.writes)
        .containsExactly("01 01 " + queryReply(2, 60) + " 01 " + stream.idHex());
  }

  @Test
  void messageTransportStillWritesAllRequestsOfOneReadTogether() {
    messages.read(insert(1, 60, "x"), query("x"), WHOAMI);
    messages.transport.completeAllInReverse();

    assertThat(messages.transport.writes).containsExactly("01 " + queryReply(1, 60) + " 01 " + messages.idHex());
  }
}
