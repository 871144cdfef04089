package io.sluice.verticles.server.front;

import io.sluice.protocol.binary.client.ThrottrClient;
import io.sluice.protocol.binary.client.ThrottrClientOptions;
import io.sluice.protocol.binary.codec.TtlUnit;
import io.sluice.verticles.server.kit.Poll;
import io.sluice.verticles.server.kit.SluiceUnderTest;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Resource bounds under attack: 5,000 connections open at once, then connect/close churn. Every one
 * is accounted for and forgotten when it closes, and a fresh client is served after.
 */
class ConnectionChurnTest {

  private static final int CONCURRENT = 5_000;
  private static final int CHURN = 2_000;

  private final Vertx vertx = Vertx.vertx();
  private final SluiceUnderTest sut = new SluiceUnderTest(vertx);

  @AfterEach
  void stop() {
    sut.close();
    await(vertx.close());
  }

  @Test
  void fiveThousandConnectionsThenChurnLeaveNothingBehind() {
    NetClient client = vertx.createNetClient();
    List<Future<NetSocket>> opening = new ArrayList<>();
    for (int i = 0; i < CONCURRENT; i++) {
      opening.add(client.connect(sut.tcpPort(), "127.0.0.1"));
    }
    List<NetSocket> open = await(Future.all(opening)).list();
    Poll.until("every connection is registered",
        () -> sut.server().instance().connections().size() == CONCURRENT);
    await(Future.all(open.stream().map(NetSocket::close).toList()));

    for (int i = 0; i < CHURN; i += 100) {
      List<Future<Void>> round = new ArrayList<>();
      for (int j = 0; j < 100; j++) {
        round.add(client.connect(sut.tcpPort(), "127.0.0.1").compose(NetSocket::close));
      }
      await(Future.all(round));
    }
    Poll.until("every connection is forgotten", () -> sut.server().instance().connections().size() == 0);
    await(client.close());

    ThrottrClient fresh = await(ThrottrClient.connect(vertx, new ThrottrClientOptions().setPort(sut.tcpPort())));
    assertThat(await(fresh.insert("after-churn", 1, TtlUnit.SECONDS, 60))).isTrue();
    await(fresh.close());
  }
}
