package io.sluice.protocol.binary.codec;

import static io.sluice.protocol.binary.codec.CodecTestKit.ascii;
import static io.sluice.protocol.binary.codec.CodecTestKit.concat;
import static io.sluice.protocol.binary.codec.CodecTestKit.hex;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * Wire data from the spec shared by several tests: request frames with the request each one must
 * decode to (the requests of spec §9 as captured from the reference server, their uint64
 * equivalents, and frames built for every value size with the extreme values of each field), and
 * the connection of row 44.
 */
final class SpecVectors {

  /** One frame and its meaning. {@code name} says where it comes from (a §9 row, or what it tests). */
  record Vector(String name, ValueSize size, byte[] wire, Request expected) {
    @Override
    public String toString() {
      return name + " (" + size.label() + ")";
    }
  }

  /** A connection ID seen in spec §3.4, used wherever a row shows {@code <id16>} or its 32 hex characters. */
  static final String SAMPLE_ID_HEX = "fdc473c1476f4f4a9811fb503983529f";

  /** A LIST time point from spec §3.1 (ns since the epoch), used wherever a row shows {@code <ns8>}. */
  static final long SAMPLE_NANOS = 0x18ea52467a40aa9cL;
  static final String SAMPLE_NANOS_HEX = "9c aa 40 7a 46 52 ea 18";

  private SpecVectors() {
  }

  /**
   * Row 44's connection: a fresh TCP client from 127.0.0.1 (port 54321 here) that sent 7 requests
   * before the CONNECTIONS being answered, having read 17 bytes and written 194.
   */
  static ConnectionItem row44Connection() {
    long[] counts = new long[32];
    for (RequestType seen : List.of(RequestType.LIST, RequestType.STATS, RequestType.PUBLISH, RequestType.UNSUBSCRIBE,
        RequestType.CONNECTIONS, RequestType.CHANNELS, RequestType.CHANNEL, RequestType.WHOAMI)) {
      counts[seen.code()] = 1;
    }
    counts[RequestType.EVENT.code()] = 9; // EVENT has no slot in the item: it must not show up
    return new ConnectionItem(hex(SAMPLE_ID_HEX), ConnectionItem.TYPE_CLIENT, ConnectionItem.KIND_TCP, "127.0.0.1",
        54321, SAMPLE_NANOS, 0x11, 0xc2, 0, 0, counts);
  }

  /** Row 44's 237-byte item: ID, type, kind, IP version 4, "127.0.0.1" NUL-padded to 16, port LE, 18 counters. */
  static String row44ConnectionHex() {
    return SAMPLE_ID_HEX + " 00 00 04 | 31 32 37 2e 30 2e 30 2e 31 00 00 00 00 00 00 00 | 31 d4 | " + SAMPLE_NANOS_HEX
        + " | 1100000000000000 c200000000000000 | " + "00".repeat(4 * 8)
        + " | 0000000000000000 0000000000000000 0000000000000000 0000000000000000 0000000000000000"
        + " 0000000000000000 0100000000000000 0000000000000000 0000000000000000 0100000000000000"
        + " 0100000000000000 0000000000000000 0100000000000000 0100000000000000 0000000000000000"
        + " 0100000000000000 0100000000000000 0100000000000000";
  }

  static List<Vector> all() {
    List<Vector> all = new ArrayList<>(fromSpec());
    for (ValueSize size : ValueSize.values()) {
      all.addAll(extremes(size));
    }
    return all;
  }

  static List<Vector> ofSize(ValueSize size) {
    return all().stream().filter(vector -> vector.size() == size).collect(Collectors.toList());
  }

