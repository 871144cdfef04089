package io.sluice.verticles.server.cluster;

import io.sluice.protocol.binary.client.ThrottrClient;
import io.sluice.protocol.binary.codec.Request;
import io.sluice.protocol.binary.codec.TtlUnit;
import io.sluice.protocol.binary.codec.response.Response;
import io.sluice.verticles.engine.time.ManualClock;
import io.sluice.verticles.server.kit.ClusterNodeUnderTest;
import io.sluice.verticles.server.kit.ClusterNodes;
import io.sluice.verticles.strategies.policy.Policies;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A client keeps making UPDATEs through every node while each node in turn leaves gracefully (its
 * partitions handed over) and a new node joins in its place (it takes its share with their
 * records): at the end the counters hold exactly the UPDATEs that were acknowledged, and every
 * UPDATE was acknowledged.
 */
class ClusterRollingRestartTest {

  private static final int KEYS = 40;
  private final ManualClock clock = new ManualClock();
  @RegisterExtension
  final ClusterNodes cluster = new ClusterNodes();
  private final List<ClusterNodeUnderTest> nodes = cluster.nodes();
  private final Map<ClusterNodeUnderTest, ThrottrClient> live = new ConcurrentHashMap<>();
  /** Held while a batch is in flight, so a node is taken out of the load only between batches. */
  private final ReentrantLock sending = new ReentrantLock();

  @Test
  void aRollingRestartUnderLoadLosesNoUpdateAndCountsNoneTwice() throws Exception {
    nodes.addAll(ClusterNodeUnderTest.formThree(1, clock, Policies.none()));
    ClusterNodeUnderTest first = nodes.get(0);
    for (ClusterNodeUnderTest node : nodes) {
      live.put(node, node.client(cluster.clients()));
    }
    for (int i = 0; i < KEYS; i++) {
      assertThat(await(live.get(first).insert("rolling:" + i, 0, TtlUnit.HOURS, 1))).isTrue();
    }

    AtomicBoolean running = new AtomicBoolean(true);
    AtomicLong acknowledged = new AtomicLong();
    AtomicLong refused = new AtomicLong();
    Thread load = new Thread(() -> {
      while (running.get()) {
        sending.lock();
        try {
          List<ThrottrClient> targets = new ArrayList<>(live.values());
          ThrottrClient target = targets.get(ThreadLocalRandom.current().nextInt(targets.size()));
          List<Request> batch = new ArrayList<>();
          for (int j = 0; j < 16; j++) {
            byte[] key = ("rolling:" + ThreadLocalRandom.current().nextInt(KEYS)).getBytes(StandardCharsets.UTF_8);
            batch.add(new Request.Update(Request.Update.ATTRIBUTE_QUOTA, Request.Update.CHANGE_INCREASE, 1, key));
          }
          for (Response response : await(target.batch(batch))) {
            if (((Response.Status) response).ok()) {
              acknowledged.incrementAndGet();
            } else {
              refused.incrementAndGet();
            }
          }
        } finally {
          sending.unlock();
        }
      }
    }, "rolling-load");
    load.start();

    for (int round = 0; round < 3; round++) {
      ClusterNodeUnderTest leaving = nodes.get(0);
      long before = acknowledged.get();
      ClusterNodeUnderTest.awaitCondition("load flows", java.time.Duration.ofSeconds(10), () -> acknowledged.get() > before + 200);
      sending.lock();
      try {
        live.remove(leaving).close();
      } finally {
        sending.unlock();
      }
      nodes.remove(0);
      leaving.close();
      ClusterNodeUnderTest joining = ClusterNodeUnderTest.start(List.of(nodes.get(0).clusterPort()), 1, clock);
      nodes.add(joining);
      ClusterNodeUnderTest.awaitFormed(nodes);
      live.put(joining, joining.client(cluster.clients()));
    }
    long beforeEnd = acknowledged.get();
    ClusterNodeUnderTest.awaitCondition("load flows", java.time.Duration.ofSeconds(10), () -> acknowledged.get() > beforeEnd + 200);
    running.set(false);
    load.join();

    long counted = 0;
    ThrottrClient reader = live.values().iterator().next();
    for (int i = 0; i < KEYS; i++) {
      counted += await(reader.query("rolling:" + i)).quota();
    }
    System.out.println("rolling restart: " + acknowledged.get() + " UPDATEs acknowledged, " + refused.get() + " refused");
    assertThat(refused.get()).isZero();
    assertThat(counted).isEqualTo(acknowledged.get());
  }
}
