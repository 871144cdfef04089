package io.sluice.verticles.server.metrics;

import io.sluice.verticles.engine.time.ManualClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The bound on the callers kept: calls from ever new addresses (a scan, a botnet) keep at most the
 * capacity per front event loop, the least recently heard going first, and the merged list is capped
 * too; a caller silent for the idle time is forgotten.
 */
class CallersTest {

  private final ManualClock clock = new ManualClock();
  private final Callers callers = new Callers(clock);

  private static void call(Callers.Book book, String ip) {
    book.answered(ip, Callers.Outcome.ALLOWED, 10, 20);
  }

  @Test
  void manyAddressesAreCappedAndTheLeastRecentlySeenGoFirst() {
    Callers.Book book = callers.book(Callers.Protocol.HTTP);
    call(book, "10.0.0.0");
    for (int i = 1; i < 3 * Callers.CAPACITY; i++) {
      clock.advance(Duration.ofMillis(1));
      call(book, "10.0." + (i / 256) + "." + (i % 256));
      if (i % 100 == 0) {
        call(book, "10.0.0.0"); // heard again and again: never the least recently seen
      }
    }
    List<Callers.Caller> active = callers.active();
    assertThat(active).hasSize(Callers.CAPACITY);
    assertThat(active.get(0).ip()).as("the one heard from last first").isEqualTo("10.0.11.183");
    assertThat(active).extracting(Callers.Caller::ip).contains("10.0.0.0").doesNotContain("10.0.0.1");
    assertThat(active.stream().filter(c -> c.ip().equals("10.0.0.0")).findFirst().orElseThrow().requests())
        .isEqualTo(30);
  }

  @Test
  void theBooksOfEveryLoopAreMergedPerProtocolAndAddressAndCappedToo() {
    Callers.Book http1 = callers.book(Callers.Protocol.HTTP);
    Callers.Book http2 = callers.book(Callers.Protocol.HTTP);
    Callers.Book grpc = callers.book(Callers.Protocol.GRPC);
    call(http1, "127.0.0.1");
    http2.answered("127.0.0.1", Callers.Outcome.DENIED, 5, 7);
    http2.answered("127.0.0.1", Callers.Outcome.REFUSED, 1, 0);
    call(grpc, "127.0.0.1");
    List<Callers.Caller> active = callers.active();
    assertThat(active).extracting(Callers.Caller::id).containsExactlyInAnyOrder("http:127.0.0.1", "grpc:127.0.0.1");
    Callers.Caller http = active.stream().filter(c -> c.id().equals("http:127.0.0.1")).findFirst().orElseThrow();
    assertThat(List.of(http.requests(), http.allowed(), http.denied(), http.readBytes(), http.writeBytes()))
        .containsExactly(3L, 1L, 1L, 16L, 27L);

    for (int i = 0; i < Callers.CAPACITY; i++) {
      call(http1, "10.1." + (i / 256) + "." + (i % 256));
      call(http2, "10.2." + (i / 256) + "." + (i % 256));
    }
    assertThat(callers.active()).as("two full books, one capped list").hasSize(Callers.CAPACITY);
  }

  @Test
  void aCallerSilentForTheIdleTimeIsForgottenAndItsMemoryFreed() {
    Callers.Book book = callers.book(Callers.Protocol.GRPC);
    call(book, "127.0.0.2");
    clock.advance(Duration.ofNanos(Callers.IDLE_NANOS - 1));
    assertThat(callers.active()).hasSize(1);
    clock.advance(Duration.ofNanos(1));
    assertThat(callers.active()).isEmpty();
    call(book, "127.0.0.2");
    assertThat(callers.active().get(0).requests()).as("counted afresh").isEqualTo(1);
  }
}