  /** Every request of spec §9 (uint16 rows 1–58, U8-*, U32-*) and the same requests at uint64. */
  static List<Vector> fromSpec() {
    ValueSize n2 = ValueSize.UINT16;
    byte[] abc = ascii("abc");
    byte[] buf = ascii("buf");
    byte[] news = ascii("news");
    return List.of(
        v("row 1-2 INSERT abc", n2, "01 0a 00 04 3c 00 03 61 62 63", new Request.Insert(10, 4, 60, abc)),
        v("row 3 QUERY abc", n2, "02 03 61 62 63", new Request.Query(abc)),
        v("row 4 QUERY zzz", n2, "02 03 7a 7a 7a", new Request.Query(ascii("zzz"))),
        v("row 5 UPDATE quota DECREASE 4", n2, "03 00 02 04 00 03 61 62 63", new Request.Update(0, 2, 4, abc)),
        v("row 6 UPDATE quota DECREASE 7", n2, "03 00 02 07 00 03 61 62 63", new Request.Update(0, 2, 7, abc)),
        v("row 7 UPDATE quota DECREASE 6", n2, "03 00 02 06 00 03 61 62 63", new Request.Update(0, 2, 6, abc)),
        v("row 8 UPDATE quota PATCH 65535", n2, "03 00 00 ff ff 03 61 62 63", new Request.Update(0, 0, 65535, abc)),
        v("row 9 UPDATE quota INCREASE 2", n2, "03 00 01 02 00 03 61 62 63", new Request.Update(0, 1, 2, abc)),
        v("row 10 UPDATE TTL PATCH 120", n2, "03 01 00 78 00 03 61 62 63", new Request.Update(1, 0, 120, abc)),
        v("row 11 UPDATE TTL INCREASE 10", n2, "03 01 01 0a 00 03 61 62 63", new Request.Update(1, 1, 10, abc)),
        v("row 12 UPDATE TTL DECREASE 100", n2, "03 01 02 64 00 03 61 62 63", new Request.Update(1, 2, 100, abc)),
        v("row 13 UPDATE attribute 0x02", n2, "03 02 00 01 00 03 61 62 63", new Request.Update(2, 0, 1, abc)),
        v("row 14 UPDATE change 0x03", n2, "03 00 03 01 00 03 61 62 63", new Request.Update(0, 3, 1, abc)),
        v("row 15 SET buf EHLO", n2, "05 04 1e 00 03 04 00 62 75 66 45 48 4c 4f",
            new Request.Set(4, 30, buf, ascii("EHLO"))),
        v("row 16 GET buf", n2, "06 03 62 75 66", new Request.Get(buf)),
        v("row 17 SET buf HELLO!", n2, "05 05 3c 00 03 06 00 62 75 66 48 45 4c 4c 4f 21",
            new Request.Set(5, 60, buf, ascii("HELLO!"))),
        v("row 18 QUERY buf", n2, "02 03 62 75 66", new Request.Query(buf)),
        v("row 19 GET abc", n2, "06 03 61 62 63", new Request.Get(abc)),
        v("row 20 UPDATE quota on a buffer", n2, "03 00 01 05 00 03 62 75 66", new Request.Update(0, 1, 5, buf)),
        v("row 21 UPDATE TTL on a buffer", n2, "03 01 00 0a 00 03 62 75 66", new Request.Update(1, 0, 10, buf)),
        v("row 22 SET on a counter key", n2, "05 04 1e 00 03 01 00 61 62 63 58",
            new Request.Set(4, 30, abc, ascii("X"))),
        v("row 23 INSERT on a buffer key", n2, "01 01 00 04 1e 00 03 62 75 66", new Request.Insert(1, 4, 30, buf)),
        v("row 24 PURGE abc", n2, "04 03 61 62 63", new Request.Purge(abc)),
        v("row 25 STAT buf", n2, "09 03 62 75 66", new Request.Stat(buf)),
        v("row 26 STAT nope", n2, "09 04 6e 6f 70 65", new Request.Stat(ascii("nope"))),
        v("row 27 WHOAMI", n2, "18", Request.Bare.WHOAMI),
        v("row 28 INSERT ms 1500", n2, "01 03 00 03 dc 05 02 6d 73", new Request.Insert(3, 3, 1500, ascii("ms"))),
        v("row 28 QUERY ms", n2, "02 02 6d 73", new Request.Query(ascii("ms"))),
        v("row 29 INSERT hours 2", n2, "01 03 00 06 02 00 01 68", new Request.Insert(3, 6, 2, ascii("h"))),
        v("row 29 QUERY h", n2, "02 01 68", new Request.Query(ascii("h"))),
        v("row 30 INSERT TTL type 0x00", n2, "01 03 00 00 02 00 03 74 74 30", new Request.Insert(3, 0, 2, ascii("tt0"))),
        v("row 31 INSERT ttl 0", n2, "01 03 00 04 00 00 04 7a 65 72 6f", new Request.Insert(3, 4, 0, ascii("zero"))),
        v("row 32 INSERT empty key", n2, "01 03 00 04 05 00 00", new Request.Insert(3, 4, 5, new byte[0])),
        v("row 32 QUERY empty key", n2, "02 00", new Request.Query(new byte[0])),
        v("row 33 INSERT p1", n2, "01 01 00 04 3c 00 02 70 31", new Request.Insert(1, 4, 60, ascii("p1"))),
        v("row 33 INSERT p2", n2, "01 01 00 04 3c 00 02 70 32", new Request.Insert(1, 4, 60, ascii("p2"))),
        v("row 33 QUERY p1", n2, "02 02 70 31", new Request.Query(ascii("p1"))),
        v("row 33 PURGE p2", n2, "04 02 70 32", new Request.Purge(ascii("p2"))),
        v("row 34 INSERT split", n2, "01 07 00 04 3c 00 05 73 70 6c 69 74", new Request.Insert(7, 4, 60, ascii("split"))),
        v("row 35 INSERT A 1 s", n2, "01 05 00 04 01 00 01 41", new Request.Insert(5, 4, 1, ascii("A"))),
        v("row 35 QUERY A", n2, "02 01 41", new Request.Query(ascii("A"))),
        v("row 35 INSERT A 60 s", n2, "01 05 00 04 3c 00 01 41", new Request.Insert(5, 4, 60, ascii("A"))),
        v("row 36 QUERY S", n2, "02 01 53", new Request.Query(ascii("S"))),
        v("row 37 SUBSCRIBE news", n2, "11 04 6e 65 77 73", new Request.Subscribe(news)),
        v("row 38 PUBLISH news BC", n2, "13 04 02 00 6e 65 77 73 42 43", new Request.Publish(news, ascii("BC"))),
        v("row 39 PUBLISH nobody", n2, "13 06 01 00 6e 6f 62 6f 64 79 01",
            new Request.Publish(ascii("nobody"), hex("01"))),
        v("row 40 PUBLISH * all", n2, "13 01 03 00 2a 61 6c 6c", new Request.Publish(ascii("*"), ascii("all"))),
        new Vector("row 41 PUBLISH to an ID channel", n2,
            concat(hex("13 20 02 00"), ascii(SAMPLE_ID_HEX), hex("68 69")),
            new Request.Publish(ascii(SAMPLE_ID_HEX), ascii("hi"))),
        v("row 42 UNSUBSCRIBE news", n2, "12 04 6e 65 77 73", new Request.Unsubscribe(news)),
        v("row 43 CHANNEL news", n2, "17 04 6e 65 77 73", new Request.Channel(news)),
        v("row 44 CONNECTIONS", n2, "14", Request.Bare.CONNECTIONS),
        v("row 45 CONNECTION unknown ID", n2, "15 00000000000000000000000000000000", new Request.Connection(new byte[16])),
        v("row 46 CONNECTION own ID", n2, "15 " + SAMPLE_ID_HEX, new Request.Connection(hex(SAMPLE_ID_HEX))),
        v("row 47 CHANNEL nope", n2, "17 04 6e 6f 70 65", new Request.Channel(ascii("nope"))),
        v("row 48 CHANNELS", n2, "16", Request.Bare.CHANNELS),
        v("row 49 LIST", n2, "07", Request.Bare.LIST),
        v("row 49 STATS", n2, "10", Request.Bare.STATS),
        v("row 50 INFO", n2, "08", Request.Bare.INFO),
        v("row 51 EVENT wrapping INSERT ev", n2, "19 04 09 00 63 68 61 6e 01 03 00 04 3c 00 02 65 76",
            new Request.Event(ascii("chan"), hex("01 03 00 04 3c 00 02 65 76"), new Request.Insert(3, 4, 60, ascii("ev")))),
        v("row 52 EVENT wrapping QUERY ev", n2, "19 00 04 00 02 02 65 76",
            new Request.Event(new byte[0], hex("02 02 65 76"), new Request.Query(ascii("ev")))),
        v("row 53 EVENT wrapping unknown type 0x0a", n2, "19 01 02 00 63 0a 00",
            new Request.Event(ascii("c"), hex("0a 00"), null)),
        v("row 57 INSERT s 65000", n2, "01 01 00 04 e8 fd 03 62 69 67", new Request.Insert(1, 4, 65000, ascii("big"))),
        v("row 57 UPDATE TTL INCREASE 1000", n2, "03 01 01 e8 03 03 62 69 67", new Request.Update(1, 1, 1000, ascii("big"))),
        v("row 57 QUERY big", n2, "02 03 62 69 67", new Request.Query(ascii("big"))),
        v("row 58 INSERT dec", n2, "01 01 00 04 64 00 03 64 65 63", new Request.Insert(1, 4, 100, ascii("dec"))),
        v("row 58 UPDATE TTL DECREASE 200", n2, "03 01 02 c8 00 03 64 65 63", new Request.Update(1, 2, 200, ascii("dec"))),
        v("row 58 QUERY dec", n2, "02 03 64 65 63", new Request.Query(ascii("dec"))),

        v("U8-1 INSERT", ValueSize.UINT8, "01 0a 04 3c 03 61 62 63", new Request.Insert(10, 4, 60, abc)),
        v("U8-2 QUERY", ValueSize.UINT8, "02 03 61 62 63", new Request.Query(abc)),
        v("U8-3 UPDATE", ValueSize.UINT8, "03 00 02 03 03 61 62 63", new Request.Update(0, 2, 3, abc)),
        v("U8-4 SET", ValueSize.UINT8, "05 04 1e 01 04 6b 45 48 4c 4f", new Request.Set(4, 30, ascii("k"), ascii("EHLO"))),
        v("U8-4 GET", ValueSize.UINT8, "06 01 6b", new Request.Get(ascii("k"))),
        v("U8-5 PUBLISH", ValueSize.UINT8, "13 01 02 2a 68 69", new Request.Publish(ascii("*"), ascii("hi"))),
        v("U8-6 LIST", ValueSize.UINT8, "07", Request.Bare.LIST),

        v("U32-1 INSERT", ValueSize.UINT32, "01 0a 00 00 00 04 3c 00 00 00 03 61 62 63", new Request.Insert(10, 4, 60, abc)),
        v("U32-2 QUERY", ValueSize.UINT32, "02 03 61 62 63", new Request.Query(abc)),
        v("U32-3 UPDATE", ValueSize.UINT32, "03 00 02 03 00 00 00 03 61 62 63", new Request.Update(0, 2, 3, abc)),
        v("U32-4 SET", ValueSize.UINT32, "05 04 1e 00 00 00 01 04 00 00 00 6b 45 48 4c 4f",
            new Request.Set(4, 30, ascii("k"), ascii("EHLO"))),
        v("U32-4 GET", ValueSize.UINT32, "06 01 6b", new Request.Get(ascii("k"))),
        v("U32-5 PUBLISH", ValueSize.UINT32, "13 01 02 00 00 00 2a 68 69", new Request.Publish(ascii("*"), ascii("hi"))),
        v("U32-6 LIST", ValueSize.UINT32, "07", Request.Bare.LIST),

        // The U8/U32 rows again with N = 8; no capture exists for uint64, the layout is the same (§1.4).
        v("U64-1 INSERT", ValueSize.UINT64, "01 0a00000000000000 04 3c00000000000000 03 616263",
            new Request.Insert(10, 4, 60, abc)),
        v("U64-2 QUERY", ValueSize.UINT64, "02 03 616263", new Request.Query(abc)),
        v("U64-3 UPDATE", ValueSize.UINT64, "03 00 02 0300000000000000 03 616263", new Request.Update(0, 2, 3, abc)),
        v("U64-4 SET", ValueSize.UINT64, "05 04 1e00000000000000 01 0400000000000000 6b 45484c4f",
            new Request.Set(4, 30, ascii("k"), ascii("EHLO"))),
        v("U64-4 GET", ValueSize.UINT64, "06 01 6b", new Request.Get(ascii("k"))),
        v("U64-5 PUBLISH", ValueSize.UINT64, "13 01 0200000000000000 2a 6869", new Request.Publish(ascii("*"), ascii("hi"))),
        v("U64-6 LIST", ValueSize.UINT64, "07", Request.Bare.LIST),
        v("U64 EVENT wrapping QUERY ev", ValueSize.UINT64, "19 00 0400000000000000 02 02 65 76",
            new Request.Event(new byte[0], hex("02 02 65 76"), new Request.Query(ascii("ev")))));
  }

