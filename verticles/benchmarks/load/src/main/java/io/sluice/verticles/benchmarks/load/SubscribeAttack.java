package io.sluice.verticles.benchmarks.load;

import io.sluice.protocol.binary.codec.Request;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/** SUBSCRIBEs to distinct channels on one Throttr connection, which stays open: --max-subscriptions bounds them. */
final class SubscribeAttack implements Attack {

  private static final int BATCH = 1_000;

  private final int count;
  private Socket socket;

  SubscribeAttack(int count) {
    this.count = count;
  }

  @Override
  public String launch(AttackTarget target) throws Exception {
    socket = target.throttr();
    DataInputStream replies = new DataInputStream(socket.getInputStream());
    long accepted = 0;
    for (int from = 0; from < count; from += BATCH) {
      int batch = Math.min(BATCH, count - from);
      ByteArrayOutputStream frames = new ByteArrayOutputStream();
      for (int i = from; i < from + batch; i++) {
        frames.writeBytes(target.frame(new Request.Subscribe(("attack-" + i).getBytes(StandardCharsets.US_ASCII))));
      }
      socket.getOutputStream().write(frames.toByteArray());
      byte[] statuses = new byte[batch];
      replies.readFully(statuses);
      for (byte status : statuses) {
        accepted += status == 1 ? 1 : 0;
      }
    }
    return count + " SUBSCRIBEs to distinct channels on one connection: " + accepted + " accepted, "
        + (count - accepted) + " refused (00)";
  }

  @Override
  public String release() throws Exception {
    if (socket != null) {
      socket.close();
      socket = null;
    }
    return "";
  }
}
