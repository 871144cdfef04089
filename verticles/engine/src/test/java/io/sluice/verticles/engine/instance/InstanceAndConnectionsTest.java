package io.sluice.verticles.engine.instance;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.verticles.engine.time.ManualClock;
import io.sluice.protocol.binary.codec.ValueSize;

import java.time.Duration;

import org.junit.jupiter.api.Test;

/** The instance's metrics window and the registry of open connections. */
class InstanceAndConnectionsTest {

  private final ManualClock clock = new ManualClock();

  @Test
  void currentWindowCountsWholeMinutesFromStart() {
    clock.advance(Duration.ofSeconds(17));
    Instance instance = Instance.start("test", ValueSize.UINT16, 2, clock);

    assertThat(instance.startedAtNanos()).isEqualTo(clock.epochNanos());
    assertThat(instance.currentWindow()).isZero();
    clock.advance(Duration.ofMinutes(1).minusNanos(1));
    assertThat(instance.currentWindow()).isZero();
    clock.advance(Duration.ofNanos(1));
    assertThat(instance.currentWindow()).isEqualTo(1);
    clock.advance(Duration.ofMinutes(5));
    assertThat(instance.currentWindow()).isEqualTo(6);
  }

  @Test
  void registryFindsByIdBytesAndListsInConnectOrder() {
    ConnectionRegistry registry = new ConnectionRegistry();
    ConnectionStats later = new ConnectionStats(ConnectionStats.randomId(), ConnectionStats.Protocol.TCP, "127.0.0.1", 2, 200);
    ConnectionStats earlier = new ConnectionStats(ConnectionStats.randomId(), ConnectionStats.Protocol.TCP, "127.0.0.1", 1, 100);
    registry.add(later);
    registry.add(earlier);

    assertThat(registry.size()).isEqualTo(2);
    assertThat(registry.find(earlier.id())).isSameAs(earlier);
    assertThat(registry.find(later.id().clone())).isSameAs(later);
    assertThat(registry.find(new byte[16])).isNull();
    assertThat(registry.all()).containsExactly(earlier, later);

    registry.remove(earlier);
    assertThat(registry.find(earlier.id())).isNull();
    assertThat(registry.all()).containsExactly(later);
  }

  @Test
  void registrySumsTheBytesOfOpenConnectionsOnly() {
    ConnectionRegistry registry = new ConnectionRegistry();
    ConnectionStats a = new ConnectionStats(ConnectionStats.randomId(), ConnectionStats.Protocol.TCP, "127.0.0.1", 1, 1);
    ConnectionStats b = new ConnectionStats(ConnectionStats.randomId(), ConnectionStats.Protocol.TCP, "127.0.0.1", 2, 2);
    registry.add(a);
    registry.add(b);
    a.addReadBytes(10);
    a.addWriteBytes(1);
    b.addReadBytes(5);
    b.addWriteBytes(2);

    assertThat(registry.totalReadBytes()).isEqualTo(15);
    assertThat(registry.totalWriteBytes()).isEqualTo(3);
    registry.remove(a);
    assertThat(registry.totalReadBytes()).isEqualTo(5);
    assertThat(registry.totalWriteBytes()).isEqualTo(2);
  }

  @Test
  void randomIdIsAVersionFourUuidAndItsHexIsLowercase() {
    byte[] id = ConnectionStats.randomId();
    ConnectionStats stats = new ConnectionStats(id, ConnectionStats.Protocol.TCP, "127.0.0.1", 1, 1);

    assertThat(id).hasSize(16);
    assertThat(id[6] & 0xf0).isEqualTo(0x40);
    assertThat(id[8] & 0xc0).isEqualTo(0x80);
    assertThat(stats.idHex()).hasSize(32).matches("[0-9a-f]{32}");
    assertThat(ConnectionStats.randomId()).isNotEqualTo(id);
  }

  @Test
  void connectionKeepsItsOwnCopyOfTheId() {
    byte[] id = ConnectionStats.randomId();
    ConnectionStats stats = new ConnectionStats(id, ConnectionStats.Protocol.TCP, "127.0.0.1", 1, 1);
    byte[] original = id.clone();

    id[0] ^= 1;
    stats.id()[1] ^= 1;

    assertThat(stats.id()).isEqualTo(original);
  }

  @Test
  void connectionItemCarriesTheCountedRequests() {
    ConnectionStats stats = new ConnectionStats(ConnectionStats.randomId(), ConnectionStats.Protocol.TCP, "10.0.0.7", 4242, 99);
    stats.countRequest(0x01);
    stats.countRequest(0x01);
    stats.countRequest(0x18);
    stats.addReadBytes(30);
    stats.addPublishedBytes(4);
    stats.addReceivedBytes(6);

    var item = stats.toItem();
    assertThat(item.requestCounts()[0x01]).isEqualTo(2);
    assertThat(item.requestCounts()[0x18]).isEqualTo(1);
    assertThat(item.ip()).isEqualTo("10.0.0.7");
    assertThat(item.port()).isEqualTo(4242);
    assertThat(item.connectedAtNanos()).isEqualTo(99);
    assertThat(item.readBytes()).isEqualTo(30);
    assertThat(item.publishedBytes()).isEqualTo(4);
    assertThat(item.receivedBytes()).isEqualTo(6);

    stats.countRequest(0x01);
    assertThat(item.requestCounts()[0x01]).as("the item is a snapshot").isEqualTo(2);
  }
}
