package io.sluice.verticles.server.front;

import io.sluice.verticles.engine.instance.ConnectionStats;

/**
 * What a front's connections are, fixed per front.
 *
 * @param name         how log lines name such a connection ("closing {name} from ...")
 * @param writePerRead see {@link io.sluice.verticles.engine.session.ThrottrSession}: true when each incoming
 *                     message needs its own outgoing message
 */
public record FrontKind(String name, ConnectionStats.Protocol protocol, boolean writePerRead) {
}
