package io.sluice.verticles.benchmarks.load;

import io.sluice.protocol.binary.codec.Request;
import io.sluice.protocol.binary.codec.TtlUnit;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;

/**
 * GETs of a 100-byte value, all written by a client that does not read (replies about 35 times the
 * requests' size): the server must stop reading at --max-pending-bytes. Held until released, when
 * the client reads every reply.
 */
final class PipelineAttack implements Attack {

  private static final byte[] KEY = "attack-value".getBytes(StandardCharsets.US_ASCII);
  private static final int VALUE_BYTES = 100;
  private static final int CHUNK_REQUESTS = 1_000;
  /** Writes that make no progress for this long have stopped: the server no longer reads. */
  private static final long STALLED_MILLIS = 1_000;

  private final int count;
  private Socket socket;
  private Thread writer;
  private int replyBytes;

  PipelineAttack(int count) {
    this.count = count;
  }

  @Override
  public String launch(AttackTarget target) throws Exception {
    try (Socket setter = target.throttr()) {
      setter.getOutputStream().write(target.frame(new Request.Set(TtlUnit.SECONDS.code(), 3600, KEY, new byte[VALUE_BYTES])));
      if (setter.getInputStream().read() != 1) {
        throw new IOException("the SET of the value to GET was refused");
      }
    }
    byte[] get = target.frame(new Request.Get(KEY));
    replyBytes = 1 + 1 + 2 * target.valueSize().bytes() + VALUE_BYTES; // status, TTL unit, TTL, length, value
    byte[] chunk = new byte[get.length * CHUNK_REQUESTS];
    for (int i = 0; i < CHUNK_REQUESTS; i++) {
      System.arraycopy(get, 0, chunk, i * get.length, get.length);
    }
    socket = new Socket();
    socket.setReceiveBufferSize(4096);
    socket.connect(new InetSocketAddress(target.host(), target.tcpPort()));
    socket.setSoTimeout(AttackTarget.READ_TIMEOUT_MILLIS);
    AtomicLong written = new AtomicLong();
    OutputStream out = socket.getOutputStream();
    writer = new Thread(() -> {
      try {
        for (int sent = 0; sent < count; sent += CHUNK_REQUESTS) {
          int requests = Math.min(CHUNK_REQUESTS, count - sent);
          out.write(chunk, 0, requests * get.length);
          written.addAndGet((long) requests * get.length);
        }
      } catch (IOException closed) {
        // released before every request was written
      }
    });
    writer.start();
    long last = -1;
    while (written.get() != last && writer.isAlive()) {
      last = written.get();
      writer.join(STALLED_MILLIS);
    }
    long total = (long) count * get.length;
    return String.format("%d GETs (%d bytes, replies %d bytes) written without reading: %s", count, total,
        (long) count * replyBytes, writer.isAlive()
            ? "writes stopped after " + written.get() + " bytes (the server stopped reading)"
            : "all written into the kernels' buffers");
  }

  @Override
  public String release() throws Exception {
    if (socket == null) {
      return "";
    }
    DataInputStream in = new DataInputStream(socket.getInputStream());
    byte[] reply = new byte[replyBytes];
    long answered = 0;
    for (int i = 0; i < count; i++) {
      in.readFully(reply);
      answered += reply[0] == 1 ? 1 : 0;
    }
    writer.join();
    socket.close();
    socket = null;
    return "the client read at last: " + answered + " of " + count + " GETs answered with the value";
  }
}
