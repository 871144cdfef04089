package io.sluice.protocol.binary.codec;

import static io.sluice.protocol.binary.codec.CodecTestKit.ascii;
import static io.sluice.protocol.binary.codec.CodecTestKit.concat;
import static io.sluice.protocol.binary.codec.CodecTestKit.hex;
import static io.sluice.protocol.binary.codec.CodecTestKit.hexOf;
import static io.sluice.protocol.binary.codec.CodecTestKit.repeat;
import static io.sluice.protocol.binary.codec.CodecTestKit.u64At;
import static io.sluice.protocol.binary.codec.CodecTestKit.written;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.protocol.binary.codec.Listing.ChannelItem;
import io.sluice.protocol.binary.codec.Listing.KeyItem;
import io.sluice.protocol.binary.codec.Listing.KeyStatsItem;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.LongStream;

import org.junit.jupiter.api.Test;

/** The fragmented listing envelope of LIST, STATS, CONNECTIONS and CHANNELS (spec §3). */
class ListingTest {

  private static final String EMPTY_LISTING = "01 00 00 00 00 00 00 00 00";

  @Test
  void writesAnEmptyListingOfEveryKindAsNineBytes() {
    // Row 49.
    assertThat(hexOf(written(out -> Listing.write(out, List.of(), Listing.keys(ValueSize.UINT16))))).isEqualTo(EMPTY_LISTING);
    assertThat(hexOf(written(out -> Listing.write(out, List.of(), Listing.KEY_STATS)))).isEqualTo(EMPTY_LISTING);
    assertThat(hexOf(written(out -> Listing.write(out, List.of(), Listing.CONNECTIONS)))).isEqualTo(EMPTY_LISTING);
    assertThat(hexOf(written(out -> Listing.write(out, List.of(), Listing.CHANNELS)))).isEqualTo(EMPTY_LISTING);
  }

  @Test
  void writesTheListExampleOfSection3() {
    List<KeyItem> records = List.of(
        new KeyItem(ascii("buf"), KeyItem.TYPE_BUFFER, 0x05, 0x18ea52467a40aa9cL, 6),
        new KeyItem(ascii("h"), KeyItem.TYPE_COUNTER, 0x06, 0x18ea584823e25b85L, 2));

    byte[] listing = written(out -> Listing.write(out, records, Listing.keys(ValueSize.UINT16)));

    assertThat(hexOf(listing)).isEqualTo(hexOf(hex("01 | 01 00 00 00 00 00 00 00 | 01 00 00 00 00 00 00 00 "
        + "| 02 00 00 00 00 00 00 00 | 03 01 05 9c aa 40 7a 46 52 ea 18 06 00 | 01 00 06 85 5b e2 23 48 58 ea 18 02 00 "
        + "| 62 75 66 68")));
  }

  /**
   * A key longer than its one-byte length (a UDP key) is left out of LIST and STATS rather than
   * announced with a cut length; a buffer longer than N bytes can count shows as the largest value.
   */
  @Test
  void leavesOutKeysLongerThan255BytesAndSaturatesBytesUsed() {
    byte[] longKey = repeat('u', 256);
    List<KeyItem> records = List.of(
        new KeyItem(longKey, KeyItem.TYPE_BUFFER, 0x04, 1, 18),
        new KeyItem(ascii("k"), KeyItem.TYPE_BUFFER, 0x04, 0x0102030405060708L, 324));
    String header = "01 | 01 00 00 00 00 00 00 00 | 01 00 00 00 00 00 00 00 | 01 00 00 00 00 00 00 00 | ";
    assertThat(hexOf(written(out -> Listing.write(out, records, Listing.keys(ValueSize.UINT8)))))
        .isEqualTo(hexOf(hex(header + "01 01 04 0807060504030201 ff | 6b")));
    List<KeyStatsItem> stats = List.of(new KeyStatsItem(longKey, 1, 1, 1, 1), new KeyStatsItem(ascii("k"), 1, 2, 3, 4));
    assertThat(hexOf(written(out -> Listing.write(out, stats, Listing.KEY_STATS))))
        .isEqualTo(hexOf(hex(header + "01 0100000000000000 0200000000000000 0300000000000000 0400000000000000 | 6b")));
  }

