package io.sluice.verticles.engine.session;

import static io.sluice.verticles.engine.session.SessionHarness.WHOAMI;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.sluice.verticles.engine.instance.ConnectionStats;
import io.sluice.verticles.engine.instance.ConnectionsElsewhere;
import io.sluice.verticles.engine.testsupport.Wire;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import org.junit.jupiter.api.Test;

/**
 * A CONNECTION for an ID none of this node's connections has is asked of the other nodes of a
 * cluster: their item goes out as they wrote it, in request order, and "nobody has it" is {@code 00}.
 */
class ConnectionElsewhereTest {

  private final SessionHarness h = new SessionHarness(2);
  private final List<byte[]> asked = new ArrayList<>();
  private final List<CompletableFuture<byte[]>> answers = new ArrayList<>();

  ConnectionElsewhereTest() {
    h.instance.connections().lookElsewhereWith(new ConnectionsElsewhere() {
      @Override
      public boolean any() {
        return true;
      }

      @Override
      public CompletionStage<byte[]> find(byte[] id) {
        asked.add(id);
        CompletableFuture<byte[]> answer = new CompletableFuture<>();
        answers.add(answer);
        return answer;
      }
    });
  }

  /** The 237-byte item another node would write for a connection of its own. */
  private static byte[] itemOfAnotherNode(ConnectionStats there) {
    ByteBuf item = Unpooled.buffer();
    there.toItem().writeTo(item);
    return Arrays.copyOf(item.array(), item.writerIndex());
  }

  @Test
  void theOtherNodesItemIsTheReplyAndLaterRepliesWaitForIt() {
    ConnectionStats there = new ConnectionStats(ConnectionStats.randomId(), ConnectionStats.Protocol.TCP, "10.9.8.7",
        4321, h.clock.epochNanos());
    h.read("15 " + Wire.hex(there.id()), WHOAMI);

    assertThat(asked).hasSize(1);
    assertThat(asked.get(0)).isEqualTo(there.id());
    assertThat(h.transport.writes).as("the WHOAMI after it waits").isEmpty();

    answers.get(0).complete(itemOfAnotherNode(there));

    assertThat(h.transport.written()).isEqualTo("01 " + Wire.hex(itemOfAnotherNode(there)) + " 01 " + h.idHex());
  }

  @Test
  void anIdNoNodeHasIsUnknownAndOwnConnectionsAreNotAskedElsewhere() {
    h.read("15" + " 00".repeat(16), "15 " + h.idHex());

    assertThat(asked).hasSize(1);
    answers.get(0).complete(null);

    assertThat(h.transport.written()).startsWith("00 01 " + h.idHex());
  }

  @Test
  void answersArrivingAtOnceStillComeInRequestOrder() {
    h.instance.connections().lookElsewhereWith(new ConnectionsElsewhere() {
      @Override
      public boolean any() {
        return true;
      }

      @Override
      public CompletionStage<byte[]> find(byte[] id) {
        return CompletableFuture.completedFuture(null);
      }
    });

    h.read("15" + " 00".repeat(16), "15" + " 01".repeat(16), WHOAMI);

    assertThat(h.transport.written()).isEqualTo("00 00 01 " + h.idHex());
  }
}
