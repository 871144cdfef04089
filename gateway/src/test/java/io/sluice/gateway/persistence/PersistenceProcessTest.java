package io.sluice.gateway.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.protocol.binary.client.ThrottrClient;
import io.sluice.protocol.binary.client.ThrottrClientOptions;
import io.sluice.protocol.binary.client.UpdateAttribute;
import io.sluice.protocol.binary.client.UpdateChange;
import io.sluice.protocol.binary.codec.TtlUnit;
import io.sluice.protocol.binary.codec.response.Response;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

import java.time.Duration;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import static io.sluice.gateway.process.Waits.await;
import static io.sluice.gateway.process.Waits.until;

/**
 * {@code --data-dir} with Sluice in a child process: stopped with SIGTERM, killed with kill -9,
 * its files torn, damaged or of another version, and started again on them.
 */
class PersistenceProcessTest {

  /** The counters' TTL across a restart: long enough that none expires however slow the restart. */
  private static final long TTL_SECONDS = 600;

  @TempDir
  Path temp;

  private final Vertx vertx = Vertx.vertx();
  private final List<SluiceProcess> processes = new ArrayList<>();

  @AfterEach
  void tearDown() throws Exception {
    processes.forEach(SluiceProcess::close);
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  private SluiceProcess start(List<String> arguments, String... more) throws Exception {
    List<String> all = new ArrayList<>(arguments);
    all.addAll(List.of(more));
    SluiceProcess sluice = SluiceProcess.start(all.toArray(String[]::new));
    processes.add(sluice);
    return sluice;
  }

  @Test
  void aRestartAfterSigtermKeepsKeysQuotasTtlsCheckAndUdpStateDropsWhatExpiredAndCutsATornTail() throws Exception {
    Path dir = temp.resolve("data");
    // Every limit here outlasts the two restarts by far, however slowly a loaded machine stops and
    // starts a JVM: a limited client must stay limited because its state came back, not because the
    // restart was quick. A minute's window, a 60 s TTL or MusicBrainz's 22 per 20 s (whose decaying
    // rate forgets a burst of 60 after 21 s idle) would each fail it once the restarts took that long.
    Path config = Files.writeString(temp.resolve("sluice.yaml"),
        "policies:\n  three-an-hour:\n    strategy: fixed_window\n    limit: 3\n    window: 1h\n");
    Path rules = Files.writeString(temp.resolve("rules.yaml"),
        "rules:\n  - pattern: '^ws ip='\n    limit: 22\n    period: 3600\n    strict: true\n");
    List<String> arguments = List.of("--data-dir", dir.toString(), "--shards", "2", "--config", config.toString(),
        "--rules", rules.toString());

    SluiceProcess first = start(arguments);
    ThrottrClient client = connect(first);
    long writtenFrom = System.currentTimeMillis();
    List<Future<Boolean>> writes = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      writes.add(client.insert("k" + i, 100, TtlUnit.SECONDS, TTL_SECONDS));
      writes.add(client.update("k" + i, UpdateAttribute.QUOTA, UpdateChange.DECREASE, i % 50));
    }
    assertAllTrue(writes);
    assertThat(await(client.set("buffer", "hello".getBytes(StandardCharsets.US_ASCII), TtlUnit.SECONDS, TTL_SECONDS))).isTrue();
    assertThat(await(client.insert("brief", 1, TtlUnit.SECONDS, 1))).isTrue();
    long briefGoneAt = System.currentTimeMillis() + 1_000;
    for (int i = 0; i < 3; i++) {
      assertThat(check(first)).isEqualTo(200);
    }
    assertThat(check(first)).isEqualTo(429);
    String lastUdp = null;
    for (int i = 0; i < 60; i++) {
      lastUdp = overLimit(first);
    }
    assertThat(lastUdp).startsWith("ok Y ");
    first.stop();
    awaitWallClock(briefGoneAt);

    SluiceProcess second = start(arguments);
    client = connect(second);
    long sinceWritten = (System.currentTimeMillis() - writtenFrom) / 1000;
    List<Future<Response.QueryResult>> queries = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      queries.add(client.query("k" + i));
    }
    for (int i = 0; i < 200; i++) {
      Response.QueryResult counter = await(queries.get(i));
      assertThat(counter).as("k%d", i).isNotNull();
      assertThat(counter.quota()).isEqualTo(100 - i % 50);
      // TTL runs on across the restart: from each record's absolute expiry on the wall clock.
      assertThat(counter.ttl()).isBetween(TTL_SECONDS - sinceWritten - 2, TTL_SECONDS - 1);
    }
    assertThat(await(client.query("brief"))).as("expired while down").isNull();
    assertThat(new String(await(client.get("buffer")).value(), StandardCharsets.US_ASCII)).isEqualTo("hello");
    assertThat(check(second)).as("the check API's client stays limited").isEqualTo(429);
    assertThat(overLimit(second)).as("the UDP client stays limited").startsWith("ok Y ");
    second.stop();

