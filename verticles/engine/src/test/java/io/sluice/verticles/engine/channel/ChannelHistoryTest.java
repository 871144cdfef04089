package io.sluice.verticles.engine.channel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.verticles.engine.time.ManualClock;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class ChannelHistoryTest {

  private static final HistoryLimits THREE = new HistoryLimits(3, 0);
  private final ManualClock clock = new ManualClock();

  @Test
  void offsetsIncreaseByOneAndOnlyTheLatestAreKept() {
    ChannelHistory history = ChannelHistory.fresh(7);
    for (int i = 1; i <= 5; i++) {
      assertThat(history.append(bytes("m" + i), clock.epochNanos(), THREE).offset()).isEqualTo(i);
    }
    assertThat(history.top()).isEqualTo(5);
    assertThat(texts(history.latest(10))).containsExactly("m3", "m4", "m5");
    assertThat(texts(history.latest(2))).containsExactly("m4", "m5");
  }

  @Test
  void survivesItsStoredFormWithEpochAndOffsets() {
    ChannelHistory history = ChannelHistory.fresh(-42);
    history.append(bytes("a"), 10, THREE);
    history.append(new byte[0], 20, THREE);
    ChannelHistory read = ChannelHistory.decode(history.encode());
    assertThat(read.epoch()).isEqualTo(-42);
    assertThat(read.top()).isEqualTo(2);
    assertThat(read.latest(5)).extracting(ChannelHistory.Entry::offset, ChannelHistory.Entry::atNanos)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(1L, 10L), org.assertj.core.groups.Tuple.tuple(2L, 20L));
  }

  @Test
  void underANewEpochKeepsItsMessagesAndOffsetsAndTheOldEpochNoLongerRecovers() {
    ChannelHistory history = ChannelHistory.fresh(5);
    for (int i = 1; i <= 3; i++) {
      history.append(bytes("m" + i), i, THREE);
    }
    ChannelHistory renewed = history.underNewEpoch(6);
    assertThat(renewed.encode()).hasSameSizeAs(history.encode());
    assertThat(renewed.top()).isEqualTo(3);
    assertThat(texts(renewed.latest(5))).containsExactly("m1", "m2", "m3");
    assertThat(renewed.recover(1, 5).lost()).isEqualTo(ChannelHistory.Recovery.EPOCH_CHANGED);
    assertThat(texts(renewed.recover(1, 6).messages())).containsExactly("m2", "m3");
    assertThat(renewed.append(bytes("m4"), 4, THREE).offset()).isEqualTo(4);
  }

  @Test
  void knowsAHistoryKeyFromAnyOther() {
    assertThat(ChannelHistory.isHistoryKey(ChannelHistory.keyOf(bytes("news")))).isTrue();
    assertThat(ChannelHistory.isHistoryKey(ChannelHistory.keyOf(new byte[0]))).isTrue();
    assertThat(ChannelHistory.isHistoryKey(bytes("history:news"))).isFalse();
    assertThat(ChannelHistory.isHistoryKey(new byte[] {0})).isFalse();
    assertThat(ChannelHistory.newEpoch()).isNotZero();
  }

  @Test
  void refusesBytesThatAreNoHistory() {
    assertThatThrownBy(() -> ChannelHistory.decode(bytes("hello"))).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ChannelHistory.decode(new byte[0])).isInstanceOf(IllegalArgumentException.class);
    byte[] stored = ChannelHistory.fresh(1).encode();
    stored[stored.length - 1] = 9;
    assertThatThrownBy(() -> ChannelHistory.decode(stored)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void messagesOlderThanTheTtlAreDropped() {
    HistoryLimits limits = new HistoryLimits(100, Duration.ofSeconds(10).toNanos());
    ChannelHistory history = ChannelHistory.fresh(1);
    history.append(bytes("old"), clock.epochNanos(), limits);
    clock.advance(Duration.ofSeconds(6));
    history.append(bytes("new"), clock.epochNanos(), limits);
    clock.advance(Duration.ofSeconds(4));
    history.trim(clock.epochNanos(), limits);
    assertThat(texts(history.latest(10))).containsExactly("new");
    assertThat(history.top()).isEqualTo(2);
  }

  @Test
  void recoversExactlyWhatWasMissed() {
    ChannelHistory history = ChannelHistory.fresh(5);
    for (int i = 1; i <= 3; i++) {
      history.append(bytes("m" + i), 0, THREE);
    }
    ChannelHistory.Recovery recovery = history.recover(1, 5);
    assertThat(recovery.recovered()).isTrue();
    assertThat(recovery.top()).isEqualTo(3);
    assertThat(texts(recovery.messages())).containsExactly("m2", "m3");
    assertThat(history.recover(3, 5).messages()).isEmpty();
    assertThat(history.recover(3, 5).recovered()).isTrue();
  }

  @Test
  void saysWhyRecoveryIsIncomplete() {
    ChannelHistory history = ChannelHistory.fresh(5);
    for (int i = 1; i <= 5; i++) {
      history.append(bytes("m" + i), 0, THREE);
    }
    assertThat(history.recover(1, 5).lost()).isEqualTo(ChannelHistory.Recovery.MESSAGES_DROPPED);
    assertThat(texts(history.recover(1, 5).messages())).containsExactly("m3", "m4", "m5");
    assertThat(history.recover(2, 5).recovered()).isTrue();
    assertThat(history.recover(2, 6).lost()).isEqualTo(ChannelHistory.Recovery.EPOCH_CHANGED);
    assertThat(history.recover(2, 6).messages()).isEmpty();
    assertThat(history.recover(9, 5).lost()).isEqualTo(ChannelHistory.Recovery.UNKNOWN_OFFSET);
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static List<String> texts(List<ChannelHistory.Entry> entries) {
    return entries.stream().map(entry -> new String(entry.payload(), StandardCharsets.UTF_8)).toList();
  }
}
