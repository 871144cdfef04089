package io.sluice.verticles.server.grpc;

import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse;
import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCalls;
import io.netty.handler.codec.http2.Http2Error;
import io.sluice.verticles.rls.RlsConfigSource;
import io.sluice.verticles.server.settings.Defences;
import io.sluice.verticles.server.listener.ConnectionLimits;
import io.sluice.verticles.server.kit.LogLines;
import io.sluice.verticles.server.kit.Poll;
import io.sluice.verticles.server.kit.RawHttp2;
import io.sluice.verticles.server.kit.SluiceUnderTest;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPOutputStream;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * One hostile client against the gRPC listener (issue 30), each over a real socket with a raw
 * HTTP/2 client, while a normal grpc-java client goes on being served: streams past the limit
 * refused whether or not the client acknowledged the SETTINGS, a gzip bomb, a compressed message
 * without an encoding or with an unknown one, rapid resets with reconnects, connections
 * counted by --max-connections, and a client that reads nothing held to --max-pending-bytes.
 */
class GrpcHostileClientTest {

  private static final String PATH = "/envoy.service.ratelimit.v3.RateLimitService/ShouldRateLimit";
  private static final byte[] REQUEST = RlsFixture.request("hostile", RlsFixture.descriptor("k", "v")).toByteArray();

  private static void served(ManagedChannel channel) {
    RateLimitResponse response = RlsFixture.call(channel, RlsFixture.request("normal", RlsFixture.descriptor("k", "v")));
    assertThat(response.getOverallCode()).isEqualTo(RateLimitResponse.Code.OK);
  }

  @Test
  void aClientThatNeverAcknowledgesSettingsGetsNoMoreThanTheStreamLimit() throws IOException {
    try (RlsFixture rls = new RlsFixture(); RawHttp2 hostile = new RawHttp2(rls.sut.grpcPort(), 0)) {
      int calls = 2_000;
      List<Integer> streams = new ArrayList<>();
      try {
        for (int i = 0; i < calls; i++) {
          streams.add(hostile.call(PATH, RawHttp2.message(false, REQUEST), true));
        }
      } catch (SocketException closedForTheRefusals) {
        // A refused stream's DATA closes the connection, which may come while the client still sends.
      }
      // A window of 0: no answer's DATA can leave, so every stream the server took stays open.
      hostile.readUntilClosedOr(() -> streams.stream().allMatch(stream -> hostile.answer(stream).headers.containsKey(":status")
          || hostile.answer(stream).reset >= 0));
      long taken = streams.stream().filter(stream -> hostile.answer(stream).headers.containsKey(":status")).count();
      long refused = streams.stream().filter(stream -> hostile.answer(stream).reset == Http2Error.REFUSED_STREAM.code()).count();
      assertThat(taken).as("streams the server took").isLessThanOrEqualTo(GrpcConnectionGuard.MAX_STREAMS);
      assertThat(refused).as("streams refused").isPositive();
      assertThat(refused >= calls - GrpcConnectionGuard.MAX_STREAMS || hostile.closedByServer())
          .as("every stream past the limit refused, unless the server closed the connection for the refusals").isTrue();
      served(rls.channel);
    }
  }

  @Test
  void aGzipBombIsResourceExhaustedAndGzipWithinTheLimitIsServed() throws IOException {
    byte[] bomb = gzip(new byte[60 * 1024 * 1024]);
    assertThat(bomb.length).as("under the 64 KiB message limit compressed").isLessThan(64 * 1024);
    try (RlsFixture rls = new RlsFixture(); RawHttp2 hostile = new RawHttp2(rls.sut.grpcPort(), 65_535)) {
      int stream = hostile.call(PATH, RawHttp2.message(true, bomb), true, "grpc-encoding", "gzip");
      hostile.readUntil("the bomb's answer", () -> hostile.answer(stream).answered());
      assertThat(hostile.answer(stream).headers.get("grpc-status")).isEqualTo("8");
      assertThat(hostile.answer(stream).headers.get("grpc-message")).contains("inflates to more than 65536 bytes");

      int small = hostile.call(PATH, RawHttp2.message(true, gzip(REQUEST)), true, "grpc-encoding", "gzip");
      hostile.readUntil("the small gzip call's answer", () -> hostile.answer(small).answered());
      assertThat(hostile.answer(small).headers.get("grpc-status")).isEqualTo("0");

      RateLimitResponse compressed = ClientCalls.blockingUnaryCall(rls.channel, RlsFixture.SHOULD_RATE_LIMIT,
          CallOptions.DEFAULT.withCompression("gzip").withDeadlineAfter(30, TimeUnit.SECONDS),
          RlsFixture.request("normal", RlsFixture.descriptor("k", "v")));
      assertThat(compressed.getOverallCode()).isEqualTo(RateLimitResponse.Code.OK);
      served(rls.channel);
    }
  }

