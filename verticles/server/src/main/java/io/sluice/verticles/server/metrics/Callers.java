package io.sluice.verticles.server.metrics;

import io.sluice.verticles.engine.time.Clock;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The callers of the HTTP check API and of Envoy's gRPC rate limit service by remote address, for the
 * dashboard's Connections view: a check or a gRPC call opens no connection Sluice lists, so a caller is
 * shown while it keeps calling. Each front event loop writes its own {@link Book} (an uncontended lock,
 * no allocation per call once its address is known); the dashboard merges the books when it asks.
 * Bounded twice so that callers from ever new addresses cannot grow memory: each book keeps at most
 * {@link #CAPACITY} addresses (the one heard from least recently goes first), and a caller silent for
 * {@code idleNanos} is forgotten.
 */
public final class Callers {

  /** At most this many addresses per book, and in the merged list. */
  public static final int CAPACITY = 1_000;
  /** A caller silent this long is no longer shown (as a UDP peer). */
  public static final long IDLE_NANOS = 5L * 60 * 1_000_000_000L;

  /** The way a caller came in. */
  public enum Protocol {
    HTTP, GRPC;

    String label() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** What one call was answered. */
  public enum Outcome {
    ALLOWED, DENIED,
    /** Refused as bad input or failed: neither allowed nor denied. */
    REFUSED
  }

  /** One caller's figures as of a moment. */
  public record Caller(Protocol protocol, String ip, long firstSeenNanos, long lastSeenNanos, long requests,
                       long allowed, long denied, long readBytes, long writeBytes) {

    /** How the dashboard names a caller: {@code http:IP} or {@code grpc:IP}. */
    public String id() {
      return protocol.label() + ":" + ip;
    }

    public String protocolName() {
      return protocol.label();
    }

    Caller plus(Caller other) {
      return new Caller(protocol, ip, Math.min(firstSeenNanos, other.firstSeenNanos),
          Math.max(lastSeenNanos, other.lastSeenNanos), requests + other.requests, allowed + other.allowed,
          denied + other.denied, readBytes + other.readBytes, writeBytes + other.writeBytes);
    }
  }

  private final Clock clock;
  private final int capacity;
  private final long idleNanos;
  private final List<Book> books = new CopyOnWriteArrayList<>();

  public Callers(Clock clock) {
    this(clock, CAPACITY, IDLE_NANOS);
  }

  Callers(Clock clock, int capacity, long idleNanos) {
    this.clock = clock;
    this.capacity = capacity;
    this.idleNanos = idleNanos;
  }

  /** A new book for one front event loop's calls of one protocol. */
  public Book book(Protocol protocol) {
    Book book = new Book(protocol);
    books.add(book);
    return book;
  }

  /**
   * The callers heard from within the idle time, one per protocol and address over every book: the
   * one heard from last first, then the busiest; at most {@link #CAPACITY}.
   */
  public List<Caller> active() {
    long now = clock.epochNanos();
    Map<String, Caller> byId = new HashMap<>();
    for (Book book : books) {
      for (Caller caller : book.active(now)) {
        byId.merge(caller.id(), caller, Caller::plus);
      }
    }
    List<Caller> active = new ArrayList<>(byId.values());
    active.sort(Comparator.comparingLong(Caller::lastSeenNanos).reversed()
        .thenComparing(Comparator.comparingLong(Caller::requests).reversed()).thenComparing(Caller::id));
    return active.size() > capacity ? new ArrayList<>(active.subList(0, capacity)) : active;
  }

  private static final class Figures {
    final long firstSeenNanos;
    long lastSeenNanos;
    long requests;
    long allowed;
    long denied;
    long readBytes;
    long writeBytes;

    Figures(long firstSeenNanos) {
      this.firstSeenNanos = firstSeenNanos;
    }
  }

  /** One front event loop's callers of one protocol. Its loop writes, the dashboard reads: synchronized. */
  public final class Book {

    private final Protocol protocol;
    /** Access order: the eldest entry is the caller heard from least recently. */
    private final LinkedHashMap<String, Figures> byAddress = new LinkedHashMap<>(16, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, Figures> eldest) {
        return size() > capacity;
      }
    };

    private Book(Protocol protocol) {
      this.protocol = protocol;
    }

    /** A call from {@code ip} was answered. */
    public synchronized void answered(String ip, Outcome outcome, long readBytes, long writeBytes) {
      long now = clock.epochNanos();
      Figures figures = byAddress.get(ip);
      if (figures == null) {
        figures = new Figures(now);
        byAddress.put(ip, figures);
      }
      figures.lastSeenNanos = now;
      figures.requests++;
      switch (outcome) {
        case ALLOWED -> figures.allowed++;
        case DENIED -> figures.denied++;
        case REFUSED -> { }
      }
      figures.readBytes += readBytes;
      figures.writeBytes += writeBytes;
    }

    private synchronized List<Caller> active(long nowNanos) {
      List<Caller> active = new ArrayList<>(byAddress.size());
      for (Iterator<Map.Entry<String, Figures>> it = byAddress.entrySet().iterator(); it.hasNext(); ) {
        Map.Entry<String, Figures> entry = it.next();
        Figures f = entry.getValue();
        if (nowNanos - f.lastSeenNanos >= idleNanos) {
          it.remove();
          continue;
        }
        active.add(new Caller(protocol, entry.getKey(), f.firstSeenNanos, f.lastSeenNanos, f.requests, f.allowed,
            f.denied, f.readBytes, f.writeBytes));
      }
      return active;
    }
  }
}
