package io.sluice.verticles.server.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.sluice.verticles.server.kit.Conversation;
import io.sluice.verticles.server.kit.HttpCalls;
import io.sluice.verticles.server.kit.Poll;
import io.sluice.verticles.server.kit.SluiceUnderTest;
import io.sluice.verticles.server.kit.TcpConversation;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static io.sluice.verticles.server.kit.SluiceUnderTest.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 30, item 4: /metrics is rendered on a worker. A scrape held up inside the rendering (a
 * gauge that waits) leaves every front loop serving HTTP and Throttr requests; the scrape is then
 * answered in full.
 */
class MetricsScrapeTest {

  /** More fresh connections than the server has front loops: one at least lands on the scrape's. */
  private static final int PROBES = 6;

  private final PrometheusMeterRegistry registry = SluiceMetrics.newRegistry();
  private final AtomicBoolean holding = new AtomicBoolean();
  private final CountDownLatch release = new CountDownLatch(1);
  private final AtomicInteger renderings = new AtomicInteger();
  private final AtomicBoolean renderedOnEventLoop = new AtomicBoolean();
  private final Vertx vertx = Vertx.vertx();
  private final SluiceUnderTest sut;

  MetricsScrapeTest() {
    Gauge.builder("test.slow.gauge", this::slowValue).register(registry);
    sut = new SluiceUnderTest(vertx, SluiceUnderTest.defaults(), registry);
  }

  /** While {@link #holding}, each rendering waits here until the test lets it go (bounded). */
  private double slowValue() {
    if (holding.get()) {
      renderings.incrementAndGet();
      renderedOnEventLoop.compareAndSet(false, Context.isOnEventLoopThread());
      try {
        release.await(20, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    return 1;
  }

  @AfterEach
  void stop() {
    release.countDown();
    sut.close();
    await(vertx.close());
  }

  @Test
  void aSlowScrapeHoldsUpNoRequest() {
    try (HttpCalls scraper = new HttpCalls(vertx, sut.httpPort())) {
      holding.set(true);
      Future<HttpCalls.Answer> scrape = scraper.sendAsync(HttpMethod.GET, "/metrics", null);
      Poll.until("the scrape is rendering", () -> renderings.get() == 1);

      List<HttpCalls> probes = new ArrayList<>();
      try {
        List<Future<HttpCalls.Answer>> answers = new ArrayList<>();
        for (int i = 0; i < PROBES; i++) {
          HttpCalls probe = new HttpCalls(vertx, sut.httpPort());
          probes.add(probe);
          answers.add(probe.sendAsync(HttpMethod.GET, "/health", null));
        }
        await(Future.all(answers));
        assertThat(answers).allSatisfy(answer -> assertThat(answer.result().status()).isEqualTo(200));
      } finally {
        probes.forEach(HttpCalls::close);
      }
      for (int i = 0; i < PROBES; i++) {
        try (Conversation throttr = await(TcpConversation.open(vertx, sut.tcpPort()))) {
          await(throttr.send(new byte[] {0x01, 0x0a, 0x00, 0x04, 0x3c, 0x00, 0x03, 'a', 'b', 'c'}));
          assertThat(await(throttr.receive(1))).hasSize(1);
        }
      }
      assertThat(scrape.isComplete()).as("the scrape is still rendering").isFalse();

      release.countDown();
      HttpCalls.Answer answer = await(scrape);
      assertThat(answer.status()).isEqualTo(200);
      assertThat(answer.header("Content-Type")).isEqualTo("text/plain; version=0.0.4; charset=utf-8");
      assertThat(answer.body()).contains("test_slow_gauge 1.0", "sluice_connections");
      assertThat(renderedOnEventLoop).as("rendered on an event loop").isFalse();
    }
  }
}
