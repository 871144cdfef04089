package io.sluice.verticles.engine.session;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.sluice.protocol.binary.codec.Listing;
import io.sluice.protocol.binary.codec.Request;
import io.sluice.protocol.binary.codec.RequestType;
import io.sluice.protocol.binary.codec.Responses;
import io.sluice.protocol.binary.codec.SubscriberItem;
import io.sluice.verticles.engine.channel.Channels;
import io.sluice.verticles.engine.channel.OtherNodes;
import io.sluice.verticles.engine.testsupport.Wire;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import static io.sluice.verticles.engine.session.SessionHarness.WHOAMI;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * In a cluster, PUBLISH, CHANNEL and CHANNELS wait for the other nodes' part, asked once per read,
 * and SUBSCRIBE's answer until every node can send to the subscription.
 */
class OtherNodesAnswerTest {

  /** The channels of a cluster node whose other nodes answer when the test says. */
  private static final class Spanning implements Channels {
    final Channels here;
    final List<List<Request>> asked = new ArrayList<>();
    final List<Consumer<List<OtherNodes>>> waiting = new ArrayList<>();
    final List<Runnable> heard = new ArrayList<>();

    Spanning(Channels here) {
      this.here = here;
    }

    @Override
    public boolean spansNodes() {
      return true;
    }

    @Override
    public void askOtherNodes(List<Request> requests, Consumer<List<OtherNodes>> done) {
      asked.add(List.copyOf(requests));
      waiting.add(done);
    }

    @Override
    public void whenHeardEverywhere(Runnable then) {
      heard.add(then);
    }

    @Override
    public int publish(byte[] channel, byte[] payload, OtherNodes others) {
      int own = here.publish(channel, payload);
      return own < 0 && others.subscriptions() == 0 ? -1 : Math.max(own, 0);
    }

    @Override
    public boolean subscribe(byte[] channel) {
      return here.subscribe(channel);
    }

    @Override
    public boolean unsubscribe(byte[] channel) {
      return here.unsubscribe(channel);
    }

    @Override
    public int publish(byte[] channel, byte[] payload) {
      return here.publish(channel, payload);
    }

    @Override
    public List<SubscriberItem> subscribers(byte[] channel) {
      return here.subscribers(channel);
    }

    @Override
    public List<Listing.ChannelItem> channels() {
      return here.channels();
    }
  }

  private Spanning channels;
  private final SessionHarness h = new SessionHarness(2, here -> channels = new Spanning(here));

  private static byte[] ascii(String text) {
    return text.getBytes(StandardCharsets.US_ASCII);
  }

  @Test
  void aReadsChannelRequestsAskEveryOtherNodeOnceAndAreAnsweredInOrderWithTheirParts() {
    byte[] elsewhere = new byte[16];
    elsewhere[0] = 7;
    h.read(WHOAMI, "13 01 01 00 61 78", "17 01 62", "16", "13 01 01 00 63 78");

    assertThat(channels.asked).hasSize(1);
    assertThat(channels.asked.get(0)).extracting(Request::type).containsExactly(RequestType.PUBLISH,
        RequestType.CHANNEL, RequestType.CHANNELS, RequestType.PUBLISH);
    assertThat(h.transport.writes).as("nothing before the other nodes answer").isEmpty();

    SubscriberItem subscriber = new SubscriberItem(elsewhere, 5, 0, 0);
    Listing.ChannelItem channel = new Listing.ChannelItem(ascii("b"), 0, 0, 1);
    channels.waiting.get(0).accept(List.of(
        new OtherNodes(1, List.of(), List.of(), true),
        new OtherNodes(0, List.of(subscriber), List.of(), true),
        new OtherNodes(0, List.of(), List.of(channel), true),
        OtherNodes.NONE));

    ByteBuf expected = Unpooled.buffer();
    Responses.whoami(expected, h.connection.id());
    Responses.status(expected, true);
    Responses.channel(expected, List.of(subscriber));
    Listing.write(expected, List.of(channel), Listing.CHANNELS);
    Responses.status(expected, false);
    assertThat(String.join("", h.transport.writes)).isEqualTo(Wire.hex(expected));
  }

  @Test
  void aSubscribeIsAnsweredOnceEveryNodeHearsItAndLaterReadsWaitBehindIt() {
    h.read(WHOAMI, "11 01 61", "11 01 62");
    h.read(WHOAMI);

    assertThat(channels.heard).as("asked once for the read").hasSize(1);
    assertThat(h.transport.writes).as("nothing before the subscriptions are heard").isEmpty();
    channels.heard.get(0).run();

    ByteBuf expected = Unpooled.buffer();
    Responses.whoami(expected, h.connection.id());
    Responses.status(expected, true);
    Responses.status(expected, true);
    Responses.whoami(expected, h.connection.id());
    assertThat(String.join(" ", h.transport.writes)).isEqualTo(Wire.hex(expected));
  }

  @Test
  void badInputAfterASubscribeClosesOnlyOnceTheSubscribeIsAnswered() {
    h.read("11 01 61", "ff");

    assertThat(h.transport.closes).as("closed before the answer was written").isEmpty();
    channels.heard.get(0).run();
    assertThat(String.join("", h.transport.writes)).isEqualTo("01");
    assertThat(h.transport.closes).containsExactly("unknown request type 0xff");
  }

  @Test
  void anUnsubscribeWaitsForNobody() {
    h.read("12 01 61");

    assertThat(channels.heard).isEmpty();
    assertThat(String.join("", h.transport.writes)).isEqualTo("00");
  }

  @Test
  void aReadWithoutChannelRequestsAsksNobody() {
    h.read(WHOAMI, "12 01 61");

    assertThat(channels.asked).isEmpty();
    assertThat(h.transport.writes).hasSize(1);
  }
}
