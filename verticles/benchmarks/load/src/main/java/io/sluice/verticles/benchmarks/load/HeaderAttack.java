package io.sluice.verticles.benchmarks.load;

import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;

/** HTTP requests with 100 KB of headers, each on a connection of its own: --http-max-header-bytes bounds them (431). */
final class HeaderAttack implements Attack {

  private static final int HEADER_BYTES = 100 * 1024;

  private final int count;

  HeaderAttack(int count) {
    this.count = count;
  }

  @Override
  public String launch(AttackTarget target) throws Exception {
    byte[] request = ("GET /health HTTP/1.1\r\nHost: " + target.host() + "\r\nX-Attack: " + "a".repeat(HEADER_BYTES)
        + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
    Map<String, Integer> answers = new TreeMap<>();
    for (int i = 0; i < count; i++) {
      answers.merge(oneRequest(target, request), 1, Integer::sum);
    }
    return count + " HTTP requests with " + HEADER_BYTES + " bytes of headers: " + answers;
  }

  private static String oneRequest(AttackTarget target, byte[] request) {
    try (Socket socket = target.http()) {
      Thread writer = new Thread(() -> {
        try {
          socket.getOutputStream().write(request);
        } catch (java.io.IOException closed) {
          // answered and closed before the whole request was sent
        }
      });
      writer.start();
      String status = FreshClients.statusLine(socket.getInputStream());
      socket.close();
      writer.join();
      return status.isEmpty() ? "closed without an answer" : status;
    } catch (Exception e) {
      return e.getClass().getSimpleName();
    }
  }
}