  @Test
  void aCompressedMessageWithoutEncodingIsInternalAndAnUnknownEncodingUnimplemented() throws IOException {
    try (RlsFixture rls = new RlsFixture(); RawHttp2 hostile = new RawHttp2(rls.sut.grpcPort(), 65_535);
         LogLines log = new LogLines()) {
      int undeclared = hostile.call(PATH, RawHttp2.message(true, gzip(REQUEST)), true);
      int identity = hostile.call(PATH, RawHttp2.message(true, gzip(REQUEST)), true, "grpc-encoding", "identity");
      int brotli = hostile.call(PATH, RawHttp2.message(true, REQUEST), true, "grpc-encoding", "br");
      int deflate = hostile.call(PATH, RawHttp2.message(true, REQUEST), true, "grpc-encoding", "deflate");
      int plainUnderBr = hostile.call(PATH, RawHttp2.message(false, REQUEST), true, "grpc-encoding", "br");
      hostile.readUntil("five answers", () -> List.of(undeclared, identity, brotli, deflate, plainUnderBr).stream()
          .allMatch(stream -> hostile.answer(stream).answered()));

      assertThat(hostile.answer(undeclared).headers.get("grpc-status")).isEqualTo("13");
      assertThat(hostile.answer(undeclared).headers.get("grpc-message")).contains("no grpc-encoding");
      assertThat(hostile.answer(identity).headers.get("grpc-status")).isEqualTo("13");
      for (int stream : List.of(brotli, deflate)) {
        assertThat(hostile.answer(stream).headers.get("grpc-status")).isEqualTo("12");
        assertThat(hostile.answer(stream).headers.get("grpc-accept-encoding")).isEqualTo("gzip");
      }
      assertThat(hostile.answer(plainUnderBr).headers.get("grpc-status")).as("a message not compressed is read")
          .isEqualTo("0");
      served(rls.channel);
      assertThat(log.lines()).as("nothing logged for calls answered with a status").isEmpty();
    }
  }

  @Test
  void rapidResetsWithReconnectsLogLittle() throws IOException {
    try (RlsFixture rls = new RlsFixture(); LogLines log = new LogLines()) {
      for (int connection = 0; connection < 10; connection++) {
        try (RawHttp2 hostile = new RawHttp2(rls.sut.grpcPort(), 65_535)) {
          resetFlood(hostile, 300);
        }
        served(rls.channel);
      }
      long bytes = log.lines().stream().mapToLong(String::length).sum();
      assertThat(bytes).as("bytes logged for 3,000 resets on 10 connections").isLessThan(20_000);
    }
  }

