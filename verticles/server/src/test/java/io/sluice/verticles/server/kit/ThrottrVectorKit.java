package io.sluice.verticles.server.kit;

import io.sluice.protocol.binary.codec.ValueSize;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The test vectors of spec §9, replayed byte for byte against a running Sluice through one front.
 * Every front that speaks Throttr frames extends this kit with its own {@link #open}.
 *
 * <p>The server runs on a hand-moved clock, so the time that passes between requests is stated:
 * where the reference capture shows a TTL of {@code ttl − 1} "shortly after", the step advances the
 * clock by a millisecond first. Where Sluice deliberately differs from the reference's defects (exact
 * expiry, closing on bad input), the expectation is Sluice's and says so.
 */
public abstract class ThrottrVectorKit {

  protected Vertx vertx;
  private final List<SluiceUnderTest> servers = new ArrayList<>();
  private SluiceUnderTest sut;
  private Conversation conversation;

  /** Opens one client connection to the server through the front under test. */
  protected abstract Conversation open(SluiceUnderTest sut);

  @BeforeEach
  void startVertx() {
    vertx = Vertx.vertx();
  }

  @AfterEach
  void stopVertx() {
    servers.forEach(SluiceUnderTest::close);
    await(vertx.close());
  }

  /** Starts the Sluice the vectors run against (a single node unless a subclass says otherwise). */
  protected SluiceUnderTest startServer(ValueSize size) {
    return new SluiceUnderTest(vertx, SluiceUnderTest.defaults().withValueSize(size));
  }

  private Conversation serve(ValueSize size) {
    sut = startServer(size);
    servers.add(sut);
    conversation = open(sut);
    return conversation;
  }

  private void expect(String request, String response) {
    expect(conversation, request, response);
  }

  protected static void expect(Conversation on, String request, String response) {
    byte[] expected = Hex.bytes(response);
    await(on.send(Hex.bytes(request)));
    byte[] actual = await(on.receive(expected.length));
    assertThat(Hex.of(actual)).as("reply to %s", request).isEqualTo(Hex.of(expected));
  }

  private void advanceMillis(long millis) {
    sut.advance(Duration.ofMillis(millis));
  }

  /** Nothing more than what the vectors expected arrived: the stream is in step. */
  private void assertInStep() {
    await(conversation.send(Hex.bytes("18")));
    byte[] whoami = await(conversation.receive(17));
    assertThat(whoami[0]).isEqualTo((byte) 1);
    assertThat(conversation.unread()).isZero();
  }

  @Test
  void continuousSessionOfRowsOneToThirtyTwo() {
    serve(ValueSize.UINT16);
    expect("01 0a 00 04 3c 00 03 61 62 63", "01");
    expect("01 0a 00 04 3c 00 03 61 62 63", "00");
    advanceMillis(1);
    expect("02 03 61 62 63", "01 0a 00 04 3b 00");
    expect("02 03 7a 7a 7a", "00");
    expect("03 00 02 04 00 03 61 62 63", "01");
    expect("03 00 02 07 00 03 61 62 63", "00");
    expect("03 00 02 06 00 03 61 62 63", "01");
    expect("03 00 00 ff ff 03 61 62 63", "01");
    expect("03 00 01 02 00 03 61 62 63", "01");
    advanceMillis(2000);
    expect("02 03 61 62 63", "01 01 00 04 39 00");
    expect("03 01 00 78 00 03 61 62 63", "01");
    advanceMillis(1);
    expect("02 03 61 62 63", "01 01 00 04 77 00");
    expect("03 01 01 0a 00 03 61 62 63", "01");
    expect("02 03 61 62 63", "01 01 00 04 81 00");
    expect("03 01 02 64 00 03 61 62 63", "01");
    advanceMillis(1000);
    expect("02 03 61 62 63", "01 01 00 04 1c 00");
    expect("03 02 00 01 00 03 61 62 63", "00");
    expect("03 00 03 01 00 03 61 62 63", "01");
    expect("05 04 1e 00 03 04 00 62 75 66 45 48 4c 4f", "01");
    advanceMillis(1);
    expect("06 03 62 75 66", "01 04 1d 00 04 00 45 48 4c 4f");
    expect("05 05 3c 00 03 06 00 62 75 66 48 45 4c 4c 4f 21", "01");
    advanceMillis(1);
    expect("06 03 62 75 66", "01 05 3b 00 06 00 48 45 4c 4c 4f 21");
    expect("02 03 62 75 66", "01 00 00 05 3b 00");
    advanceMillis(3000);
    expect("06 03 61 62 63", "01 04 19 00 00 00");
    expect("03 00 01 05 00 03 62 75 66", "00");
    expect("03 01 00 0a 00 03 62 75 66", "01");
    advanceMillis(1);
    expect("06 03 62 75 66", "01 05 09 00 06 00 48 45 4c 4c 4f 21");
    expect("05 04 1e 00 03 01 00 61 62 63 58", "00");
    expect("01 01 00 04 1e 00 03 62 75 66", "00");
    expect("04 03 61 62 63", "01");
    expect("04 03 61 62 63", "00");
    expect("02 03 61 62 63", "00");
    expect("09 03 62 75 66", "01 00×32");
    expect("09 04 6e 6f 70 65", "00");
    await(conversation.send(Hex.bytes("18")));
    byte[] whoami = await(conversation.receive(17));
    assertThat(whoami[0]).isEqualTo((byte) 1);
    assertThat(whoami[7] & 0xf0).as("UUID version 4").isEqualTo(0x40);
    assertThat(whoami[9] & 0xc0).as("RFC 4122 variant").isEqualTo(0x80);
    expect("01 03 00 03 dc 05 02 6d 73", "01");
    advanceMillis(301);
    expect("02 02 6d 73", "01 03 00 03 af 04");
    expect("01 03 00 06 02 00 01 68", "01");
    advanceMillis(1);
    expect("02 01 68", "01 03 00 06 01 00");
    expect("01 03 00 00 02 00 03 74 74 30", "01");
    advanceMillis(1);
    expect("02 03 74 74 30", "01 03 00 00 01 00");
    expect("01 03 00 04 00 00 04 7a 65 72 6f", "01");
    expect("02 04 7a 65 72 6f", "00");
    expect("01 03 00 04 05 00 00", "01");
    advanceMillis(1);
    expect("02 00", "01 03 00 04 04 00");
    assertInStep();
  }

