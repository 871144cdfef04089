package io.sluice.verticles.udp;

import io.sluice.udp.rules.RuleSet;

/** The UDP front: its port and the rule table that picks each key's limit. */
public record UdpSettings(int port, RuleSet rules) {
}
