package io.sluice.protocol.binary.codec;

import static io.sluice.protocol.binary.codec.CodecTestKit.ascii;
import static io.sluice.protocol.binary.codec.CodecTestKit.concat;
import static io.sluice.protocol.binary.codec.CodecTestKit.hex;
import static io.sluice.protocol.binary.codec.CodecTestKit.hexOf;
import static io.sluice.protocol.binary.codec.CodecTestKit.repeat;
import static io.sluice.protocol.binary.codec.CodecTestKit.u64At;
import static io.sluice.protocol.binary.codec.CodecTestKit.written;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;

import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

import org.junit.jupiter.api.Test;

/** Response bytes (spec §2–§7), checked against the §9 captures and the offset tables. */
class ResponsesTest {

  private static final byte[] ID = hex(SpecVectors.SAMPLE_ID_HEX);
  private static final long NANOS = SpecVectors.SAMPLE_NANOS;
  private static final String NANOS_HEX = SpecVectors.SAMPLE_NANOS_HEX;

  @Test
  void writesStatusBytes() {
    assertBytes(out -> Responses.status(out, true), "01");
    assertBytes(out -> Responses.status(out, false), "00");
  }

  @Test
  void writesQueryAnswersAtEachValueSize() {
    assertBytes(out -> Responses.query(out, ValueSize.UINT16, 10, 4, 59), "01 0a 00 04 3b 00"); // row 3
    assertBytes(out -> Responses.query(out, ValueSize.UINT16, 0, 5, 59), "01 00 00 05 3b 00"); // row 18
    assertBytes(out -> Responses.query(out, ValueSize.UINT16, 1, 4, 463), "01 01 00 04 cf 01"); // row 57
    assertBytes(out -> Responses.query(out, ValueSize.UINT8, 10, 4, 59), "01 0a 04 3b"); // U8-2
    assertBytes(out -> Responses.query(out, ValueSize.UINT32, 7, 4, 59), "01 07 00 00 00 04 3b 00 00 00"); // U32-3
    assertBytes(out -> Responses.query(out, ValueSize.UINT64, -1L, 6, 59),
        "01 ffffffffffffffff 06 3b00000000000000");
  }

  @Test
  void writesGetAnswersAtEachValueSize() {
    assertBytes(out -> Responses.get(out, ValueSize.UINT16, 4, 29, ascii("EHLO")),
        "01 04 1d 00 04 00 45 48 4c 4f"); // row 16
    assertBytes(out -> Responses.get(out, ValueSize.UINT16, 5, 59, ascii("HELLO!")),
        "01 05 3b 00 06 00 48 45 4c 4c 4f 21"); // row 17
    assertBytes(out -> Responses.get(out, ValueSize.UINT16, 4, 25, new byte[0]),
        "01 04 19 00 00 00"); // row 19: GET on a counter has V = 0
    assertBytes(out -> Responses.get(out, ValueSize.UINT8, 4, 29, ascii("EHLO")),
        "01 04 1d 04 45 48 4c 4f"); // U8-4
    assertBytes(out -> Responses.get(out, ValueSize.UINT32, 4, 29, ascii("EHLO")),
        "01 04 1d 00 00 00 04 00 00 00 45 48 4c 4f"); // U32-4
  }

  /** A value V cannot announce gets 00, never a cut length that would put the client out of step. */
  @Test
  void answersFailureForAValueLongerThanTheValueSizeCanAnnounce() {
    assertBytes(out -> Responses.get(out, ValueSize.UINT8, 4, 29, repeat('s', 255)),
        "01 04 1d ff " + hexOf(repeat('s', 255)));
    assertBytes(out -> Responses.get(out, ValueSize.UINT8, 4, 29, repeat('s', 324)), "00");
    assertBytes(out -> Responses.get(out, ValueSize.UINT16, 4, 29, repeat('s', 65_536)), "00");
  }

  @Test
  void writesStatAs33Bytes() {
    assertBytes(out -> Responses.stat(out, 0, 0, 0, 0), "01" + hexOf(new byte[32])); // row 25
    assertBytes(out -> Responses.stat(out, 7, 3, 70, 30),
        "01 0700000000000000 0300000000000000 4600000000000000 1e00000000000000");
  }

  @Test
  void writesWhoamiAs17Bytes() {
    assertBytes(out -> Responses.whoami(out, ID), "01 " + SpecVectors.SAMPLE_ID_HEX); // row 27
  }

