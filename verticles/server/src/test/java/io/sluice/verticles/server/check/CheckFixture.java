package io.sluice.verticles.server.check;

import io.sluice.protocol.binary.client.ThrottrClient;
import io.sluice.protocol.binary.client.ThrottrClientOptions;
import io.sluice.protocol.binary.codec.response.Response;
import io.sluice.verticles.strategies.policy.Policies;
import io.sluice.verticles.server.http.HttpSettings;
import io.sluice.verticles.server.kit.HttpCalls;
import io.sluice.verticles.server.kit.SluiceUnderTest;
import io.vertx.core.Vertx;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;

/**
 * A Sluice with check-API policies on a hand-moved clock, an HTTP client and a Throttr client: the
 * first to call the API, the second to look at the state records it leaves.
 */
final class CheckFixture implements AutoCloseable {

  /** The ManualClock's start, 2026-01-01T00:00:00Z, in epoch nanoseconds. */
  static final long T0 = 1_767_225_600_000_000_000L;

  final Vertx vertx = Vertx.vertx();
  final SluiceUnderTest sut;
  final HttpCalls http;
  private final ThrottrClient throttr;

  CheckFixture(Policies policies) {
    this(policies, Optional.empty());
  }

  CheckFixture(Policies policies, Optional<String> token) {
    sut = new SluiceUnderTest(vertx,
        SluiceUnderTest.defaults().withPolicies(policies).withHttp(HttpSettings.defaults().withAuthToken(token)));
    http = new HttpCalls(vertx, sut.httpPort());
    throttr = await(ThrottrClient.connect(vertx, new ThrottrClientOptions().setHost("127.0.0.1").setPort(sut.tcpPort())));
  }

  /** POST /v1/check for a policy whose key is the caller's. */
  HttpCalls.Answer check(String policy, String key) {
    return http.post("/v1/check", "{\"policy\":\"" + policy + "\",\"key\":\"" + key + "\"}");
  }

  /** The state record's value as a Throttr GET over TCP shows it, or null when there is none. */
  String state(String recordKey) {
    Response.GetResult got = await(throttr.get(recordKey));
    return got == null ? null : new String(got.value(), StandardCharsets.US_ASCII);
  }

  /** Stores any bytes as a record, as a Throttr client could. */
  void setState(String recordKey, String value) {
    await(throttr.set(recordKey, value.getBytes(StandardCharsets.ISO_8859_1), io.sluice.protocol.binary.codec.TtlUnit.SECONDS, 60));
  }

  ThrottrClient throttr() {
    return throttr;
  }

  void advance(Duration duration) {
    sut.advance(duration);
  }

  @Override
  public void close() {
    await(throttr.close());
    http.close();
    sut.close();
    await(vertx.close());
  }
}
