package io.sluice.verticles.server.kit;

import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * One HTTP/1.1 exchange on a plain socket, headers exactly as written (a foreign {@code Host}, an
 * {@code Origin}, a WebSocket upgrade), which client libraries would rewrite or add to.
 */
public final class RawHttp {

  /** The answer: status code and body (empty for a 101). */
  public record Answer(int status, String head, String body) {
    public JsonObject json() {
      return new JsonObject(body);
    }
  }

  private RawHttp() {
  }

  /**
   * Sends {@code method path} with these header lines (Host among them, or none), and a body when
   * not null; reads the answer's head and its Content-Length of body (none for a 101). The request
   * says Connection: close unless it has a Connection header of its own.
   */
  public static Answer exchange(int port, String method, String path, String body, String... headers)
      throws IOException {
    return exchange("127.0.0.1", port, method, path, body, headers);
  }

  /** The same, to (and so from) another address of this machine. */
  public static Answer exchange(String host, int port, String method, String path, String body, String... headers)
      throws IOException {
    try (Socket socket = new Socket(host, port)) {
      socket.setSoTimeout(30_000);
      StringBuilder request = new StringBuilder(method + " " + path + " HTTP/1.1\r\n");
      for (String header : headers) {
        request.append(header).append("\r\n");
      }
      byte[] content = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
      if (body != null) {
        request.append("Content-Length: ").append(content.length).append("\r\n");
      }
      boolean upgrade = false;
      for (String header : headers) {
        upgrade |= header.regionMatches(true, 0, "Connection:", 0, 11);
      }
      request.append(upgrade ? "\r\n" : "Connection: close\r\n\r\n");
      socket.getOutputStream().write(request.toString().getBytes(StandardCharsets.ISO_8859_1));
      socket.getOutputStream().write(content);
      return read(socket.getInputStream());
    }
  }

  /** The next answer on a connection (a kept-alive one, say): its head, then its body unless 101. */
  public static Answer read(InputStream in) throws IOException {
    String head = readHead(in);
    int status = Integer.parseInt(head.substring(9, 12));
    String answer = status == 101 ? "" : new String(in.readNBytes(contentLength(head)), StandardCharsets.UTF_8);
    return new Answer(status, head, answer);
  }

  private static int contentLength(String head) {
    for (String line : head.split("\r\n")) {
      if (line.regionMatches(true, 0, "Content-Length:", 0, 15)) {
        return Integer.parseInt(line.substring(15).trim());
      }
    }
    return 0;
  }

  /** Header lines of a WebSocket upgrade of {@code /ws}, to add to {@link #exchange}'s. */
  public static String[] upgrade(String... headers) {
    String[] lines = new String[headers.length + 4];
    lines[0] = "Upgrade: websocket";
    lines[1] = "Connection: Upgrade";
    lines[2] = "Sec-WebSocket-Version: 13";
    lines[3] = "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==";
    System.arraycopy(headers, 0, lines, 4, headers.length);
    return lines;
  }

  static String readHead(InputStream in) throws IOException {
    StringBuilder head = new StringBuilder();
    int matched = 0;
    while (matched < 4) {
      int b = in.read();
      if (b < 0) {
        throw new java.io.EOFException("connection closed in the head: " + head);
      }
      head.append((char) b);
      matched = (b == "\r\n\r\n".charAt(matched)) ? matched + 1 : (b == '\r' ? 1 : 0);
    }
    return head.toString();
  }
}
