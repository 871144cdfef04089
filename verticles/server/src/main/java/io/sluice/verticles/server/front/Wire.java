package io.sluice.verticles.server.front;

import io.netty.channel.Channel;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.SocketAddress;
import io.vertx.core.streams.ReadStream;
import io.vertx.core.streams.WriteStream;

/**
 * One client connection's transport as {@link FrontConnection} sees it. A TCP socket and a
 * WebSocket are each both streams, but Vert.x gives them no common type that says so.
 *
 * @param channel the Netty channel under the transport, where pushes' flushes are gathered
 */
public record Wire(SocketAddress peer, ReadStream<Buffer> input, WriteStream<Buffer> output, Channel channel) {
}
