package io.sluice.verticles.engine.udprate;

import io.sluice.protocol.udp.rules.RuleSet;

/** The UDP engine's shared behaviour with its rate state in an {@link io.sluice.verticles.engine.udprate.store.InMemoryStateStore}. */
class InMemoryUdpEngineTest extends UdpEngineKit {

  @Override
  protected Server start(RuleSet rules) {
    return new EngineHarness(rules);
  }
}
