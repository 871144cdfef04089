package io.sluice.verticles.server.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.verticles.engine.browse.KeyPageScanCodec;
import io.sluice.verticles.engine.shard.ScanCodec;
import io.sluice.verticles.engine.shard.TaskCodec;
import io.sluice.verticles.engine.shard.TaskCodecs;
import io.sluice.verticles.rls.StrategyTaskCodec;
import io.sluice.verticles.rls.WindowCounterCodec;
import io.sluice.verticles.server.check.LimitTaskCodec;
import io.sluice.verticles.server.udp.UdpRateCodecs;
import io.sluice.verticles.server.pubsub.HistoryCodecs;
import io.sluice.verticles.engine.channel.HistoryLimits;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

/**
 * The wire id of every kind of work that travels between nodes, pinned: the ids the codecs held
 * when they were still their place in the server's list. Changing one breaks a cluster of mixed
 * releases, so this test must change with a new {@code BatchWire.VERSION}, never alone.
 */
class TravellingWorkIdsTest {

  private static final List<TaskCodec<?>> TASKS = new ArrayList<>();
  private static final List<ScanCodec<?>> SCANS = new ArrayList<>(UdpRateCodecs.scans());

  static {
    TASKS.add(new LimitTaskCodec(() -> null));
    TASKS.addAll(UdpRateCodecs.tasks());
    TASKS.add(new WindowCounterCodec());
    TASKS.add(new StrategyTaskCodec());
    TASKS.addAll(HistoryCodecs.tasks(HistoryLimits.OFF, message -> { }));
    SCANS.add(new KeyPageScanCodec());
  }

  @Test
  void eachTaskKindKeepsItsId() {
    Map<String, Integer> ids = new TreeMap<>();
    TASKS.forEach(codec -> ids.put(codec.type().getSimpleName(), codec.id()));
    assertThat(ids).isEqualTo(Map.of("LimitTask", 0, "RateUpdate", 1, "WindowCounter", 2, "StrategyTask", 3,
        "WindowUpdate", 4, "HistoryAppend", 5, "HistoryRead", 6));
    assertThat(List.of(LimitTaskCodec.ID, UdpRateCodecs.RATE_UPDATE_ID, WindowCounterCodec.ID, StrategyTaskCodec.ID,
        UdpRateCodecs.WINDOW_UPDATE_ID, HistoryCodecs.APPEND_ID, HistoryCodecs.READ_ID))
        .containsExactly(0, 1, 2, 3, 4, 5, 6);
  }

  @Test
  void eachScanKindKeepsItsId() {
    Map<String, Integer> ids = new TreeMap<>();
    SCANS.forEach(codec -> ids.put(codec.type().getSimpleName(), codec.id()));
    assertThat(ids).isEqualTo(Map.of("Count", 0, "KeyPageScan", 1));
    assertThat(List.of(UdpRateCodecs.COUNT_ID, KeyPageScanCodec.ID)).containsExactly(0, 1);
  }

  @Test
  void everyKindRegistersTogether() {
    assertThat(TaskCodecs.of(TASKS).withScans(SCANS)).isNotNull();
  }
}