  @Test
  void writesPushesThatPrecedeThePublishStatus() {
    // The captures show the publisher's own push followed by its status byte.
    assertBytes(out -> Responses.push(out, ValueSize.UINT16, ascii("news"), ascii("BC")),
        "19 04 02 00 6e 65 77 73 42 43"); // row 38
    assertBytes(out -> {
      Responses.push(out, ValueSize.UINT16, ascii("*"), ascii("all"));
      Responses.status(out, true);
    }, "19 01 03 00 2a 61 6c 6c 01"); // row 40
    assertBytes(out -> {
      Responses.push(out, ValueSize.UINT8, ascii("*"), ascii("hi"));
      Responses.status(out, true);
    }, "19 01 02 2a 68 69 01"); // U8-5
    assertBytes(out -> {
      Responses.push(out, ValueSize.UINT32, ascii("*"), ascii("hi"));
      Responses.status(out, true);
    }, "19 01 02 00 00 00 2a 68 69 01"); // U32-5
  }

  @Test
  void writesRow43ChannelWithOneSubscriber() {
    List<SubscriberItem> subscribers = List.of(new SubscriberItem(ID, NANOS, 2, 0));

    assertBytes(out -> Responses.channel(out, subscribers),
        "01 0100000000000000 " + SpecVectors.SAMPLE_ID_HEX + NANOS_HEX
            + " 0200000000000000 0000000000000000");
  }

  @Test
  void writesChannelSubscribersInTheGivenOrderAt40BytesEach() {
    byte[] otherId = repeat(0x77, 16);
    List<SubscriberItem> subscribers = List.of(new SubscriberItem(otherId, 1, 2, 3), new SubscriberItem(ID, 4, 5, 6));

    byte[] channel = written(out -> Responses.channel(out, subscribers));

    assertThat(channel).hasSize(1 + 8 + 2 * 40);
    assertThat(u64At(channel, 1)).isEqualTo(2);
    assertThat(Arrays.copyOfRange(channel, 9, 25)).isEqualTo(otherId);
    assertThat(Arrays.copyOfRange(channel, 49, 65)).isEqualTo(ID);
    assertThat(u64At(channel, 65)).isEqualTo(4);
    assertThat(u64At(channel, 81)).isEqualTo(6);
  }

  @Test
  void answersChannelWithNoSubscribersWithFailure() {
    assertBytes(out -> Responses.channel(out, List.of()), "00"); // row 47
  }

  @Test
  void writesRow44ConnectionItemAfterAStatusByte() {
    assertBytes(out -> Responses.connection(out, SpecVectors.row44Connection()), "01 " + SpecVectors.row44ConnectionHex());
  }

  @Test
  void writesConnectionCountersInConnectionOrder() {
    // Every slot gets a different count, so any permutation of the order shows.
    long[] counts = new long[32];
    Arrays.setAll(counts, code -> 0x100 + code);
    ConnectionItem item = connectionWith("10.1.2.3", counts);

    byte[] connection = written(out -> Responses.connection(out, item));

    // INSERT, SET, QUERY, GET, UPDATE, PURGE, LIST, INFO, STAT, STATS, PUBLISH, SUBSCRIBE, UNSUBSCRIBE,
    // CONNECTIONS, CONNECTION, CHANNELS, CHANNEL, WHOAMI (spec §6.2)
    int[] connectionOrder = {0x01, 0x05, 0x02, 0x06, 0x03, 0x04, 0x07, 0x08, 0x09, 0x10, 0x13, 0x11, 0x12,
        0x14, 0x15, 0x16, 0x17, 0x18};
    assertThat(connection).hasSize(1 + 237);
    for (int i = 0; i < connectionOrder.length; i++) {
      assertThat(u64At(connection, 1 + 93 + 8 * i)).as("counter %d", i).isEqualTo(0x100 + connectionOrder[i]);
    }
  }

