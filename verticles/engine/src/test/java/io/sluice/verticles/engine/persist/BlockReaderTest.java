package io.sluice.verticles.engine.persist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * The data file codec without a disk: a file of three blocks fed whole, one byte at a time, and cut
 * at every offset; damage in the middle, a torn tail, another format version.
 */
class BlockReaderTest {

  private static final DataFile HEADER = new DataFile(DataFile.LOG, 2, 3, 4, 7);
  private static final List<String> BLOCKS = List.of("first block", "the second, a little longer", "third");

  /** Offsets where each block starts, and the end of the file. */
  private final List<Integer> starts = new ArrayList<>();
  private final byte[] file = file();

  private byte[] file() {
    ByteBuf out = Unpooled.buffer();
    HEADER.writeHeader(out);
    for (String block : BLOCKS) {
      starts.add(out.writerIndex());
      ByteBuf images = Unpooled.copiedBuffer(block, StandardCharsets.US_ASCII);
      out.writeBytes(Block.headerFor(images)).writeBytes(images);
    }
    starts.add(out.writerIndex());
    return ByteBufUtil.getBytes(out);
  }

  private record Read(List<String> blocks, BlockReader.End end, DataFile header) {
  }

  private static Read read(byte[] bytes, int length, int piece, boolean recover) {
    List<String> blocks = new ArrayList<>();
    BlockReader reader = new BlockReader("f.log", recover,
        (images, offset) -> blocks.add(offset + ":" + images.toString(StandardCharsets.US_ASCII)));
    for (int at = 0; at < length; at += piece) {
      reader.feed(Unpooled.wrappedBuffer(bytes, at, Math.min(piece, length - at)));
    }
    return new Read(blocks, reader.end(), reader.header());
  }

  @Test
  void readsEveryBlockWhetherFedWholeOrOneByteAtATime() {
    for (int piece : new int[] {file.length, 1, 5}) {
      Read read = read(file, file.length, piece, false);
      assertThat(read.header()).isEqualTo(HEADER);
      assertThat(read.blocks()).containsExactly(starts.get(0) + ":first block",
          starts.get(1) + ":the second, a little longer", starts.get(2) + ":third");
      assertThat(read.end().torn()).isFalse();
      assertThat(read.end().validEnd()).isEqualTo(file.length);
    }
  }

  @Test
  void aFileCutAtAnyOffsetKeepsItsWholeBlocksAndReportsWhereTheTornTailStarts() {
    for (int cut = 0; cut < file.length; cut++) {
      Read read = read(file, cut, 1, false);
      int whole = 0;
      while (whole < BLOCKS.size() && starts.get(whole + 1) <= cut) {
        whole++;
      }
      assertThat(read.blocks()).as("cut at %d", cut).hasSize(whole);
      long lastWholeEnd = cut < DataFile.HEADER_BYTES ? 0 : starts.get(whole);
      assertThat(read.end().validEnd()).as("cut at %d", cut).isEqualTo(lastWholeEnd);
      boolean onBoundary = cut == 0 || starts.contains(cut);
      assertThat(read.end().torn()).as("cut at %d", cut).isEqualTo(!onBoundary);
      if (!onBoundary) {
        assertThat(read.end().tornAt()).isEqualTo(lastWholeEnd);
      }
    }
  }

  @Test
  void aBadChecksumInTheMiddleIsRefusedNamingFileAndOffsetAndRecoveryDropsThatBlockOnly() {
    byte[] damaged = file.clone();
    damaged[starts.get(1) + Block.HEADER_BYTES + 3] ^= 0x40;
    assertThatThrownBy(() -> read(damaged, damaged.length, 1, false))
        .isInstanceOf(DamagedFileException.class)
        .hasMessage("f.log at offset " + starts.get(1) + ": a block checksum that does not match");

    Read recovered = read(damaged, damaged.length, 1, true);
    assertThat(recovered.blocks()).containsExactly(starts.get(0) + ":first block", starts.get(2) + ":third");
    assertThat(recovered.end().dropped()).containsExactly("f.log at offset " + starts.get(1)
        + ": dropped a block with a block checksum that does not match");
  }

  @Test
  void aBadLengthInTheMiddleIsRefusedAndRecoveryKeepsWhatCameBefore() {
    byte[] damaged = file.clone();
    damaged[starts.get(1)] ^= 0x01;
    assertThatThrownBy(() -> read(damaged, damaged.length, 7, false))
        .isInstanceOf(DamagedFileException.class)
        .hasMessage("f.log at offset " + starts.get(1) + ": a block length that fails its check");
    Read recovered = read(damaged, damaged.length, 7, true);
    assertThat(recovered.blocks()).containsExactly(starts.get(0) + ":first block");
    assertThat(recovered.end().dropped()).hasSize(1);
  }

  @Test
  void aLastBlockWithABadChecksumOrZerosAfterTheLastBlockAreATornTail() {
    byte[] damaged = file.clone();
    damaged[file.length - 1] ^= 0x01;
    Read read = read(damaged, damaged.length, 1, false);
    assertThat(read.blocks()).hasSize(2);
    assertThat(read.end().tornAt()).isEqualTo((long) starts.get(2));

    byte[] zeroTail = java.util.Arrays.copyOf(file, file.length + 100);
    read = read(zeroTail, zeroTail.length, 3, false);
    assertThat(read.blocks()).hasSize(3);
    assertThat(read.end().tornAt()).isEqualTo((long) file.length);
  }

  @Test
  void anotherFormatVersionOrAnotherKindOfFileGivesAClearError() {
    byte[] other = file.clone();
    ByteBuf header = Unpooled.wrappedBuffer(other);
    header.setShortLE(8, 9);
    header.setIntLE(28, DataFile.crc(header, 0, 28));
    assertThatThrownBy(() -> read(other, other.length, 1, false))
        .isInstanceOf(DamagedFileException.class)
        .hasMessage("f.log at offset 8: format version 9, this Sluice reads version 1 only");

    byte[] text = "hello, this is not a data file at all".getBytes(StandardCharsets.US_ASCII);
    assertThatThrownBy(() -> read(text, text.length, 1, false))
        .hasMessage("f.log at offset 0: not a Sluice data file (no SLUICEDB header)");
  }

  @Test
  void fileNamesCarryShardAndGeneration() {
    assertThat(HEADER.fileName()).isEqualTo("shard-0003.0000000000000007.log");
    assertThat(DataFile.named("shard-0003.0000000000000007.snapshot")).get()
        .extracting(DataFile::kind, DataFile::shard, DataFile::generation).containsExactly(DataFile.SNAPSHOT, 3, 7L);
    assertThat(DataFile.named("shard-0003.0000000000000007.snapshot.tmp")).isEmpty();
  }
}
