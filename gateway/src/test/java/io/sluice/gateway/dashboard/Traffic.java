package io.sluice.gateway.dashboard;

import io.envoyproxy.envoy.extensions.common.ratelimit.v3.RateLimitDescriptor;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitRequest;
import io.envoyproxy.envoy.service.ratelimit.v3.RateLimitResponse;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.MethodDescriptor;
import io.grpc.protobuf.ProtoUtils;
import io.grpc.stub.ClientCalls;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * What clients of a started gateway send to be rate limited: a POST /v1/check, Envoy's
 * ShouldRateLimit over grpc-java (the method descriptor built by hand from the generated messages),
 * a UDP over_limit request. Each is answered before the call returns.
 */
public final class Traffic {

  public static final MethodDescriptor<RateLimitRequest, RateLimitResponse> SHOULD_RATE_LIMIT =
      MethodDescriptor.<RateLimitRequest, RateLimitResponse>newBuilder()
          .setType(MethodDescriptor.MethodType.UNARY)
          .setFullMethodName("envoy.service.ratelimit.v3.RateLimitService/ShouldRateLimit")
          .setRequestMarshaller(ProtoUtils.marshaller(RateLimitRequest.getDefaultInstance()))
          .setResponseMarshaller(ProtoUtils.marshaller(RateLimitResponse.getDefaultInstance()))
          .build();

  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private Traffic() {
  }

  /** POST /v1/check of {@code policy} for {@code key} at {@code base} ("http://host:port/"): the status. */
  static int check(String base, String policy, String key) throws Exception {
    HttpRequest request = HttpRequest.newBuilder(URI.create(base + "v1/check"))
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString("{\"policy\":\"" + policy + "\",\"key\":\"" + key + "\"}")).build();
    return HTTP.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
  }

  /** One ShouldRateLimit call: a domain and one descriptor of a single entry. */
  public static RateLimitResponse shouldRateLimit(Channel channel, RateLimitRequest request) {
    return ClientCalls.blockingUnaryCall(channel, SHOULD_RATE_LIMIT,
        CallOptions.DEFAULT.withDeadlineAfter(30, TimeUnit.SECONDS), request);
  }

  /** A request of {@code domain} with one descriptor of one entry. */
  static RateLimitRequest request(String domain, String key, String value) {
    return RateLimitRequest.newBuilder().setDomain(domain).addDescriptors(RateLimitDescriptor.newBuilder()
        .addEntries(RateLimitDescriptor.Entry.newBuilder().setKey(key).setValue(value))).build();
  }

  /** One UDP over_limit request to {@code port} on loopback, answered. */
  static void overLimit(int port, String key) throws Exception {
    try (DatagramSocket udp = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
      udp.setSoTimeout(10_000);
      byte[] request = ("over_limit " + key).getBytes(StandardCharsets.US_ASCII);
      udp.send(new DatagramPacket(request, request.length, InetAddress.getLoopbackAddress(), port));
      udp.receive(new DatagramPacket(new byte[64], 64));
    }
  }
}