  @Test
  void writesTheIpAsNulPaddedTextWithItsVersion() {
    byte[] ipv4 = written(out -> Responses.connection(out, connectionWith("127.0.0.1", new long[32])));
    byte[] ipv6 = written(out -> Responses.connection(out, connectionWith("::1", new long[32])));
    byte[] longIpv6 = written(out -> Responses.connection(out, connectionWith("fe80::1234:5678:9abc:def0", new long[32])));

    assertThat(ipv4[1 + 18]).isEqualTo((byte) 4);
    assertThat(hexOf(Arrays.copyOfRange(ipv4, 1 + 19, 1 + 35))).isEqualTo(hexOf(concat(ascii("127.0.0.1"), new byte[7])));
    assertThat(ipv6[1 + 18]).isEqualTo((byte) 6);
    assertThat(hexOf(Arrays.copyOfRange(ipv6, 1 + 19, 1 + 35))).isEqualTo(hexOf(concat(ascii("::1"), new byte[13])));
    // Cut at 16 characters, and the item keeps its 237 bytes.
    assertThat(longIpv6[1 + 18]).isEqualTo((byte) 6);
    assertThat(Arrays.copyOfRange(longIpv6, 1 + 19, 1 + 35)).isEqualTo(ascii("fe80::1234:5678:"));
    assertThat(longIpv6).hasSize(238);
  }

  @Test
  void writesThePortLittleEndian() {
    byte[] connection = written(out -> Responses.connection(out, connectionWith("127.0.0.1", new long[32])));

    assertThat(hexOf(Arrays.copyOfRange(connection, 1 + 35, 1 + 37))).isEqualTo("50 c3"); // 50000
  }

  @Test
  void writesInfoAs433BytesAtTheOffsetsOfTheSpecTable() {
    byte[] info = written(out -> Responses.info(out, infoSnapshot("5.0.11")));

    assertThat(info).hasSize(433);
    assertThat(info[0]).isEqualTo((byte) 0x01);
    assertThat(u64At(info, 1)).isEqualTo(1_750_000_000L);
    // Totals 1000 + code and per-minute 2000 + code over all 32 slots, EVENT and unused ones included.
    assertThat(u64At(info, 9)).isEqualTo(32 * 1000 + 496);
    assertThat(u64At(info, 17)).isEqualTo(32 * 2000 + 496);
    int[][] typeAtOffset = {
        {0x01, 25}, {0x02, 41}, {0x03, 57}, {0x04, 73}, {0x06, 89}, {0x05, 105}, {0x07, 121}, {0x08, 137},
        {0x10, 153}, {0x09, 169}, {0x11, 185}, {0x12, 201}, {0x13, 217}, {0x17, 233}, {0x16, 249}, {0x18, 265},
        {0x15, 281}, {0x14, 297}};
    for (int[] pair : typeAtOffset) {
      assertThat(u64At(info, pair[1])).as("total at offset %d", pair[1]).isEqualTo(1000 + pair[0]);
      assertThat(u64At(info, pair[1] + 8)).as("per minute at offset %d", pair[1] + 8).isEqualTo(2000 + pair[0]);
    }
    // infoSnapshot() gives each later field its own offset as its value.
    for (int offset = 313; offset <= 409; offset += 8) {
      assertThat(u64At(info, offset)).as("field at offset %d", offset).isEqualTo(offset);
    }
    assertThat(hexOf(Arrays.copyOfRange(info, 417, 433))).isEqualTo("35 2e 30 2e 31 31" + " 00".repeat(10)); // row 50
  }

  @Test
  void cutsAnInfoVersionLongerThan16Bytes() {
    byte[] info = written(out -> Responses.info(out, infoSnapshot("0123456789abcdefTOO-LONG")));

    assertThat(info).hasSize(433);
    assertThat(Arrays.copyOfRange(info, 417, 433)).isEqualTo(ascii("0123456789abcdef"));
  }

  private static InfoSnapshot infoSnapshot(String version) {
    long[] totals = new long[InfoSnapshot.TYPE_SLOTS];
    long[] perMinute = new long[InfoSnapshot.TYPE_SLOTS];
    Arrays.setAll(totals, code -> 1000 + code);
    Arrays.setAll(perMinute, code -> 2000 + code);
    return new InfoSnapshot(1_750_000_000L, totals, perMinute,
        313, 321, 329, 337, 345, 353, 361, 369, 377, 385, 393, 401, 409, version);
  }

  private static ConnectionItem connectionWith(String ip, long[] counts) {
    return new ConnectionItem(ID, ConnectionItem.TYPE_AGENT, ConnectionItem.KIND_TCP, ip, 50000, NANOS, 1, 2, 3, 4, counts);
  }

  private static void assertBytes(Consumer<ByteBuf> writer, String expectedHex) {
    assertThat(hexOf(written(writer))).isEqualTo(hexOf(hex(expectedHex)));
  }
}
