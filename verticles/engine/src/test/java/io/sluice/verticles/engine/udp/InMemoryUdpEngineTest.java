package io.sluice.verticles.engine.udp;

import io.sluice.protocol.udp.rules.RuleSet;

/** The UDP engine's shared behaviour with its rate state in an {@link io.sluice.verticles.engine.udp.state.InMemoryStateStore}. */
class InMemoryUdpEngineTest extends UdpEngineKit {

  @Override
  protected Server start(RuleSet rules) {
    return new EngineHarness(rules);
  }
}