  @Test
  void grpcConnectionsCountInMaxConnections() throws IOException {
    Vertx vertx = Vertx.vertx();
    SluiceUnderTest sut = new SluiceUnderTest(vertx, SluiceUnderTest.defaults()
        .withRls(new RlsSettings("127.0.0.1", 0, RlsConfigSource.none(), false))
        .withDefences(Defences.defaults().withMaxConnections(2)));
    ManagedChannel normal = RlsFixture.channel(sut.grpcPort());
    try (RawHttp2 first = new RawHttp2(sut.grpcPort(), 65_535); RawHttp2 second = new RawHttp2(sut.grpcPort(), 65_535)) {
      int one = first.call(PATH, RawHttp2.message(false, REQUEST), true);
      int two = second.call(PATH, RawHttp2.message(false, REQUEST), true);
      first.readUntil("the first connection is served", () -> first.answer(one).answered());
      second.readUntil("the second connection is served", () -> second.answer(two).answered());

      try (RawHttp2 third = new RawHttp2(sut.grpcPort(), 65_535)) {
        int three = third.call(PATH, RawHttp2.message(false, REQUEST), true);
        third.readUntilClosed();
        assertThat(third.answer(three).headers).as("the third connection is not served").doesNotContainKey("grpc-status");
      }
      assertThat(sut.metrics().get("sluice.connections.rejected").counter().count()).isEqualTo(1);
      assertThatThrownBy(() -> served(normal)).isInstanceOf(StatusRuntimeException.class);

      first.close();
      Poll.until("a place is free again", () -> {
        try {
          served(normal);
          return true;
        } catch (StatusRuntimeException stillFull) {
          return false;
        }
      });
    } finally {
      normal.shutdownNow();
      sut.close();
      await(vertx.close());
    }
  }

  @Test
  void aClientThatReadsNothingIsNoLongerReadFromPastMaxPendingBytes() throws IOException {
    int bound = 64 * 1024;
    // 30 KB a call: without the bound, its 100 streams would hold 3 MB.
    byte[] large = RlsFixture.request("hostile", RlsFixture.descriptor("k", "v".repeat(30_000))).toByteArray();
    // What Netty reads at once (64 KiB) may bring calls past the bound before reading stops, and one call more.
    long oneRead = 64 * 1024 + large.length + 5 + GrpcAnswer.FRAMES_ALLOWANCE;
    Vertx vertx = Vertx.vertx();
    SluiceUnderTest sut = new SluiceUnderTest(vertx, SluiceUnderTest.defaults()
        .withRls(new RlsSettings("127.0.0.1", 0, RlsConfigSource.none(), false))
        .withLimits(ConnectionLimits.defaults().withMaxPendingBytes(bound)));
    ManagedChannel normal = RlsFixture.channel(sut.grpcPort());
    try {
      // A window of 0: no answer can leave, so every call read stays held.
      try (RawHttp2 hostile = new RawHttp2(sut.grpcPort(), 0)) {
        long sent = hostile.callsUntilBlocked(PATH, RawHttp2.message(false, large), 256L << 20, 2_000);
        assertThat(sent).as("bytes the client sent before its writes blocked").isGreaterThan(bound);
        // The server may still be handling what it read when the client's writes stop.
        Poll.until("the connection held past the bound", () -> gauge(sut, "sluice.grpc.pending.bytes.peak") > bound);
        assertThat(gauge(sut, "sluice.grpc.pending.bytes.peak")).as("the most the connection held")
            .isLessThanOrEqualTo(bound + oneRead);
        served(normal);
      }
      Poll.until("the closed connection's calls released", () -> gauge(sut, "sluice.grpc.pending.bytes") == 0);
      served(normal);
    } finally {
      normal.shutdownNow();
      sut.close();
      await(vertx.close());
    }
  }

  private static double gauge(SluiceUnderTest sut, String name) {
    return sut.metrics().get(name).gauge().value();
  }

  /**
   * HEADERS then RST_STREAM, {@code streams} times, then one whole call, and reads until it is
   * answered or the server closes the connection (which it may do for the flood, even mid-way).
   */
  private static void resetFlood(RawHttp2 hostile, int streams) throws IOException {
    try {
      for (int i = 0; i < streams; i++) {
        hostile.cancel(hostile.call(PATH, RawHttp2.message(false, REQUEST), false));
      }
      int whole = hostile.call(PATH, RawHttp2.message(false, REQUEST), true);
      hostile.readUntilClosedOr(() -> hostile.answer(whole).answered() || hostile.goAway());
    } catch (SocketException closedForTheFlood) {
      hostile.readUntilClosed();
    }
  }

  private static byte[] gzip(byte[] bytes) throws IOException {
    ByteArrayOutputStream compressed = new ByteArrayOutputStream();
    try (GZIPOutputStream out = new GZIPOutputStream(compressed)) {
      out.write(bytes);
    }
    return compressed.toByteArray();
  }
}