  /** Row 33; no time passes between the writes here, so the TTL reads a whole 60 s. */
  @Test
  void pipelinedRequestsAreAnsweredInOrder() {
    serve(ValueSize.UINT16);
    expect("01 01 00 04 3c 00 02 70 31 01 01 00 04 3c 00 02 70 32 02 02 70 31 04 02 70 32",
        "01 01 01 01 00 04 3c 00 01");
    assertInStep();
  }

  /** Row 34: a frame split across writes is answered once complete. */
  @Test
  void splitFrameIsAnsweredWhenComplete() {
    serve(ValueSize.UINT16);
    await(conversation.send(Hex.bytes("01 07 00")));
    expect("04 3c 00 05 73 70 6c 69 74", "01");
    assertInStep();
  }

  /** Row 35, the intended behaviour: expiry is exact and the key can be inserted again at once. */
  @Test
  void expiredKeyIsAbsentAndCanBeInsertedAgain() {
    serve(ValueSize.UINT16);
    expect("01 05 00 04 01 00 01 41", "01");
    advanceMillis(999);
    expect("02 01 41", "01 05 00 04 00 00");
    advanceMillis(1);
    expect("02 01 41", "00");
    expect("01 05 00 04 3c 00 01 41", "01");
  }

  /** Row 36 without the reference's timer-replacement defect: S expires on time. */
  @Test
  void everyRecordExpiresOnTimeWhateverTheInsertOrder() {
    serve(ValueSize.UINT16);
    expect("01 05 00 04 3c 00 01 4c", "01");
    expect("01 05 00 04 02 00 01 53", "01");
    expect("01 05 00 04 1e 00 01 4d", "01");
    advanceMillis(3000);
    expect("02 01 53", "00");
    expect("02 01 4d", "01 05 00 04 1b 00");
  }

  /** Row 57: a TTL past the N-byte range is echoed modulo 2^(8N). */
  @Test
  void remainingTtlWrapsModuloTheValueSize() {
    serve(ValueSize.UINT16);
    expect("01 01 00 04 e8 fd 03 62 69 67", "01");
    expect("03 01 01 e8 03 03 62 69 67", "01");
    advanceMillis(1);
    expect("02 03 62 69 67", "01 01 00 04 cf 01");
  }

  /** Row 58, the intended behaviour: a TTL decreased into the past has expired. */
  @Test
  void ttlDecreasedIntoThePastHasExpired() {
    serve(ValueSize.UINT16);
    expect("01 01 00 04 64 00 03 64 65 63", "01");
    expect("03 01 02 c8 00 03 64 65 63", "01");
    expect("02 03 64 65 63", "00");
  }

