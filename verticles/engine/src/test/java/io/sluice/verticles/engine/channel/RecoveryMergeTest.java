package io.sluice.verticles.engine.channel;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RecoveryMergeTest {

  private record Message(long epoch, long offset) {
  }

  private final List<Long> delivered = new ArrayList<>();
  private final RecoveryMerge<Message> merge = RecoveryMerge.holding(Message::offset, Message::epoch);

  private void live(long offset) {
    merge.live(new Message(1, offset), message -> delivered.add(message.offset()));
  }

  @Test
  void liveMessagesWaitForTheHistoryAndThoseInItAreNotDeliveredTwice() {
    live(5);
    live(6);
    assertThat(merge.holding()).isTrue();
    assertThat(delivered).isEmpty();
    merge.recovered(1, 5, List.of(new Message(1, 3), new Message(1, 4), new Message(1, 5)),
        message -> delivered.add(message.offset()));
    live(7);
    assertThat(delivered).containsExactly(3L, 4L, 5L, 6L, 7L);
    assertThat(merge.holding()).isFalse();
  }

  @Test
  void aCopyArrivingLateIsDropped() {
    merge.recovered(1, 2, List.of(), message -> delivered.add(message.offset()));
    live(3);
    live(2);
    live(3);
    live(4);
    assertThat(delivered).containsExactly(3L, 4L);
  }

  @Test
  void aNewEpochCountsAgain() {
    merge.recovered(1, 9, List.of(), message -> delivered.add(message.offset()));
    live(10);
    merge.live(new Message(2, 1), message -> delivered.add(message.offset()));
    merge.live(new Message(2, 2), message -> delivered.add(message.offset()));
    assertThat(delivered).containsExactly(10L, 1L, 2L);
  }
}
