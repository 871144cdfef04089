package io.sluice.verticles.engine.session;

import static io.sluice.verticles.engine.session.SessionHarness.WHOAMI;
import static io.sluice.verticles.engine.session.SessionHarness.insert;
import static io.sluice.verticles.engine.session.SessionHarness.query;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The session pauses reading when the requests waiting for replies reach the limit or the socket
 * is not writable, and resumes only below half the limit and writable again.
 */
class BackPressureTest {

  private static final int LIMIT = 4;

  private final SessionHarness h = new SessionHarness(1, LIMIT);

  private void readKeyRequests(int count) {
    String[] frames = new String[count];
    for (int i = 0; i < count; i++) {
      frames[i] = query("k" + i);
    }
    h.read(frames);
  }

  @Test
  void belowTheLimitReadingGoesOn() {
    readKeyRequests(LIMIT - 1);

    assertThat(h.session.pendingRequests()).isEqualTo(LIMIT - 1);
    assertThat(h.transport.flow).isEmpty();
    h.transport.completeAllInReverse();
    assertThat(h.transport.flow).isEmpty();
  }

  @Test
  void readingPausesWhenPendingRequestsReachTheLimit() {
    readKeyRequests(LIMIT - 1);
    readKeyRequests(1);

    assertThat(h.session.pendingRequests()).isEqualTo(LIMIT);
    assertThat(h.transport.flow).containsExactly("pause");
  }

  @Test
  void oneReadBeyondTheLimitPausesOnce() {
    readKeyRequests(LIMIT * 3);

    assertThat(h.transport.flow).containsExactly("pause");
  }

  @Test
  void readingStaysPausedAtExactlyHalfAndResumesBelowHalf() {
    readKeyRequests(LIMIT / 2);
    readKeyRequests(1);
    readKeyRequests(1);
    assertThat(h.transport.flow).containsExactly("pause");

    h.transport.complete(0);
    assertThat(h.session.pendingRequests()).isEqualTo(LIMIT / 2);
    assertThat(h.transport.flow).as("at half the limit").containsExactly("pause");

    h.transport.complete(1);
    assertThat(h.session.pendingRequests()).isEqualTo(LIMIT / 2 - 1);
    assertThat(h.transport.flow).containsExactly("pause", "resume");

    h.transport.complete(2);
    assertThat(h.transport.flow).containsExactly("pause", "resume");
  }

  @Test
  void readingBetweenHalfAndTheLimitDoesNotPause() {
    readKeyRequests(LIMIT - 1);
    h.transport.complete(0);
    readKeyRequests(LIMIT - 1);

    assertThat(h.transport.flow).isEmpty();
  }

  @Test
  void unwritableSocketPausesAndWritableAgainResumes() {
    h.session.setWritable(false);
    assertThat(h.transport.flow).containsExactly("pause");
    h.session.setWritable(false);
    assertThat(h.transport.flow).containsExactly("pause");

    h.session.setWritable(true);
    assertThat(h.transport.flow).containsExactly("pause", "resume");
    h.session.setWritable(true);
    assertThat(h.transport.flow).containsExactly("pause", "resume");
  }

  @Test
  void drainedRequestsDoNotResumeAnUnwritableSocket() {
    readKeyRequests(LIMIT);
    h.session.setWritable(false);
    h.transport.completeAllInReverse();

    assertThat(h.session.pendingRequests()).isZero();
    assertThat(h.transport.flow).containsExactly("pause");

    h.session.setWritable(true);
    assertThat(h.transport.flow).containsExactly("pause", "resume");
  }

  @Test
  void writableAgainDoesNotResumeWhileHalfTheLimitIsStillPending() {
    readKeyRequests(LIMIT / 2);
    h.session.setWritable(false);
    h.session.setWritable(true);

    assertThat(h.transport.flow).containsExactly("pause");
    h.transport.completeAllInReverse();
    assertThat(h.transport.flow).containsExactly("pause", "resume");
  }

  @Test
  void locallyAnsweredRequestsNeverHoldReadingBack() {
    String[] frames = new String[LIMIT * 2];
    java.util.Arrays.fill(frames, WHOAMI);
    h.read(frames);

    assertThat(h.session.pendingRequests()).isZero();
    assertThat(h.transport.flow).isEmpty();
  }

  @Test
  void pendingRequestsCountsDecodedRequestsUntilTheirRepliesAreWritten() {
    h.read(insert(1, 60, "a"), query("a"));
    h.read(WHOAMI);
    assertThat(h.session.pendingRequests()).isEqualTo(3);

    h.transport.completeAllInReverse();
    assertThat(h.session.pendingRequests()).isZero();
  }
}
