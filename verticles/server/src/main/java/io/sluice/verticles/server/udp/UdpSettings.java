package io.sluice.verticles.server.udp;

import io.sluice.protocol.udp.rules.RuleSet;

/** The UDP front: where it listens and the rule table that picks each key's limit. */
public record UdpSettings(String bind, int port, RuleSet rules) {
}