    Path log = newestLog(dir);
    long whole = Files.size(log);
    try (FileChannel channel = FileChannel.open(log, StandardOpenOption.APPEND)) {
      ByteBuffer torn = ByteBuffer.allocate(22).order(ByteOrder.LITTLE_ENDIAN).putInt(100).putInt(~100).putInt(0);
      channel.write(torn.position(0));
    }
    SluiceProcess third = start(arguments);
    assertThat(third.output()).contains("WARN ", "torn tail of " + log, "at offset " + whole);
    assertThat(await(connect(third).query("k7")).quota()).isEqualTo(93);
    third.stop();
  }

  @Test
  void killNineKeepsEveryWriteOlderThanASecondWithEverysecAndEveryAcknowledgedOneWithAlways() throws Exception {
    List<String> arguments = List.of("--data-dir", temp.resolve("data").toString(), "--shards", "2");
    SluiceProcess everysec = start(arguments);
    ThrottrClient client = connect(everysec);
    insertAll(client, "e", 100);
    awaitWallClock(System.currentTimeMillis() + 1_100);
    everysec.kill();

    SluiceProcess always = start(arguments, "--fsync", "always");
    client = connect(always);
    assertAllPresent(client, "e", 100);
    insertAll(client, "a", 100);
    always.kill(); // at once: every insert was acknowledged, none may be lost

    SluiceProcess after = start(arguments);
    client = connect(after);
    assertAllPresent(client, "e", 100);
    assertAllPresent(client, "a", 100);
    after.stop();
  }

  @Test
  void damageInTheMiddleIsRefusedUnlessRecoveringAndAnotherFormatVersionGivesAClearError() throws Exception {
    Path dir = temp.resolve("data");
    List<String> arguments = List.of("--data-dir", dir.toString(), "--shards", "1");
    SluiceProcess first = start(arguments);
    ThrottrClient client = connect(first);
    insertAll(client, "early", 50);
    Path log = newestLog(dir);
    awaitLogGrowth(log);
    insertAll(client, "late", 50);
    first.stop();

    int offset = 32; // the first block, right after the file header
    flipByte(log, offset + 12 + 5);
    SluiceProcess.Refused refused = SluiceProcess.refusal(arguments.toArray(String[]::new));
    assertThat(refused.exitCode()).isEqualTo(1);
    assertThat(refused.output()).contains("ERROR io.sluice.gateway.Main: could not start: " + log + " at offset " + offset
        + ": a block checksum that does not match");

    SluiceProcess recovered = start(arguments, "--data-recover");
    assertThat(recovered.output()).contains("--data-recover: " + log + " at offset " + offset + ": dropped a block");
    client = connect(recovered);
    assertThat(await(client.query("early0"))).as("in the dropped block").isNull();
    assertAllPresent(client, "late", 50);
    // What recovery read only in part is replaced by a snapshot at once.
    awaitFile(dir, "shard-0000\\.\\d+\\.snapshot");
    recovered.stop();
    assertThat(log).doesNotExist();

    Path newest = newestLog(dir);
    setVersion(newest, 2);
    refused = SluiceProcess.refusal(arguments.toArray(String[]::new));
    assertThat(refused.exitCode()).isEqualTo(1);
    assertThat(refused.output()).contains(newest + " at offset 8: format version 2, this Sluice reads version 1 only");
  }

  @Test
  void aLogEmptiedOnDiskIsRefusedNamingItAndRecoveryStartsWithTheRestAndSaysWhatItWentWithout() throws Exception {
    Path dir = temp.resolve("data");
    List<String> arguments = List.of("--data-dir", dir.toString(), "--shards", "1");
    SluiceProcess first = start(arguments);
    insertAll(connect(first), "early", 50);
    first.stop();
    Path early = newestLog(dir);
    SluiceProcess second = start(arguments);
    insertAll(connect(second), "late", 50);
    second.stop();
    Files.write(early, new byte[0]);

    SluiceProcess.Refused refused = SluiceProcess.refusal(arguments.toArray(String[]::new));
    assertThat(refused.exitCode()).isEqualTo(1);
    assertThat(refused.output()).contains("ERROR io.sluice.gateway.Main: could not start: " + early
        + ": 0 bytes, shorter than the 32-byte header", "start with --data-recover");

    SluiceProcess recovered = start(arguments, "--data-recover");
    assertThat(recovered.output()).contains("WARN ", "--data-recover: " + early + ": 0 bytes",
        "loaded 50 keys of shard 0 without it");
    ThrottrClient client = connect(recovered);
    assertThat(await(client.query("early0"))).as("in the emptied log").isNull();
    assertAllPresent(client, "late", 50);
    // A snapshot replaces the broken chain at once: the next start needs no --data-recover.
    awaitFile(dir, "shard-0000\\.\\d+\\.snapshot");
    recovered.stop();
    assertAllPresent(connect(start(arguments)), "late", 50);
  }

  private static void assertAllTrue(List<Future<Boolean>> replies) throws Exception {
    for (Future<Boolean> reply : replies) {
      assertThat(await(reply)).isTrue();
    }
  }

  /** Inserts counters {@code prefix0} to {@code prefix(count-1)} in one pipeline; all must be created. */
  private static void insertAll(ThrottrClient client, String prefix, int count) throws Exception {
    List<Future<Boolean>> inserts = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      inserts.add(client.insert(prefix + i, 10, TtlUnit.SECONDS, 600));
    }
    assertAllTrue(inserts);
  }

  /** Keys {@code prefix0} to {@code prefix(count-1)} all exist, asked in one pipeline. */
  private static void assertAllPresent(ThrottrClient client, String prefix, int count) throws Exception {
    List<Future<Response.QueryResult>> queries = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      queries.add(client.query(prefix + i));
    }
    for (int i = 0; i < count; i++) {
      assertThat(await(queries.get(i))).as(prefix + i).isNotNull();
    }
  }

  private ThrottrClient connect(SluiceProcess sluice) throws Exception {
    return await(ThrottrClient.connect(vertx, new ThrottrClientOptions().setHost("127.0.0.1").setPort(sluice.tcpPort())));
  }

  private static int check(SluiceProcess sluice) throws Exception {
    HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + sluice.httpPort() + "/v1/check"))
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString("{\"policy\":\"three-an-hour\",\"key\":\"alice\"}"))
        .build();
    return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString()).statusCode();
  }

  private static String overLimit(SluiceProcess sluice) throws IOException {
    try (DatagramSocket udp = new DatagramSocket()) {
      udp.connect(new InetSocketAddress("127.0.0.1", sluice.udpPort()));
      udp.setSoTimeout(10_000);
      byte[] request = "over_limit ws ip=198.18.0.7".getBytes(StandardCharsets.US_ASCII);
      udp.send(new DatagramPacket(request, request.length));
      DatagramPacket reply = new DatagramPacket(new byte[512], 512);
      udp.receive(reply);
      return new String(reply.getData(), 0, reply.getLength(), StandardCharsets.US_ASCII);
    }
  }

  private static Path newestLog(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(p -> p.getFileName().toString().matches("shard-0000\\..*\\.log"))
          .max(Comparator.comparing(p -> p.getFileName().toString())).orElseThrow();
    }
  }

  /** Waits until the writer has put a first block in the log (it writes every 100 ms). */
  private static void awaitLogGrowth(Path log) throws Exception {
    until(Duration.ofSeconds(30), "the log grows", () -> Files.size(log) > 32);
  }

  /** Waits until a file whose name matches {@code regex} is in {@code dir}. */
  private static void awaitFile(Path dir, String regex) throws Exception {
    until(Duration.ofSeconds(30), "a file /" + regex + "/", () -> {
      try (Stream<Path> files = Files.list(dir)) {
        return files.anyMatch(p -> p.getFileName().toString().matches(regex));
      }
    });
  }



  /** Waits until the wall clock has passed {@code epochMillis} (a TTL runs out, a second goes by). */
  private static void awaitWallClock(long epochMillis) throws InterruptedException {
    while (System.currentTimeMillis() <= epochMillis) {
      Thread.sleep(Math.max(1, epochMillis - System.currentTimeMillis() + 1));
    }
  }

  private static void flipByte(Path file, long at) throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      ByteBuffer one = ByteBuffer.allocate(1);
      channel.read(one, at);
      one.put(0, (byte) (one.get(0) ^ 0x20));
      channel.write(one.position(0), at);
    }
  }

  /** Rewrites a data file's header version, with a matching header checksum. */
  private static void setVersion(Path file, int version) throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      ByteBuffer header = ByteBuffer.allocate(32).order(ByteOrder.LITTLE_ENDIAN);
      channel.read(header, 0);
      header.putShort(8, (short) version);
      CRC32C crc = new CRC32C();
      crc.update(header.array(), 0, 28);
      header.putInt(28, (int) crc.getValue());
      channel.write(header.position(0), 0);
    }
  }

}
