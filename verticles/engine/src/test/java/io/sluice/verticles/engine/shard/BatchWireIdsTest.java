package io.sluice.verticles.engine.shard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.sluice.protocol.binary.codec.Request;
import io.sluice.protocol.binary.codec.ValueSize;
import io.sluice.verticles.engine.browse.KeyPageScan;
import io.sluice.verticles.engine.browse.KeyPageScanCodec;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * What names work on the wire between nodes: each codec's fixed id, whatever the order codecs are
 * registered in, and the batch's version byte, whose unknown value is refused rather than misread.
 */
class BatchWireIdsTest {

  /** A second task codec, of the id it is given. */
  static final class OtherCodec extends LongResultCodec<Other> {
    OtherCodec(int id) {
      super(id, Other.class, Other::new);
    }
  }

  static final class Other extends ResultTask<Long> {
    Other(byte[] key) {
      super(key);
    }

    @Override
    protected Long compute(KeyState state, long nowNanos) {
      return 1L;
    }
  }

  private static final byte[] KEY = "k".getBytes(StandardCharsets.US_ASCII);

  private static ByteBuf written(BatchWire wire, ShardBatch batch) {
    ByteBuf out = Unpooled.buffer();
    wire.writeBatch(out, batch);
    return out;
  }

  private static ShardBatch taskAndScan() {
    ShardBatch batch = new ShardBatch(3);
    batch.add(new Other(KEY));
    batch.add(new BatchWireTravelTest.Doubling(KEY));
    batch.add(new KeyPageScan(new byte[0], null, 5));
    return batch;
  }

  @Test
  void aTaskCodecIdAlreadyTakenIsRefusedWithBothNames() {
    assertThatThrownBy(() -> TaskCodecs.of(List.of(new BatchWireTravelTest.DoublingCodec(), new OtherCodec(7))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("both declare wire id 7")
        .hasMessageContaining("DoublingCodec").hasMessageContaining("OtherCodec");
  }

  @Test
  void aScanCodecIdAlreadyTakenIsRefused() {
    assertThatThrownBy(() -> TaskCodecs.NONE.withScans(List.of(new KeyPageScanCodec(), new KeyPageScanCodec())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("both declare wire id " + KeyPageScanCodec.ID);
  }

  @Test
  void anIdOutsideAByteIsRefused() {
    assertThatThrownBy(() -> TaskCodecs.of(List.of(new OtherCodec(256))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("declares wire id 256");
  }

  @Test
  void theEnginesOwnIdsAndTheVersionArePinned() {
    assertThat(KeyPageScanCodec.ID).isEqualTo(1);
    assertThat(new KeyPageScanCodec().id()).isEqualTo(KeyPageScanCodec.ID);
    assertThat(BatchWire.VERSION).isEqualTo(2);
  }

  @Test
  void theIdsNotTheOrderOfRegistrationNameTheWork() {
    BatchWire oneOrder = new BatchWire(ValueSize.UINT16, TaskCodecs.of(
        List.of(new BatchWireTravelTest.DoublingCodec(), new OtherCodec(3))).withScans(List.of(new KeyPageScanCodec())));
    BatchWire otherOrder = new BatchWire(ValueSize.UINT16, TaskCodecs.of(
        List.of(new OtherCodec(3), new BatchWireTravelTest.DoublingCodec())).withScans(List.of(new KeyPageScanCodec())));

    ByteBuf one = written(oneOrder, taskAndScan());
    ByteBuf other = written(otherOrder, taskAndScan());
    assertThat(ByteBufUtil.hexDump(one)).isEqualTo(ByteBufUtil.hexDump(other));
    ShardBatch read = otherOrder.readBatch(one);
    assertThat(read.route()).isEqualTo(3);
    assertThat(read.entry(0)).isInstanceOf(Other.class);
    assertThat(read.entry(1)).isInstanceOf(BatchWireTravelTest.Doubling.class);
    assertThat(read.entry(2)).isInstanceOf(KeyPageScan.class);
  }

  @Test
  void aBatchStartsWithItsVersionAndAnUnknownVersionIsRefusedNotMisread() {
    BatchWire wire = new BatchWire(ValueSize.UINT16, TaskCodecs.NONE);
    ShardBatch batch = new ShardBatch(0);
    batch.add(new Request.Query(KEY));
    ByteBuf out = written(wire, batch);
    assertThat(out.getUnsignedByte(0)).isEqualTo((short) BatchWire.VERSION);

    out.setByte(0, BatchWire.VERSION + 1);
    assertThatThrownBy(() -> wire.readBatch(out))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("wire version " + (BatchWire.VERSION + 1))
        .hasMessageContaining("reads version " + BatchWire.VERSION);
  }
}
