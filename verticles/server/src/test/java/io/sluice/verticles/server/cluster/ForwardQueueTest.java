package io.sluice.verticles.server.cluster;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

class ForwardQueueTest {

  private final List<List<Integer>> sent = new ArrayList<>();
  private final ForwardQueue<Integer> queue = new ForwardQueue<>(sent::add);

  @Test
  void aTurnsBatchesLeaveAsOneMessageAtItsEnd() {
    queue.add(1);
    queue.add(2);
    queue.add(3);
    assertThat(sent).isEmpty();

    queue.sendIfIdle();
    assertThat(sent).containsExactly(List.of(1, 2, 3));
  }

  @Test
  void whileAMessageIsInFlightTheNextTurnsWaitAndLeaveTogetherWhenItIsAnswered() {
    queue.add(1);
    queue.sendIfIdle();
    queue.add(2);
    queue.sendIfIdle();
    queue.add(3);
    queue.sendIfIdle();
    assertThat(sent).containsExactly(List.of(1));
    assertThat(queue.idle()).isFalse();

    queue.answered();
    assertThat(sent).containsExactly(List.of(1), List.of(2, 3));
    queue.answered();
    assertThat(queue.idle()).isTrue();
    queue.sendIfIdle();
    assertThat(sent).hasSize(2);
  }

  @Test
  void aMessageCarriesAtMostItsBoundAndAFullOneLeavesBeforeTheTurnEnds() {
    int over = 5;
    IntStream.range(0, ForwardQueue.MAX_BATCHES + over).forEach(queue::add);
    assertThat(sent).hasSize(1);
    assertThat(sent.get(0)).hasSize(ForwardQueue.MAX_BATCHES).startsWith(0, 1, 2);

    queue.sendIfIdle();
    assertThat(sent).hasSize(1);
    queue.answered();
    assertThat(sent).hasSize(2);
    assertThat(sent.get(1)).containsExactlyElementsOf(
        IntStream.range(ForwardQueue.MAX_BATCHES, ForwardQueue.MAX_BATCHES + over).boxed().toList());
  }
}
