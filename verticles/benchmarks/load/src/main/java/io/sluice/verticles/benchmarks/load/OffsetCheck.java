package io.sluice.verticles.benchmarks.load;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.json.JsonObject;

import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code bench fanout --history}: what the subscribers check of a channel with history (the server's
 * {@code --channel-history}), and the time a client takes to recover missed messages. Offsets are
 * read from the bridge's fixed layout, as the send time is, not by parsing JSON.
 */
final class OffsetCheck {

  private static final String OFFSET = "\"offset\":";
  private static final String EPOCH = "\"epoch\":\"";

  /** Messages that skipped an offset, or repeated or went back on one, over every subscriber. */
  final AtomicLong gaps = new AtomicLong();
  final AtomicLong duplicates = new AtomicLong();
  final AtomicLong unnumbered = new AtomicLong();
  private volatile long latestOffset;
  private volatile String latestEpoch;

  /** One subscriber's view: its last offset. Used from its connection's event loop. */
  final class Subscriber {
    private long last;

    void seen(String message) {
      long offset = offsetOf(message);
      if (offset <= 0) {
        unnumbered.incrementAndGet();
        return;
      }
      if (last > 0 && offset <= last) {
        duplicates.incrementAndGet();
      } else if (last > 0 && offset > last + 1) {
        gaps.incrementAndGet();
      }
      last = Math.max(last, offset);
      if (offset > latestOffset) {
        latestOffset = offset;
        latestEpoch = epochOf(message);
      }
    }
  }

  static long offsetOf(String message) {
    int at = message.indexOf(OFFSET);
    if (at < 0) {
      return -1;
    }
    int start = at + OFFSET.length();
    int end = start;
    while (end < message.length() && Character.isDigit(message.charAt(end))) {
      end++;
    }
    return end == start ? -1 : Long.parseLong(message, start, end, 10);
  }

  static String epochOf(String message) {
    int at = message.indexOf(EPOCH);
    return at < 0 ? null : message.substring(at + EPOCH.length(), message.indexOf('"', at + EPOCH.length()));
  }

  long latestOffset() {
    return latestOffset;
  }

  /**
   * Connects a new client that subscribes with {@code since} the offset {@code missed} before the
   * latest one seen, and completes with the nanoseconds until its last missed message arrived.
   */
  Future<Long> recover(WebSocketClient client, String host, int port, String uri, String channel, int missed) {
    long top = latestOffset;
    String epoch = latestEpoch;
    long since = Math.max(0, top - missed);
    return client.connect(port, host, uri).compose(ws -> {
      Promise<Long> recovered = Promise.promise();
      long start = System.nanoTime();
      ws.textMessageHandler(text -> {
        if (offsetOf(text) >= top) {
          recovered.tryComplete(System.nanoTime() - start);
        } else if (text.contains("\"recovered\":false")) {
          recovered.tryFail("not recovered: " + text);
        }
      });
      ws.writeTextMessage(new JsonObject().put("op", "subscribe").put("channel", channel)
          .put("since", new JsonObject().put("offset", since).put("epoch", epoch)).encode());
      return recovered.future().eventually(ws::close);
    });
  }
}
