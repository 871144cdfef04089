package io.sluice.verticles.server.grpc;

import io.envoyproxy.envoy.extensions.common.ratelimit.v3.RateLimitDescriptor;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitRequest;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse;
import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.protobuf.ProtoUtils;
import io.grpc.stub.ClientCalls;
import io.sluice.protocol.binary.client.ThrottrClient;
import io.sluice.protocol.binary.client.ThrottrClientOptions;
import io.sluice.protocol.binary.codec.response.Response;
import io.sluice.verticles.rls.RlsConfigSource;
import io.sluice.verticles.server.kit.HttpCalls;
import io.sluice.verticles.server.kit.SluiceUnderTest;
import io.vertx.core.Vertx;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;

/**
 * A Sluice serving Envoy's rate limit service on a hand-moved clock, with the config files of a
 * test in a directory of its own; grpc-java as the independent client (the method descriptor built
 * by hand from the generated messages: no stubs), and a Throttr client to look at the counters.
 */
public final class RlsFixture implements AutoCloseable {

  /** The ManualClock's start, 2026-01-01T00:00:00Z, in epoch seconds. */
  static final long T0_SECONDS = 1_767_225_600L;

  static final MethodDescriptor<RateLimitRequest, RateLimitResponse> SHOULD_RATE_LIMIT =
      MethodDescriptor.<RateLimitRequest, RateLimitResponse>newBuilder()
          .setType(MethodDescriptor.MethodType.UNARY)
          .setFullMethodName(MethodDescriptor.generateFullMethodName(
              "envoy.service.ratelimit.v3.RateLimitService", "ShouldRateLimit"))
          .setRequestMarshaller(ProtoUtils.marshaller(RateLimitRequest.getDefaultInstance()))
          .setResponseMarshaller(ProtoUtils.marshaller(RateLimitResponse.getDefaultInstance()))
          .build();

  final Vertx vertx = Vertx.vertx();
  final Path configDir;
  final SluiceUnderTest sut;
  final ManagedChannel channel;
  private HttpCalls http;
  private ThrottrClient throttr;

  /** @param files alternately a file name and its YAML text */
  RlsFixture(boolean responseHeaders, String... files) {
    this(settings -> settings.withResponseHeaders(responseHeaders), files);
  }

  /**
   * @param behaviour    the headers, near-limit ratio and global shadow mode
   * @param mergeDomains whether files may share a domain (MERGE_DOMAIN_CONFIG)
   * @param files        alternately a file name and its YAML text
   */
  RlsFixture(io.sluice.verticles.rls.RlsBehaviour behaviour, boolean mergeDomains, String... files) {
    this(settings -> settings.withBehaviour(behaviour), mergeDomains, files);
  }

  /**
   * @param settings what the test sets in the service's settings
   * @param files    alternately a file name and its YAML text
   */
  RlsFixture(java.util.function.UnaryOperator<RlsSettings> settings, String... files) {
    this(settings, false, files);
  }

