package io.sluice.verticles.server.http;

import io.sluice.verticles.engine.time.Clock;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * Wrong tokens per client address, so that guessing the token is slow: after {@link #MAX_FAILURES}
 * within {@link #WINDOW_SECONDS} of the first, the address is refused until that window ends,
 * whatever it presents (else a right guess would still show). An IPv6 client counts by its /64,
 * which one host usually holds whole. At most {@link #MAX_ADDRESSES} addresses are remembered,
 * the least recently seen forgotten first, so a flood of addresses cannot grow memory. Shared by
 * every event loop of the HTTP port, hence synchronized; only failures and token checks touch it.
 */
final class AuthFailures {

  static final int MAX_FAILURES = 10;
  static final long WINDOW_SECONDS = 60;
  static final int MAX_ADDRESSES = 10_000;

  private static final Pattern IPV6_LITERAL = Pattern.compile("[0-9A-Fa-f:.]+");
  private static final long WINDOW_NANOS = TimeUnit.SECONDS.toNanos(WINDOW_SECONDS);

  private static final class Window {
    final long startNanos;
    int failures;

    Window(long startNanos) {
      this.startNanos = startNanos;
    }
  }

  private final Clock clock;
  private final Map<String, Window> byAddress = new LinkedHashMap<>(64, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Window> eldest) {
      return size() > MAX_ADDRESSES;
    }
  };

  AuthFailures(Clock clock) {
    this.clock = clock;
  }

  /** Seconds until the address may try again; 0 when it may now. */
  synchronized long refusedForSeconds(String address) {
    long now = clock.epochNanos();
    Window window = current(key(address), now);
    if (window == null || window.failures < MAX_FAILURES) {
      return 0;
    }
    return Math.max(1, TimeUnit.NANOSECONDS.toSeconds(window.startNanos + WINDOW_NANOS - now + 999_999_999L));
  }

  /** Counts a wrong token; true when this one made the address refused (worth one log line). */
  synchronized boolean failed(String address) {
    long now = clock.epochNanos();
    String key = key(address);
    Window window = current(key, now);
    if (window == null) {
      window = new Window(now);
      byAddress.put(key, window);
    }
    return ++window.failures == MAX_FAILURES;
  }

  synchronized int size() {
    return byAddress.size();
  }

  private Window current(String key, long now) {
    Window window = byAddress.get(key);
    if (window != null && now - window.startNanos >= WINDOW_NANOS) {
      byAddress.remove(key);
      return null;
    }
    return window;
  }

  /** The address itself, or for IPv6 its /64 network. */
  static String key(String address) {
    int zone = address.indexOf('%');
    String literal = zone < 0 ? address : address.substring(0, zone);
    if (address.indexOf(':') < 0 || !IPV6_LITERAL.matcher(literal).matches()) {
      return address;
    }
    try {
      InetAddress parsed = InetAddress.getByName(literal); // a literal: no name lookup
      if (parsed instanceof Inet6Address) {
        return HexFormat.of().formatHex(parsed.getAddress(), 0, 8) + "::/64";
      }
      return parsed.getHostAddress();
    } catch (UnknownHostException notALiteral) {
      return address;
    }
  }
}
