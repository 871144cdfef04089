package io.sluice.verticles.server.udp;

import io.sluice.verticles.engine.time.ManualClock;
import io.sluice.verticles.engine.udprate.UdpEngineKit;
import io.sluice.protocol.udp.rules.RuleSet;
import io.sluice.verticles.server.kit.SluiceUnderTest;
import io.vertx.core.Vertx;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;

/**
 * The UDP engine's shared behaviour with its rate state in the storage shards
 * ({@link ShardRateStore}): a whole instance per engine, asked over a real UDP socket.
 */
class ShardRateStoreEngineTest extends UdpEngineKit {

  @Override
  protected Server start(RuleSet rules) {
    Vertx vertx = Vertx.vertx();
    SluiceUnderTest sut = new SluiceUnderTest(vertx,
        SluiceUnderTest.defaults().withUdp(UdpSettings.defaults().withRules(rules)));
    UdpTestClient client = new UdpTestClient(sut.udpPort());
    return new Server() {
      @Override
      public String request(String request) {
        return client.request(request);
      }

      @Override
      public ManualClock clock() {
        return sut.clock();
      }

      @Override
      public void close() {
        client.close();
        sut.close();
        await(vertx.close());
      }
    };
  }
}
