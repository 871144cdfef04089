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
  void whileTheWindowIsFullTheNextTurnsWaitAndLeaveTogetherWhenAnAnswerComes() {
    for (int turn = 1; turn <= ForwardQueue.WINDOW; turn++) {
      queue.add(turn);
      queue.sendIfIdle();
    }
    int next = ForwardQueue.WINDOW + 1;
    queue.add(next);
    queue.sendIfIdle();
    queue.add(next + 1);
    queue.sendIfIdle();
    assertThat(sent).hasSize(ForwardQueue.WINDOW);
    assertThat(queue.idle()).isFalse();

    queue.answered();
    assertThat(sent).hasSize(ForwardQueue.WINDOW + 1);
    assertThat(sent.get(ForwardQueue.WINDOW)).containsExactly(next, next + 1);
    for (int answer = 0; answer < ForwardQueue.WINDOW; answer++) {
      assertThat(queue.idle()).isFalse();
      queue.answered();
    }
    assertThat(queue.idle()).isTrue();
    queue.sendIfIdle();
    assertThat(sent).hasSize(ForwardQueue.WINDOW + 1);
  }

  @Test
  void twoMessagesMayBeInFlightSoTheOwnerRunsOneWhileThisNodeGathersTheNext() {
    queue.add(1);
    queue.sendIfIdle();
    queue.add(2);
    queue.sendIfIdle();
    assertThat(ForwardQueue.WINDOW).isEqualTo(2);
    assertThat(sent).containsExactly(List.of(1), List.of(2));
  }

  @Test
  void aMessageCarriesAtMostItsBoundAndAFullOneLeavesBeforeTheTurnEnds() {
    int over = 5;
    IntStream.range(0, ForwardQueue.MAX_BATCHES * ForwardQueue.WINDOW + over).forEach(queue::add);
    assertThat(sent).hasSize(ForwardQueue.WINDOW);
    assertThat(sent.get(0)).hasSize(ForwardQueue.MAX_BATCHES).startsWith(0, 1, 2);

    queue.sendIfIdle();
    assertThat(sent).hasSize(ForwardQueue.WINDOW);
    queue.answered();
    assertThat(sent).hasSize(ForwardQueue.WINDOW + 1);
    int first = ForwardQueue.MAX_BATCHES * ForwardQueue.WINDOW;
    assertThat(sent.get(ForwardQueue.WINDOW)).containsExactlyElementsOf(
        IntStream.range(first, first + over).boxed().toList());
  }

  @Test
  void theWorkAddressesAreSpreadOverTheInboxesEachServedOnce() {
    assertThat(WorkInbox.addressesOf(1)).containsExactly(IntStream.range(0, WorkInbox.ADDRESSES).boxed().toList());
    assertThat(WorkInbox.addressesOf(3)).hasSize(3).allSatisfy(served -> assertThat(served).isNotEmpty());
    assertThat(WorkInbox.addressesOf(WorkInbox.ADDRESSES * 4)).hasSize(WorkInbox.ADDRESSES);
    assertThat(WorkInbox.addressesOf(3).stream().flatMap(List::stream).sorted().toList())
        .isEqualTo(IntStream.range(0, WorkInbox.ADDRESSES).boxed().toList());
  }
}
