package io.sluice.verticles.engine.channel;

import io.sluice.protocol.binary.codec.Listing;
import io.sluice.protocol.binary.codec.SubscriberItem;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class OtherNodesTest {

  private static Listing.ChannelItem channel(String name, long read, long subscriptions) {
    return new Listing.ChannelItem(name.getBytes(StandardCharsets.UTF_8), read, 0, subscriptions);
  }

  private static String text(Listing.ChannelItem item) {
    return new String(item.channel(), StandardCharsets.UTF_8) + ":" + item.readBytes() + ":" + item.subscriptions();
  }

  @Test
  void channelsOfEveryNodeMergeByNameWithCountersSummedInByteOrder() {
    OtherNodes b = new OtherNodes(0, List.of(), List.of(channel("*", 10, 2), channel("z", 1, 1)), true);
    OtherNodes c = new OtherNodes(0, List.of(), List.of(channel("*", 5, 1), channel("m", 3, 1)), true);
    List<Listing.ChannelItem> all = b.and(c).withChannels(List.of(channel("*", 1, 1), channel("z", 4, 2)));
    assertThat(all).extracting(OtherNodesTest::text).containsExactly("*:16:4", "m:3:1", "z:5:3");
  }

  @Test
  void subscribersOfEveryNodeAreListedInTheOrderTheySubscribedThisNodesFirstOnTies() {
    SubscriberItem here = new SubscriberItem(new byte[16], 20, 0, 0);
    SubscriberItem there = new SubscriberItem(new byte[16], 10, 0, 0);
    SubscriberItem sameTime = new SubscriberItem(new byte[16], 20, 0, 0);
    List<SubscriberItem> all = new OtherNodes(0, List.of(there, sameTime), List.of(), true).withSubscribers(List.of(here));
    assertThat(all).containsExactly(there, here, sameTime);
  }

  @Test
  void aNodeLeftOutMakesTheAnswerIncomplete() {
    OtherNodes counted = new OtherNodes(2, List.of(), List.of(), true);
    assertThat(counted.and(OtherNodes.NONE)).isEqualTo(counted);
    assertThat(counted.and(OtherNodes.NOT_ASKED).complete()).isFalse();
    assertThat(counted.and(OtherNodes.NOT_ASKED).subscriptions()).isEqualTo(2);
  }
}