  /** Row 49. */
  @Test
  void listAndStatsOfAnEmptyStore() {
    serve(ValueSize.UINT16);
    expect("07", "01 00×8");
    expect("10", "01 00×8");
  }

  /** §3.1's example: a buffer in minutes and a counter in hours, with exact expiry time points. */
  @Test
  void listDescribesEveryLiveRecord() {
    serve(ValueSize.UINT16);
    expect("05 05 3c 00 01 06 00 62 48 45 4c 4c 4f 21", "01");
    expect("01 03 00 06 02 00 01 68", "01");
    long now = sut.clock().epochNanos();
    List<String> items = list(11 + 2);
    assertThat(items).containsExactlyInAnyOrder(
        Hex.of(Hex.bytes("01 01 05")) + " " + Hex.of(le(now + 3_600_000_000_000L)) + " 06 00 62",
        Hex.of(Hex.bytes("01 00 06")) + " " + Hex.of(le(now + 7_200_000_000_000L)) + " 02 00 68");
  }

  /** Rows U8-1 to U8-6. */
  @Test
  void uint8Server() {
    serve(ValueSize.UINT8);
    expect("01 0a 04 3c 03 61 62 63", "01");
    advanceMillis(1);
    expect("02 03 61 62 63", "01 0a 04 3b");
    expect("03 00 02 03 03 61 62 63", "01");
    expect("02 03 61 62 63", "01 07 04 3b");
    expect("05 04 1e 01 04 6b 45 48 4c 4f", "01");
    advanceMillis(1);
    expect("06 01 6b", "01 04 1d 04 45 48 4c 4f");
    long now = sut.clock().epochNanos();
    List<String> items = list(12);
    assertThat(items).containsExactlyInAnyOrder(
        "03 00 04 " + Hex.of(le(now + 60_000_000_000L - 2_000_000L)) + " 01 61 62 63",
        "01 01 04 " + Hex.of(le(now + 30_000_000_000L - 1_000_000L)) + " 04 6b");
  }

  /** Rows U32-1 to U32-4 and U32-6. */
  @Test
  void uint32Server() {
    serve(ValueSize.UINT32);
    expect("01 0a 00 00 00 04 3c 00 00 00 03 61 62 63", "01");
    advanceMillis(1);
    expect("02 03 61 62 63", "01 0a 00 00 00 04 3b 00 00 00");
    expect("03 00 02 03 00 00 00 03 61 62 63", "01");
    expect("02 03 61 62 63", "01 07 00 00 00 04 3b 00 00 00");
    expect("05 04 1e 00 00 00 01 04 00 00 00 6b 45 48 4c 4f", "01");
    advanceMillis(1);
    expect("06 01 6b", "01 04 1d 00 00 00 04 00 00 00 45 48 4c 4f");
    List<String> items = list(15);
    assertThat(items).hasSize(2);
    assertThat(items).anySatisfy(item -> assertThat(item).startsWith("03 00 04").endsWith("04 00 00 00 61 62 63"));
    assertThat(items).anySatisfy(item -> assertThat(item).startsWith("01 01 04").endsWith("04 00 00 00 6b"));
  }

  /** Rows 51–53. */
  @Test
  void eventRunsTheRequestItCarries() {
    serve(ValueSize.UINT16);
    expect("19 04 09 00 63 68 61 6e 01 03 00 04 3c 00 02 65 76", "01 01");
    advanceMillis(1);
    expect("19 00 04 00 02 02 65 76", "01 01 03 00 04 3b 00");
    expect("19 01 02 00 63 0a 00", "01 00");
    assertInStep();
  }

  /** Row 50: 433 bytes ending with the NUL-padded version. */
  @Test
  void infoIs433Bytes() {
    serve(ValueSize.UINT16);
    expect("01 0a 00 04 3c 00 03 61 62 63", "01");
    await(conversation.send(Hex.bytes("08")));
    byte[] info = await(conversation.receive(433));
    ByteBuffer fields = ByteBuffer.wrap(info).order(ByteOrder.LITTLE_ENDIAN);
    assertThat(info[0]).isEqualTo((byte) 1);
    assertThat(fields.getLong(25)).as("INSERT total").isEqualTo(1);
    assertThat(fields.getLong(137)).as("INFO total").isEqualTo(1);
    assertThat(fields.getLong(345)).as("keys").isEqualTo(1);
    assertThat(fields.getLong(353)).as("counters").isEqualTo(1);
    assertThat(fields.getLong(369)).as("bytes on counters").isEqualTo(2);
    assertThat(fields.getLong(409)).as("connections").isEqualTo(1);
    assertThat(new String(info, 417, 16, java.nio.charset.StandardCharsets.US_ASCII))
        .isEqualTo(SluiceUnderTest.VERSION + "\0".repeat(16 - SluiceUnderTest.VERSION.length()));
    assertInStep();
  }

