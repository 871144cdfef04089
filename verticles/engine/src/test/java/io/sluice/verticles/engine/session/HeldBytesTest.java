package io.sluice.verticles.engine.session;

import static io.sluice.verticles.engine.session.SessionHarness.query;
import static io.sluice.verticles.engine.session.SessionHarness.set;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * {@code --max-pending-bytes} bounds what the session holds for its client: each decoded request
 * (frame and overhead), its shards' replies, and the replies the socket has not taken. Within a
 * large read it sends what it has early and asks the decoder to hold the rest back.
 */
class HeldBytesTest {

  private static final int LIMIT = 4_096;
  private final SessionHarness h = new SessionHarness(1, 65_536, LIMIT, false);

  @Test
  void countsRequestsThenRepliesUntilTheSocketTakesThem() {
    h.transport.socketTakesWritesAtOnce = false;

    h.read(query("a"), query("b"));
    assertThat(h.session.heldBytes()).isEqualTo(2L * (3 + ThrottrSession.REQUEST_OVERHEAD));

    h.transport.completeAllInReverse();
    assertThat(h.transport.writes).containsExactly("00 00");
    assertThat(h.session.heldBytes()).as("the write, until the socket takes it")
        .isEqualTo(2 + ThrottrSession.WRITE_OVERHEAD);

    h.transport.drainWrites();
    assertThat(h.session.heldBytes()).isZero();
  }

  @Test
  void aReadOfLargeRepliesIsDecodedOnlyAsFarAsTheLimitThenTheRestWhenTheSocketCatchesUp() {
    // A 1,000-byte value: each 3-byte GET of it holds 1,006 reply bytes, 335 times its own size.
    h.read(set(60, "v", "41 ".repeat(1_000)));
    h.transport.completeAllInReverse();
    h.transport.completeAtOnce = true;
    h.transport.socketTakesWritesAtOnce = false;
    String[] gets = new String[100];
    java.util.Arrays.fill(gets, "06 01 76");

    h.read(gets);

    int answered = h.transport.written().split(" ").length / 1_006;
    // Past the limit by at most the GETs of one early dispatch (a sixteenth of the limit: 4) and their replies.
    int getsPerShare = LIMIT / 16 / (3 + ThrottrSession.REQUEST_OVERHEAD) + 1;
    assertThat(h.session.heldBytes()).isLessThan(LIMIT + getsPerShare * 1_006L);
    assertThat(answered).isLessThan(100);
    assertThat(h.transport.flow).containsExactly("pause");
    assertThat(h.decoder.heldBackBytes()).isEqualTo((100 - answered) * 3);

    while (h.transport.flow.get(h.transport.flow.size() - 1).equals("pause")) {
      h.transport.drainWrites();
      assertThat(h.transport.flow.get(h.transport.flow.size() - 1)).isEqualTo("resume");
      h.readAgain();
    }
    assertThat(h.transport.written().split(" ")).as("every GET answered, in order").hasSize(1 + 100 * 1_006);
    assertThat(h.decoder.heldBackBytes()).isZero();
  }
}