  /**
   * Frames of every request type at one value size, with the largest N-byte values, 255-byte keys
   * and channels (the length byte must be read unsigned) and a payload whose length needs more
   * than one byte where N allows it.
   */
  static List<Vector> extremes(ValueSize size) {
    long max = size.max();
    byte[] longestKey = name(255);
    byte[] payload = name(size == ValueSize.UINT8 ? 255 : 300);
    byte[] connectionId = hex("000102030405060708090a0b0c0d0e0f");
    byte[] innerInsert = wire(size).u8(0x01).n(max).u8(0x04).n(1).u8(2).ascii("in").bytes();
    String prefix = "extreme " + size.label() + " ";
    return List.of(
        new Vector(prefix + "INSERT", size,
            wire(size).u8(0x01).n(max).u8(0x06).n(max - 1).u8(3).ascii("abc").bytes(),
            new Request.Insert(max, 0x06, max - 1, ascii("abc"))),
        new Vector(prefix + "INSERT longest key, unknown TTL type", size,
            wire(size).u8(0x01).n(0).u8(0xff).n(0).u8(255).raw(longestKey).bytes(),
            new Request.Insert(0, 0xff, 0, longestKey)),
        new Vector(prefix + "UPDATE", size,
            wire(size).u8(0x03).u8(0x01).u8(0x02).n(max).u8(1).ascii("k").bytes(),
            new Request.Update(1, 2, max, ascii("k"))),
        new Vector(prefix + "SET", size,
            wire(size).u8(0x05).u8(0x01).n(max).u8(255).n(payload.length).raw(longestKey).raw(payload).bytes(),
            new Request.Set(1, max, longestKey, payload)),
        new Vector(prefix + "SET empty key and value", size,
            wire(size).u8(0x05).u8(0x04).n(1).u8(0).n(0).bytes(),
            new Request.Set(4, 1, new byte[0], new byte[0])),
        new Vector(prefix + "QUERY", size, wire(size).u8(0x02).u8(255).raw(longestKey).bytes(), new Request.Query(longestKey)),
        new Vector(prefix + "PURGE", size, wire(size).u8(0x04).u8(1).ascii("p").bytes(), new Request.Purge(ascii("p"))),
        new Vector(prefix + "GET", size, wire(size).u8(0x06).u8(255).raw(longestKey).bytes(), new Request.Get(longestKey)),
        new Vector(prefix + "STAT", size, wire(size).u8(0x09).u8(1).ascii("s").bytes(), new Request.Stat(ascii("s"))),
        new Vector(prefix + "SUBSCRIBE", size, wire(size).u8(0x11).u8(255).raw(longestKey).bytes(),
            new Request.Subscribe(longestKey)),
        new Vector(prefix + "UNSUBSCRIBE", size, wire(size).u8(0x12).u8(1).ascii("u").bytes(),
            new Request.Unsubscribe(ascii("u"))),
        new Vector(prefix + "CHANNEL", size, wire(size).u8(0x17).u8(0).bytes(), new Request.Channel(new byte[0])),
        new Vector(prefix + "PUBLISH", size,
            wire(size).u8(0x13).u8(255).n(payload.length).raw(longestKey).raw(payload).bytes(),
            new Request.Publish(longestKey, payload)),
        new Vector(prefix + "EVENT", size,
            wire(size).u8(0x19).u8(2).n(innerInsert.length).ascii("ch").raw(innerInsert).bytes(),
            new Request.Event(ascii("ch"), innerInsert, new Request.Insert(max, 4, 1, ascii("in")))),
        new Vector(prefix + "CONNECTION", size, wire(size).u8(0x15).raw(connectionId).bytes(),
            new Request.Connection(connectionId)),
        new Vector(prefix + "LIST", size, hex("07"), Request.Bare.LIST),
        new Vector(prefix + "INFO", size, hex("08"), Request.Bare.INFO),
        new Vector(prefix + "STATS", size, hex("10"), Request.Bare.STATS),
        new Vector(prefix + "CONNECTIONS", size, hex("14"), Request.Bare.CONNECTIONS),
        new Vector(prefix + "CHANNELS", size, hex("16"), Request.Bare.CHANNELS),
        new Vector(prefix + "WHOAMI", size, hex("18"), Request.Bare.WHOAMI));
  }

  /** Distinct-looking bytes {@code a b c … z a b …} of the given length. */
  static byte[] name(int length) {
    byte[] bytes = new byte[length];
    IntStream.range(0, length).forEach(i -> bytes[i] = (byte) ('a' + i % 26));
    return bytes;
  }

  private static CodecTestKit.Wire wire(ValueSize size) {
    return CodecTestKit.Wire.of(size);
  }

  private static Vector v(String name, ValueSize size, String wireHex, Request expected) {
    return new Vector(name, size, hex(wireHex), expected);
  }
}