  /** Rows 54–55, Sluice's answer: the connection is closed, and the server serves everyone else. */
  @ParameterizedTest
  @ValueSource(strings = {"00", "0a", "0f", "1a", "1f", "20", "ff"})
  void unknownTypeClosesOnlyThatConnection(String type) {
    serve(ValueSize.UINT16);
    Conversation bystander = open(sut);
    await(conversation.send(Hex.bytes(type + " 02 01 78 18")));
    await(conversation.closed());
    assertThat(conversation.unread()).isZero();
    expect(bystander, "01 0a 00 04 3c 00 03 61 62 63", "01");
  }

  /** Row 56: a frame over the maximum closes the connection as soon as its header is read. */
  @Test
  void oversizedFrameClosesTheConnection() {
    serve(ValueSize.UINT16);
    await(conversation.send(Hex.bytes("05 04 3c 00 03 99 1f 62 69 67")));
    await(conversation.closed());
    assertThat(conversation.unread()).isZero();
  }

  /** §1.6: a frame of exactly the maximum (8096 bytes) is served. */
  @Test
  void frameOfExactlyTheMaximumIsServed() {
    serve(ValueSize.UINT16);
    int valueLength = 8096 - 7 - 3;
    byte[] frame = new byte[8096];
    System.arraycopy(Hex.bytes("05 04 3c 00 03"), 0, frame, 0, 5);
    frame[5] = (byte) valueLength;
    frame[6] = (byte) (valueLength >> 8);
    System.arraycopy(Hex.bytes("62 69 67"), 0, frame, 7, 3);
    await(conversation.send(frame));
    assertThat(await(conversation.receive(1))).containsExactly(1);
    assertInStep();
  }

  /** Rows 44–46: this connection as CONNECTIONS and CONNECTION describe it. */
  @Test
  void connectionsDescribeThisConnection() {
    serve(ValueSize.UINT16);
    await(conversation.send(Hex.bytes("18")));
    byte[] id = java.util.Arrays.copyOfRange(await(conversation.receive(17)), 1, 17);
    expect("15 00×16", "00");
    await(conversation.send(Hex.bytes("14")));
    byte[] listing = await(conversation.receive(1 + 8 + 16 + 237));
    ByteBuffer fields = ByteBuffer.wrap(listing).order(ByteOrder.LITTLE_ENDIAN);
    assertThat(fields.getLong(1)).as("fragments").isEqualTo(1);
    assertThat(fields.getLong(17)).as("connections").isEqualTo(1);
    byte[] item = java.util.Arrays.copyOfRange(listing, 25, 25 + 237);
    assertThat(java.util.Arrays.copyOfRange(item, 0, 16)).isEqualTo(id);
    assertThat(Hex.of(java.util.Arrays.copyOfRange(item, 16, 35)))
        .isEqualTo("00 00 04 " + Hex.of(Hex.bytes("31 32 37 2e 30 2e 30 2e 31 00×7")));
    ByteBuffer itemFields = ByteBuffer.wrap(item).order(ByteOrder.LITTLE_ENDIAN);
    assertThat(itemFields.getShort(35) & 0xffff).as("port").isEqualTo(localPort(conversation));
    assertThat(itemFields.getLong(37)).as("connected at").isPositive();
    assertThat(itemFields.getLong(45)).as("read bytes").isEqualTo(1 + 17 + 1);
    assertThat(itemFields.getLong(93 + 14 * 8)).as("CONNECTION requests").isEqualTo(1);
    assertThat(itemFields.getLong(93 + 13 * 8)).as("CONNECTIONS requests, this one included").isEqualTo(1);
    assertThat(itemFields.getLong(93 + 17 * 8)).as("WHOAMI requests").isEqualTo(1);
    await(conversation.send(Hex.bytes("15 " + Hex.of(id))));
    byte[] one = await(conversation.receive(238));
    assertThat(one[0]).isEqualTo((byte) 1);
    assertThat(java.util.Arrays.copyOfRange(one, 1, 17)).isEqualTo(id);
  }

