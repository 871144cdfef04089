package io.sluice.verticles.server.kit;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A WebSocket client on a plain socket that writes frames byte by byte, so tests can send what no
 * library would (oversize lengths, reserved opcodes, unmasked frames, invalid UTF-8) and read the
 * server's close frame. Blocking, with a read timeout as the bound on every wait.
 */
public final class RawWebSocket implements AutoCloseable {

  public static final int TEXT = 0x1;
  public static final int BINARY = 0x2;
  public static final int CONTINUATION = 0x0;
  public static final int CLOSE = 0x8;
  public static final int PING = 0x9;

  /** A frame the server sent. */
  public record Frame(int opcode, byte[] payload) {
    /** The status code of a close frame; 1005 (none given) when it has no payload. */
    public int closeCode() {
      return payload.length < 2 ? 1005 : ((payload[0] & 0xFF) << 8) | (payload[1] & 0xFF);
    }

    public String text() {
      return new String(payload, StandardCharsets.UTF_8);
    }
  }

  private final Socket socket;
  private final DataInputStream in;
  private final OutputStream out;
  private final int status;

  private RawWebSocket(Socket socket, int status) throws IOException {
    this.socket = socket;
    this.in = new DataInputStream(socket.getInputStream());
    this.out = socket.getOutputStream();
    this.status = status;
  }

  /** Upgrades {@code /ws} on a loopback port; {@code headers} are extra lines, e.g. {@code "Origin: …"}. */
  public static RawWebSocket open(int port, String... headers) throws IOException {
    Socket socket = new Socket("127.0.0.1", port);
    socket.setSoTimeout(30_000);
    byte[] nonce = new byte[16];
    ThreadLocalRandom.current().nextBytes(nonce);
    StringBuilder request = new StringBuilder("GET /ws HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n"
        + "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
        + "Sec-WebSocket-Key: " + Base64.getEncoder().encodeToString(nonce) + "\r\n");
    for (String header : headers) {
      request.append(header).append("\r\n");
    }
    socket.getOutputStream().write(request.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1));
    String head = RawHttp.readHead(socket.getInputStream());
    return new RawWebSocket(socket, Integer.parseInt(head.substring(9, 12)));
  }

  /** The TCP socket under it, for how it ends (linger, half-close). */
  public Socket socket() {
    return socket;
  }

  /** The status line's code: 101 when upgraded. */
  public int status() {
    return status;
  }

  /** A masked frame, as a client must send. */
  public void send(int opcode, boolean fin, byte[] payload) throws IOException {
    out.write(frame(opcode, fin, 0, true, payload, payload.length));
    out.flush();
  }

  /**
   * Any frame header: {@code rsv} in bits 4–6 of the first byte, a declared {@code length} that
   * need not match the payload sent, masked or not.
   */
  public void sendRaw(int opcode, boolean fin, int rsv, boolean masked, byte[] payload, long length)
      throws IOException {
    out.write(frame(opcode, fin, rsv, masked, payload, length));
    out.flush();
  }

  public void sendText(String text) throws IOException {
    send(TEXT, true, text.getBytes(StandardCharsets.UTF_8));
  }

  /** The next frame the server sends. */
  public Frame read() throws IOException {
    int first = in.readUnsignedByte();
    int second = in.readUnsignedByte();
    long length = second & 0x7F;
    if (length == 126) {
      length = in.readUnsignedShort();
    } else if (length == 127) {
      length = in.readLong();
    }
    byte[] payload = new byte[Math.toIntExact(length)];
    in.readFully(payload);
    return new Frame(first & 0x0F, payload);
  }

  /**
   * Reads until the server's close frame and answers its status code; -1 when the connection ends
   * without one. Other frames are skipped.
   */
  public int awaitCloseCode() throws IOException {
    try {
      while (true) {
        Frame frame = read();
        if (frame.opcode() == CLOSE) {
          return frame.closeCode();
        }
      }
    } catch (EOFException | java.net.SocketException ended) {
      return -1;
    }
  }

  /** Drops the TCP connection without a close handshake. */
  @Override
  public void close() throws IOException {
    socket.close();
  }

  private static byte[] frame(int opcode, boolean fin, int rsv, boolean masked, byte[] payload, long length) {
    ByteArrayOutputStream frame = new ByteArrayOutputStream();
    frame.write((fin ? 0x80 : 0) | (rsv << 4) | opcode);
    int mask = masked ? 0x80 : 0;
    if (length < 126) {
      frame.write(mask | (int) length);
    } else if (length <= 0xFFFF) {
      frame.write(mask | 126);
      frame.write((int) (length >> 8));
      frame.write((int) length);
    } else {
      frame.write(mask | 127);
      for (int shift = 56; shift >= 0; shift -= 8) {
        frame.write((int) (length >> shift));
      }
    }
    byte[] key = new byte[4];
    if (masked) {
      ThreadLocalRandom.current().nextBytes(key);
      frame.writeBytes(key);
    }
    for (int i = 0; i < payload.length; i++) {
      frame.write(payload[i] ^ key[i & 3]);
    }
    return frame.toByteArray();
  }
}
