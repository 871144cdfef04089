package io.sluice.verticles.server.udp;

import io.sluice.verticles.engine.instance.UdpPeers;
import io.sluice.verticles.engine.time.Clock;
import io.sluice.verticles.engine.udprate.UdpEngine;
import io.sluice.verticles.engine.udprate.UdpEngineListener;
import io.sluice.protocol.udp.rules.RuleSet;
import io.sluice.verticles.server.dispatch.ShardDirectory;
import io.sluice.verticles.server.metrics.LimitActivity;
import io.sluice.verticles.server.metrics.RequestDurations;
import io.sluice.verticles.server.metrics.RequestMeters;
import io.sluice.verticles.engine.routing.ShardRouter;
import io.sluice.verticles.transport.BatchedDatagrams;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.protocol.udp.wire.UdpCommand;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.InternetProtocolFamily;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.internal.VertxInternal;

import java.net.Inet6Address;
import java.net.InetSocketAddress;
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

  /** How often, and how many at most, statistics of idle keys are reclaimed (a slice is ~1 ms). */
  private static final long RECLAIM_PERIOD_MILLIS = 1000;
  private static final int RECLAIM_SLICE = 16_384;

  private final String host;
  private final int port;
  private final RuleSet rules;
  private final ShardDirectory shards;
  private final Clock clock;
  private final MeterRegistry metrics;
  private final UdpPeers peers;
  private final LimitActivity activity;
  private final RequestDurations durations;
  private final Map<String, Counter> requests = new HashMap<>();
  private final Counter droppedReplies;
  private DatagramChannel channel;
  private final int maxStatsKeys;
  private volatile UdpEngine engine;
  private long reclaimTimer = -1;

  /**
   * @param settings  where it listens, its rule table, and the keys whose statistics are held at most
   * @param metrics   where {@code sluice_requests_total{protocol="udp"}} is counted
   * @param activity  where {@code over_limit} verdicts are counted for the dashboard's Limits view
   * @param durations where each datagram's time to its reply is recorded
   */
  public UdpVerticle(UdpSettings settings, ShardDirectory shards, Clock clock, MeterRegistry metrics, UdpPeers peers,
                     LimitActivity activity, RequestDurations durations) {
    this.maxStatsKeys = settings.maxStatsKeys();
    this.activity = activity;
    this.durations = durations;
    this.metrics = metrics;
    this.peers = peers;
    this.host = settings.bind();
    this.port = settings.port();
    this.rules = settings.rules();
    this.shards = shards;
    this.clock = clock;
    this.droppedReplies = Counter.builder("sluice.udp.replies.dropped")
        .description("UDP replies dropped because the socket's outbound buffer was full")
        .register(metrics);
  }

  /** Later datagrams are answered with {@code newRules}; rate state and statistics stay. */
  public void replaceRules(RuleSet newRules) {
    UdpEngine running = engine;
    if (running == null) {
      throw new IllegalStateException("the UDP front has not started");
    }
    running.replaceRules(newRules);
  }

  @Override
  public Future<?> start() {
    ShardRouter outbox = shards.routerFor(context);
    UdpEngine engine = UdpEngine.builder(rules, new ShardRateStore(outbox))
        .clock(clock)
        .maxStatsKeys(maxStatsKeys)
        .listener(new UdpEngineListener() {
          @Override
          public void requestReceived(UdpCommand command) {
            // Parsing happens on this verticle's loop, so a plain map is enough.
            requests.computeIfAbsent(command.word(), word -> RequestMeters.counter(metrics, "udp", word)).increment();
          }

          @Override
          public void verdict(boolean over) {
            activity.udpVerdict(over);
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
    this.engine = engine;
    Gauge.builder("sluice.udp.stats.keys", engine.statistics(), statistics -> statistics.size())
        .description("Keys whose get_stats statistics the UDP front holds (idle ones are forgotten)")
        .register(metrics);
    reclaimTimer = vertx.setPeriodic(RECLAIM_PERIOD_MILLIS,
        id -> engine.statistics().forgetIdle(engine.nowSeconds(), RECLAIM_SLICE));
    return bind(new DatagramReplies((ContextInternal) context, engine, peers, clock, durations,
        new DatagramReplies.Observer() {
          @Override
          public void replyDropped() {
            droppedReplies.increment();
          }

          @Override
          public void failed(Throwable cause) {
            LOG.log(System.Logger.Level.DEBUG, "UDP: datagram not sent or received: " + cause);
          }
        }));
  }

  /**
   * The socket as Vert.x would make it (its transport: epoll when available, else NIO; registered
   * on this verticle's event loop), with the replies handler instead of Vert.x's per-send flush.
   */
  private Future<Void> bind(DatagramReplies replies) {
    ContextInternal loop = (ContextInternal) context;
    InetSocketAddress address = new InetSocketAddress(host, port);
    channel = ((VertxInternal) vertx).transport().datagramChannel(
        address.getAddress() instanceof Inet6Address ? InternetProtocolFamily.IPv6 : InternetProtocolFamily.IPv4);
    BatchedDatagrams.configure(channel);
    channel.pipeline().addLast("replies", replies);
    Promise<Void> bound = loop.promise();
    loop.nettyEventLoop().register(channel).addListener(registered -> {
      if (!registered.isSuccess()) {
        bound.fail(registered.cause());
        return;
      }
      channel.bind(address).addListener(done -> {
        if (done.isSuccess()) {
          bound.complete();
        } else {
          bound.fail(done.cause());
        }
      });
    });
    return bound.future();
  }

  /** The port actually bound (when configured as 0). */
  public int actualPort() {
    return channel.localAddress().getPort();
  }

  @Override
  public Future<?> stop() {
    vertx.cancelTimer(reclaimTimer);
    Promise<Void> closed = ((ContextInternal) context).promise();
    channel.close().addListener(done -> closed.complete());
    return closed.future();
  }
}