  private byte[] whoami(Conversation on) {
    await(on.send(Hex.bytes("18")));
    return java.util.Arrays.copyOfRange(await(on.receive(17)), 1, 17);
  }

  /** Rows 37–38: SUBSCRIBE is a multiset; the publisher's own pushes come before its status byte. */
  @Test
  void publisherReceivesItsOwnPushesBeforeItsStatus() {
    serve(ValueSize.UINT16);
    Conversation b = open(sut);
    expect("11 04 6e 65 77 73", "01");
    expect("11 04 6e 65 77 73", "01");
    expect(b, "11 04 6e 65 77 73", "01");
    expect("13 04 02 00 6e 65 77 73 42 43",
        "19 04 02 00 6e 65 77 73 42 43 19 04 02 00 6e 65 77 73 42 43 01");
    assertThat(Hex.of(await(b.receive(10)))).isEqualTo("19 04 02 00 6e 65 77 73 42 43");
    expect("13 06 01 00 6e 6f 62 6f 64 79 01", "00");
    assertInStep();
  }

  /** Rows 40–41: every connection is in "*" and in its own ID channel. */
  @Test
  void broadcastAndDirectMessages() {
    serve(ValueSize.UINT16);
    Conversation b = open(sut);
    String bId = java.util.HexFormat.of().formatHex(whoami(b));
    expect("13 01 03 00 2a 61 6c 6c", "19 01 03 00 2a 61 6c 6c 01");
    assertThat(Hex.of(await(b.receive(8)))).isEqualTo("19 01 03 00 2a 61 6c 6c");
    String idHex = Hex.of(bId.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    expect("13 20 02 00 " + idHex + " 68 69", "01");
    assertThat(Hex.of(await(b.receive(2 + 2 + 32 + 2)))).isEqualTo("19 20 02 00 " + idHex + " 68 69");
    assertInStep();
  }

  /** Rows 42–43 and 47: UNSUBSCRIBE answers 00 when this connection holds no record; CHANNEL lists records. */
  @Test
  void unsubscribeAndChannelSubscribers() {
    serve(ValueSize.UINT16);
    Conversation b = open(sut);
    byte[] bId = whoami(b);
    expect("11 04 6e 65 77 73", "01");
    expect(b, "11 04 6e 65 77 73", "01");
    long subscribedAt = sut.clock().epochNanos();
    expect("13 04 02 00 6e 65 77 73 42 43", "19 04 02 00 6e 65 77 73 42 43 01");
    await(b.receive(10));
    expect("12 04 6e 65 77 73", "01");
    expect("12 04 6e 65 77 73", "00");
    expect(b, "12 02 6e 6f", "00");
    expect("17 04 6e 65 77 73",
        "01 01 00×7 " + Hex.of(bId) + " " + Hex.of(le(subscribedAt)) + " 02 00×7 00×8");
    expect("17 04 6e 6f 70 65", "00");
  }

  /** Row 48: a fresh connection sees "*" and its own ID channel, in byte order. */
  @Test
  void channelsOfAFreshConnection() {
    serve(ValueSize.UINT16);
    String idHex = Hex.of(java.util.HexFormat.of().formatHex(whoami(conversation))
        .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    expect("16", "01 01 00×7 01 00×7 02 00×7 01 00×16 01 00×7 20 00×16 01 00×7 2a " + idHex);
    await(conversation.send(Hex.bytes("08")));
    ByteBuffer info = ByteBuffer.wrap(await(conversation.receive(433))).order(ByteOrder.LITTLE_ENDIAN);
    assertThat(info.getLong(385)).as("subscriptions").isEqualTo(2);
    assertThat(info.getLong(393)).as("channels").isEqualTo(2);
  }

  /** Rows U8-5 and U32-5: the N-byte payload length of a push. */
  @ParameterizedTest
  @org.junit.jupiter.params.provider.CsvSource({
      "UINT8, 13 01 02 2a 68 69, 19 01 02 2a 68 69 01",
      "UINT32, 13 01 02 00 00 00 2a 68 69, 19 01 02 00 00 00 2a 68 69 01"})
  void pushLayoutFollowsTheValueSize(ValueSize size, String publish, String reply) {
    serve(size);
    expect(publish, reply);
  }

  /** The client's local port, as the server sees it; fronts without one (WebSocket) skip that check. */
  protected abstract int localPort(Conversation conversation);

  private List<String> list(int headerSize) {
    await(conversation.send(Hex.bytes("07")));
    return ListingItems.receive(conversation, headerSize);
  }

  private static byte[] le(long value) {
    return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(value).array();
  }
}
