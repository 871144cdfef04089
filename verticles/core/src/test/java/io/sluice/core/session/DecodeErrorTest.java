package io.sluice.core.session;

import static io.sluice.core.session.SessionHarness.WHOAMI;
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
}
