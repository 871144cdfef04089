package io.sluice.verticles.engine.session;

import static io.sluice.verticles.engine.session.SessionHarness.WHOAMI;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Input the decoder cannot frame closes the connection, with the reason (spec §1.6 recommendation). */
class DecodeErrorTest {

  private final SessionHarness h = new SessionHarness(2);

  @ParameterizedTest
  @ValueSource(strings = {"00", "0a", "0f", "1a", "1f", "20", "ff"})
  void unknownTypeClosesTheConnectionWithTheReason(String type) {
    h.read(type + " 02 01 78");

    assertThat(h.transport.closes).containsExactly("unknown request type 0x" + type);
  }

  @Test
  void frameLargerThanTheMaximumClosesTheConnection() {
    // SET with a value of 8089 bytes: 8099-byte frame, over the 8096 maximum.
    h.read("05 04 3c 00 03 99 1f 62 69 67");

    assertThat(h.transport.closes).singleElement().asString()
        .contains("8099").contains("exceeds the maximum of 8096");
  }

  @Test
  void nothingAfterTheBadByteIsAnswered() {
    h.read("0a", WHOAMI);
    h.read(WHOAMI);

    assertThat(h.transport.closes).hasSize(1);
    assertThat(h.transport.writes).isEmpty();
    assertThat(h.transport.dispatched).isEmpty();
  }

  @Test
  void requestsBeforeTheBadByteAreAnsweredBeforeTheClose() {
    // Issue 12: an INSERT followed by 0xFF ran but was never acknowledged.
    h.read(SessionHarness.insert(1, 60, "k"), "ff");

    assertThat(h.transport.closes).as("not before the INSERT's shard answers").isEmpty();
    assertThat(h.transport.flow).containsExactly("pause");
    h.transport.completeAllInReverse();

    assertThat(h.transport.writes).containsExactly("01");
    assertThat(h.transport.closes).containsExactly("unknown request type 0xff");
  }

  @Test
  void earlierReadsStillWaitingForTheirShardsAreAnsweredTooThenTheConnectionCloses() {
    h.read(SessionHarness.insert(1, 60, h.keyOn(0, "a")));
    h.read(WHOAMI, "0a");

    assertThat(h.transport.closes).isEmpty();
    h.transport.completeAllInReverse();

    assertThat(h.transport.written()).isEqualTo("01 01 " + h.idHex());
    assertThat(h.transport.closes).hasSize(1);
  }

  @Test
  void anEventNestedTooDeepClosesAfterTheRequestsBeforeIt() {
    String query = "02 01 6b";
    String frame = query;
    for (int level = 0; level < 9; level++) {
      int length = frame.replace(" ", "").length() / 2;
      frame = String.format("19 00 %02x %02x ", length & 0xff, length >> 8) + frame;
    }
    h.transport.completeAtOnce = true;

    h.read(WHOAMI, frame, WHOAMI);

    assertThat(h.transport.writes).containsExactly("01 " + h.idHex());
    assertThat(h.transport.closes).containsExactly("EVENT nested more than 8 deep");
  }
}