  /**
   * @param settings     what the test sets in the service's settings
   * @param mergeDomains whether files may share a domain (MERGE_DOMAIN_CONFIG)
   * @param files        alternately a file name and its YAML text
   */
  RlsFixture(java.util.function.UnaryOperator<RlsSettings> settings, boolean mergeDomains, String... files) {
    try {
      configDir = Files.createTempDirectory("rls-config");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    for (int i = 0; i < files.length; i += 2) {
      write(files[i], files[i + 1]);
    }
    RlsConfigSource config;
    try {
      config = RlsConfigSource.load(configDir, mergeDomains);
    } catch (Exception e) {
      throw new AssertionError("the test's config was refused: " + e.getMessage(), e);
    }
    sut = new SluiceUnderTest(vertx,
        SluiceUnderTest.defaults().withRls(settings.apply(new RlsSettings("127.0.0.1", 0, config, false))));
    channel = channel(sut.grpcPort());
  }

  RlsFixture(String... files) {
    this(false, files);
  }

  public static ManagedChannel channel(int port) {
    return NettyChannelBuilder.forAddress("127.0.0.1", port).usePlaintext().build();
  }

  /** A channel whose connection leaves from {@code localAddress}, e.g. another loopback address than 127.0.0.1. */
  public static ManagedChannel channel(int port, String localAddress) {
    return NettyChannelBuilder.forAddress("127.0.0.1", port).usePlaintext()
        .localSocketPicker(new NettyChannelBuilder.LocalSocketPicker() {
          @Override
          public java.net.SocketAddress createSocketAddress(java.net.SocketAddress remote,
                                                            io.grpc.Attributes attributes) {
            return new java.net.InetSocketAddress(localAddress, 0);
          }
        }).build();
  }

  /** Writes a config file whole (a rename), so the watcher never reads it half written. */
  void write(String name, String yaml) {
    try {
      Path partial = Files.writeString(configDir.resolve("." + name + ".partial"), yaml, StandardCharsets.UTF_8);
      Files.move(partial, configDir.resolve(name), java.nio.file.StandardCopyOption.ATOMIC_MOVE,
          java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  RateLimitResponse call(RateLimitRequest request) {
    return call(channel, request);
  }

  public static RateLimitResponse call(ManagedChannel channel, RateLimitRequest request) {
    return ClientCalls.blockingUnaryCall(channel, SHOULD_RATE_LIMIT,
        CallOptions.DEFAULT.withDeadlineAfter(30, TimeUnit.SECONDS), request);
  }

  /** A request of one domain and these descriptors. */
  public static RateLimitRequest request(String domain, RateLimitDescriptor... descriptors) {
    return RateLimitRequest.newBuilder().setDomain(domain).addAllDescriptors(Arrays.asList(descriptors)).build();
  }

  /** A descriptor from key, value, key, value… */
  public static RateLimitDescriptor descriptor(String... keysAndValues) {
    RateLimitDescriptor.Builder descriptor = RateLimitDescriptor.newBuilder();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      descriptor.addEntries(RateLimitDescriptor.Entry.newBuilder().setKey(keysAndValues[i]).setValue(keysAndValues[i + 1]));
    }
    return descriptor.build();
  }

  /** The same descriptor adding {@code hits} of its own. */
  static RateLimitDescriptor withHits(RateLimitDescriptor descriptor, long hits) {
    return descriptor.toBuilder().setHitsAddend(com.google.protobuf.UInt64Value.of(hits)).build();
  }

  /**
   * {@code clients} clients, each on its own connection and thread, make {@code callsEach} calls
   * of {@code request} at once; answers how many were OK in all.
   */
  int grantedToConcurrentClients(int clients, int callsEach, RateLimitRequest request) throws Exception {
    List<ManagedChannel> channels = new ArrayList<>();
    ExecutorService pool = Executors.newFixedThreadPool(clients);
    try {
      List<Future<Integer>> granted = new ArrayList<>();
      for (int c = 0; c < clients; c++) {
        ManagedChannel client = channel(sut.grpcPort());
        channels.add(client);
        granted.add(pool.submit(() -> {
          int ok = 0;
          for (int i = 0; i < callsEach; i++) {
            if (call(client, request).getOverallCode() == RateLimitResponse.Code.OK) {
              ok++;
            }
          }
          return ok;
        }));
      }
      int total = 0;
      for (Future<Integer> client : granted) {
        total += client.get(60, TimeUnit.SECONDS);
      }
      return total;
    } finally {
      pool.shutdownNow();
      channels.forEach(ManagedChannel::shutdownNow);
    }
  }

  HttpCalls http() {
    if (http == null) {
      http = new HttpCalls(vertx, sut.httpPort());
    }
    return http;
  }

  /** Stores any bytes under a key, as a Throttr client could. */
  void setRecord(String key, String value) {
    await(throttr().set(key, value.getBytes(StandardCharsets.ISO_8859_1), io.sluice.protocol.binary.codec.TtlUnit.SECONDS, 60));
  }

  private ThrottrClient throttr() {
    if (throttr == null) {
      throttr = await(ThrottrClient.connect(vertx, new ThrottrClientOptions().setHost("127.0.0.1").setPort(sut.tcpPort())));
    }
    return throttr;
  }

  /** A record's value as a Throttr GET over TCP shows it, or null when there is none. */
  String record(String key) {
    Response.GetResult got = await(throttr().get(key));
    return got == null ? null : new String(got.value(), StandardCharsets.US_ASCII);
  }

  EnvoyRateLimit rls() {
    return sut.server().rateLimitService();
  }

  @Override
  public void close() {
    channel.shutdownNow();
    if (throttr != null) {
      await(throttr.close());
    }
    if (http != null) {
      http.close();
    }
    sut.close();
    await(vertx.close());
    try (var files = Files.list(configDir)) {
      for (Path file : files.toList()) {
        Files.deleteIfExists(file);
      }
      Files.deleteIfExists(configDir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static List<RateLimitResponse.DescriptorStatus> statuses(RateLimitResponse response) {
    return response.getStatusesList();
  }

  /** Bytes as they are, for calls that send what no message would. */
  enum RawBytes implements io.grpc.MethodDescriptor.Marshaller<byte[]> {
    INSTANCE;

    @Override
    public java.io.InputStream stream(byte[] value) {
      return new java.io.ByteArrayInputStream(value);
    }

    @Override
    public byte[] parse(java.io.InputStream stream) {
      try {
        return stream.readAllBytes();
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }
  }
}