  @Test
  void writesU8AndU32ListItemsOf12And15Bytes() {
    // U8-6 and U32-6: "abc" counter (bytes used = N), "k" 4-byte buffer.
    long abcExpiry = 0x1122334455667788L;
    long kExpiry = 0x0102030405060708L;
    List<KeyItem> u8Records = List.of(
        new KeyItem(ascii("abc"), KeyItem.TYPE_COUNTER, 0x04, abcExpiry, 1),
        new KeyItem(ascii("k"), KeyItem.TYPE_BUFFER, 0x04, kExpiry, 4));
    List<KeyItem> u32Records = List.of(
        new KeyItem(ascii("abc"), KeyItem.TYPE_COUNTER, 0x04, abcExpiry, 4),
        new KeyItem(ascii("k"), KeyItem.TYPE_BUFFER, 0x04, kExpiry, 4));
    String header = "01 | 01 00 00 00 00 00 00 00 | 01 00 00 00 00 00 00 00 | 02 00 00 00 00 00 00 00 | ";

    assertThat(hexOf(written(out -> Listing.write(out, u8Records, Listing.keys(ValueSize.UINT8)))))
        .isEqualTo(hexOf(hex(header + "03 00 04 8877665544332211 01 | 01 01 04 0807060504030201 04 | 61 62 63 6b")));
    assertThat(hexOf(written(out -> Listing.write(out, u32Records, Listing.keys(ValueSize.UINT32)))))
        .isEqualTo(hexOf(hex(header
            + "03 00 04 8877665544332211 04 00 00 00 | 01 01 04 0807060504030201 04 00 00 00 | 61 62 63 6b")));
  }

  @Test
  void cutsAUint16ListOf200TenByteKeysInto97And97And6() {
    List<KeyItem> records = items(200, i -> new KeyItem(tenByteName(i), KeyItem.TYPE_COUNTER, 0x04, i, 2));

    List<Fragment> fragments = Fragment.readAll(
        written(out -> Listing.write(out, records, Listing.keys(ValueSize.UINT16))), 11 + 2, true);

    assertFragments(fragments, List.of(97, 97, 6), records, KeyItem::key);
  }

  @Test
  void cutsAStatsListingOfTenByteKeysEvery47Records() {
    List<KeyStatsItem> records = items(100, i -> new KeyStatsItem(tenByteName(i), 1, 2, 3, 4));

    List<Fragment> fragments = Fragment.readAll(written(out -> Listing.write(out, records, Listing.KEY_STATS)), 33, true);

    assertFragments(fragments, List.of(47, 47, 6), records, KeyStatsItem::key);
  }

  @Test
  void cutsTenConnectionsIntoEightAndTwo() {
    List<ConnectionItem> connections = items(10, i -> new ConnectionItem(repeat(i, 16),
        ConnectionItem.TYPE_CLIENT, ConnectionItem.KIND_TCP, "127.0.0.1", 40000 + i, i, 0, 0, 0, 0, new long[32]));

    List<Fragment> fragments = Fragment.readAll(written(out -> Listing.write(out, connections, Listing.CONNECTIONS)),
        237, false);

    assertFragments(fragments, List.of(8, 2), connections, connection -> new byte[0]);
    assertThat(fragments.get(1).headers().get(1)).startsWith(repeat(9, 16));
  }

  @Test
  void writesRow44ConnectionsListingOf262Bytes() {
    byte[] listing = written(out -> Listing.write(out, List.of(SpecVectors.row44Connection()), Listing.CONNECTIONS));

    assertThat(hexOf(listing)).isEqualTo(hexOf(hex("01 | 01 00 00 00 00 00 00 00 | 01 00 00 00 00 00 00 00 "
        + "| 01 00 00 00 00 00 00 00 | " + SpecVectors.row44ConnectionHex())));
    assertThat(listing).hasSize(262);
  }

  @Test
  void cutsChannelsEvery81WhateverTheNameLengths() {
    // The estimate is 25 per channel, names not counted: long names must not shorten fragments.
    List<ChannelItem> channels = items(200, i -> new ChannelItem(concat(ascii("channel-" + i + "-"),
        SpecVectors.name(i % 60)), 2L * i, 0, 1));

    List<Fragment> fragments = Fragment.readAll(written(out -> Listing.write(out, channels, Listing.CHANNELS)), 25, true);

    assertFragments(fragments, List.of(81, 81, 38), channels, ChannelItem::channel);
  }

