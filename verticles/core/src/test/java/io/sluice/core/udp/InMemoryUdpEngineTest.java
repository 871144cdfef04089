package io.sluice.core.udp;

import io.sluice.udp.rules.RuleSet;

/** The UDP engine's shared behaviour with its rate state in an {@link io.sluice.core.udp.state.InMemoryStateStore}. */
class InMemoryUdpEngineTest extends UdpEngineKit {

  @Override
  protected Server start(RuleSet rules) {
    return new EngineHarness(rules);
  }
}
