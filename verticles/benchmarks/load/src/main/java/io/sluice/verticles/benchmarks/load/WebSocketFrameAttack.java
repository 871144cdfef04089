package io.sluice.verticles.benchmarks.load;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.TreeMap;

/**
 * WebSocket frames of 10 MB, each on a connection of its own, sent in full by a client that goes on
 * writing while the server answers: --max-frame bounds them (the documented close is 1009).
 */
final class WebSocketFrameAttack implements Attack {

  private static final int FRAME_BYTES = 10 << 20;
  private static final int CHUNK = 64 * 1024;
  private static final int BINARY = 0x2;
  private static final int CLOSE = 0x8;

  private final int count;

  WebSocketFrameAttack(int count) {
    this.count = count;
  }

  @Override
  public String launch(AttackTarget target) throws Exception {
    Map<String, Integer> endings = new TreeMap<>();
    for (int i = 0; i < count; i++) {
      endings.merge(oneFrame(target), 1, Integer::sum);
    }
    return count + " WebSocket frames of " + FRAME_BYTES + " bytes, each on its own connection: " + endings;
  }

  /** How the connection that sent one such frame ended: "close 1009", say. */
  private static String oneFrame(AttackTarget target) throws Exception {
    try (Socket socket = target.http()) {
      OutputStream out = socket.getOutputStream();
      byte[] nonce = new byte[16];
      out.write(("GET /ws HTTP/1.1\r\nHost: " + target.host() + ":" + target.httpPort() + "\r\n"
          + "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
          + "Sec-WebSocket-Key: " + Base64.getEncoder().encodeToString(nonce) + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      InputStream in = socket.getInputStream();
      String status = FreshClients.statusLine(in);
      if (!status.startsWith("HTTP/1.1 101")) {
        return "upgrade refused: " + status;
      }
      skipHeaders(in);
      Thread writer = new Thread(() -> {
        try {
          // FIN, binary; masked with a zero key, so the payload goes as it is; a 64-bit length.
          out.write(new byte[] {(byte) (0x80 | BINARY), (byte) (0x80 | 127), 0, 0, 0, 0,
              (byte) (FRAME_BYTES >>> 24), (byte) (FRAME_BYTES >>> 16), (byte) (FRAME_BYTES >>> 8), (byte) FRAME_BYTES,
              0, 0, 0, 0});
          byte[] chunk = new byte[CHUNK];
          for (int sent = 0; sent < FRAME_BYTES; sent += CHUNK) {
            out.write(chunk);
          }
        } catch (IOException closed) {
          // the server closed the connection before taking the whole frame
        }
      });
      writer.start();
      String ending = closeCode(new DataInputStream(in));
      socket.close();
      writer.join();
      return ending;
    }
  }

  private static void skipHeaders(InputStream in) throws IOException {
    while (!FreshClients.statusLine(in).isEmpty()) {
      // header lines of the 101
    }
  }

  /** Reads the server's frames until its close: "close CODE", or how the connection ended without one. */
  private static String closeCode(DataInputStream in) {
    try {
      while (true) {
        int first = in.readUnsignedByte();
        long length = in.readUnsignedByte() & 0x7F;
        if (length == 126) {
          length = in.readUnsignedShort();
        } else if (length == 127) {
          length = in.readLong();
        }
        byte[] payload = new byte[Math.toIntExact(length)];
        in.readFully(payload);
        if ((first & 0x0F) == CLOSE) {
          return payload.length >= 2 ? "close " + (((payload[0] & 0xFF) << 8) | (payload[1] & 0xFF)) : "close";
        }
      }
    } catch (IOException ended) {
      return "ended without a close frame (" + ended.getClass().getSimpleName() + ")";
    }
  }
}