  @Test
  void writesRow48ChannelsOfAFreshConnection() {
    List<ChannelItem> channels = List.of(
        new ChannelItem(ascii("*"), 0, 0, 1),
        new ChannelItem(ascii(SpecVectors.SAMPLE_ID_HEX), 0, 0, 1));

    byte[] listing = written(out -> Listing.write(out, channels, Listing.CHANNELS));

    assertThat(hexOf(listing)).isEqualTo(hexOf(concat(hex("01 | 01 00 00 00 00 00 00 00 | 01 00 00 00 00 00 00 00 "
        + "| 02 00 00 00 00 00 00 00 | 01" + "00".repeat(16) + "01 00 00 00 00 00 00 00 | 20" + "00".repeat(16)
        + "01 00 00 00 00 00 00 00 | 2a"), ascii(SpecVectors.SAMPLE_ID_HEX))));
    assertThat(listing).hasSize(108);
  }

  @Test
  void keepsARecordThatFillsTheFragmentToExactly2048Bytes() {
    // uint16 with 117-byte keys: 9 + 2 + 117 = 128 per record, and 16 × 128 = 2048 exactly.
    List<KeyItem> sixteen = items(16, i -> new KeyItem(SpecVectors.name(117), KeyItem.TYPE_COUNTER, 4, i, 2));
    List<KeyItem> seventeen = items(17, i -> new KeyItem(SpecVectors.name(117), KeyItem.TYPE_COUNTER, 4, i, 2));

    List<Fragment> exactFit = Fragment.readAll(
        written(out -> Listing.write(out, sixteen, Listing.keys(ValueSize.UINT16))), 13, true);
    List<Fragment> oneOver = Fragment.readAll(
        written(out -> Listing.write(out, seventeen, Listing.keys(ValueSize.UINT16))), 13, true);

    assertThat(exactFit).extracting(Fragment::itemCount).containsExactly(16L);
    assertThat(oneOver).extracting(Fragment::itemCount).containsExactly(16L, 1L);
  }

  /**
   * Checks fragment sizes, 1-based indexes, that each header's first byte is its name's length (for
   * named listings) and that each fragment's names follow its headers in item order.
   */
  private static <T> void assertFragments(List<Fragment> fragments, List<Integer> expectedSizes, List<T> items,
      Function<T, byte[]> nameOf) {
    assertThat(fragments).extracting(Fragment::itemCount)
        .containsExactlyElementsOf(expectedSizes.stream().map(Integer::longValue).collect(Collectors.toList()));
    assertThat(fragments).extracting(Fragment::index)
        .containsExactlyElementsOf(LongStream.rangeClosed(1, fragments.size()).boxed().collect(Collectors.toList()));
    int first = 0;
    for (Fragment fragment : fragments) {
      List<T> inFragment = items.subList(first, first + (int) fragment.itemCount());
      byte[] expectedNames = concat(inFragment.stream().map(nameOf).toArray(byte[][]::new));
      assertThat(hexOf(fragment.names())).as("names of fragment %d", fragment.index()).isEqualTo(hexOf(expectedNames));
      first += (int) fragment.itemCount();
    }
  }

  private static <T> List<T> items(int count, IntFunction<T> item) {
    return IntStream.range(0, count).mapToObj(item).collect(Collectors.toList());
  }

  /** "key-000042": 10 bytes, different for each record. */
  private static byte[] tenByteName(int i) {
    return ascii(String.format("key-%06d", i));
  }

  /** One fragment read back from a listing: its index, count, item headers and the names after them. */
  private record Fragment(long index, long itemCount, List<byte[]> headers, byte[] names) {

    /**
     * Reads a whole listing. With {@code named}, each header's first byte is the length of a name
     * that follows the fragment's headers. Fails unless the listing ends exactly after the last fragment.
     */
    static List<Fragment> readAll(byte[] listing, int headerLength, boolean named) {
      assertThat(listing[0]).as("status").isEqualTo((byte) 0x01);
      long fragmentCount = u64At(listing, 1);
      int at = 9;
      List<Fragment> fragments = new ArrayList<>();
      for (long f = 0; f < fragmentCount; f++) {
        long index = u64At(listing, at);
        long itemCount = u64At(listing, at + 8);
        at += 16;
        List<byte[]> headers = new ArrayList<>();
        int namesLength = 0;
        for (long i = 0; i < itemCount; i++) {
          byte[] header = Arrays.copyOfRange(listing, at, at + headerLength);
          headers.add(header);
          namesLength += named ? header[0] & 0xff : 0;
          at += headerLength;
        }
        ByteArrayOutputStream names = new ByteArrayOutputStream();
        names.write(listing, at, namesLength);
        at += namesLength;
        fragments.add(new Fragment(index, itemCount, headers, names.toByteArray()));
      }
      assertThat(at).as("listing length").isEqualTo(listing.length);
      return fragments;
    }
  }
}
