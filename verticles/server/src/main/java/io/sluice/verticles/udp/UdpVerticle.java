package io.sluice.verticles.udp;

import io.sluice.core.instance.UdpPeers;
import io.sluice.core.time.Clock;
import io.sluice.udp.UdpEngine;
import io.sluice.udp.UdpEngineListener;
import io.sluice.udp.rules.RuleSet;
import io.sluice.verticles.shard.ShardDirectory;
import io.sluice.verticles.shard.ShardOutbox;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.udp.wire.UdpCommand;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.datagram.DatagramPacket;
import io.vertx.core.datagram.DatagramSocket;
import io.vertx.core.datagram.DatagramSocketOptions;
import io.vertx.core.net.SocketAddress;

import java.util.HashMap;
import java.util.Map;

/**
 * The UDP text rate-limit protocol (MusicBrainz {@code over_limit key} → {@code ok N 1.4 22.0 20}):
 * one socket; each datagram's rate state lives in the storage shard that owns its key; the reply
 * goes back to the sender. Datagrams that get no reply (unknown or malformed) are only logged at
 * debug level: the protocol is fire-and-forget for them.
 */
public final class UdpVerticle extends VerticleBase {

  private static final System.Logger LOG = System.getLogger(UdpVerticle.class.getName());

  private final String host;
  private final int port;
  private final RuleSet rules;
  private final ShardDirectory shards;
  private final Clock clock;
  private final MeterRegistry metrics;
  private final UdpPeers peers;
  private final Map<String, Counter> requests = new HashMap<>();
  private DatagramSocket socket;

  /** @param metrics where {@code sluice_requests_total{protocol="udp"}} is counted */
  public UdpVerticle(String host, int port, RuleSet rules, ShardDirectory shards, Clock clock, MeterRegistry metrics,
                     UdpPeers peers) {
    this.metrics = metrics;
    this.peers = peers;
    this.host = host;
    this.port = port;
    this.rules = rules;
    this.shards = shards;
    this.clock = clock;
  }

  @Override
  public Future<?> start() {
    ShardOutbox outbox = new ShardOutbox(context, vertx.eventBus(), shards);
    UdpEngine engine = UdpEngine.builder(rules, new ShardRateStore(outbox, shards.shards()))
        .clock(() -> clock.epochNanos() / 1e9)
        .listener(new UdpEngineListener() {
          @Override
          public void requestReceived(UdpCommand command) {
            // Parsing happens on this verticle's loop, so a plain map is enough.
            requests.computeIfAbsent(command.word(), word -> Counter.builder("sluice.requests")
                .description("Requests served, by protocol and command")
                .tag("protocol", "udp")
                .tag("command", word)
                .register(metrics)).increment();
          }

          @Override
          public void defaultRuleUsed(String key) {
            LOG.log(System.Logger.Level.DEBUG, "UDP: using the default rule for key '" + key + "'");
          }

          @Override
          public void checkLimitRejected(String argument, String reason) {
            LOG.log(System.Logger.Level.INFO, "UDP: check_limit without reply: " + reason);
          }

          @Override
          public void requestFailed(Throwable failure) {
            LOG.log(System.Logger.Level.WARNING, "UDP: request failed without reply: " + failure);
          }
        })
        .build();
    socket = vertx.createDatagramSocket(new DatagramSocketOptions());
    socket.handler(packet -> answer(engine, packet));
    return socket.listen(port, host);
  }

  private void answer(UdpEngine engine, DatagramPacket packet) {
    SocketAddress sender = packet.sender();
    byte[] datagram = packet.data().getBytes();
    peers.received(sender.host(), sender.port(), datagram.length, clock.epochNanos());
    engine.handleAsync(datagram).thenAccept(reply -> reply.ifPresent(text -> {
      byte[] bytes = UdpEngine.replyBytes(text);
      peers.replied(sender.host(), sender.port(), bytes.length);
      socket.send(Buffer.buffer(bytes), sender.port(), sender.host());
    }));
  }

  /** The port actually bound (when configured as 0). */
  public int actualPort() {
    return socket.localAddress().port();
  }

  @Override
  public Future<?> stop() {
    return socket.close();
  }
}
