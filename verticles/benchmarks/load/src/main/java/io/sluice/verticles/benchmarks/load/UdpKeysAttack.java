package io.sluice.verticles.benchmarks.load;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code over_limit u<i> ip=132.185.1.1} for distinct i: under the MusicBrainz rules each is a new
 * rate state and new statistics ({@code u<i> cust=bbc}). At most a window of requests in flight,
 * below what the kernel's default receive buffer holds; a reply not back in time was lost.
 */
final class UdpKeysAttack implements Attack {

  private static final int WINDOW = 128;
  private static final int LOSS_TIMEOUT_MILLIS = 100;
  private static final int QUIET_MILLIS = 1_000;

  private final int count;

  UdpKeysAttack(int count) {
    this.count = count;
  }

  @Override
  public String launch(AttackTarget target) throws Exception {
    long started = System.nanoTime();
    try (DatagramSocket socket = new DatagramSocket()) {
      socket.connect(new InetSocketAddress(target.host(), target.udpPort()));
      socket.setReceiveBufferSize(1 << 20);
      socket.setSoTimeout(QUIET_MILLIS);
      Semaphore inFlight = new Semaphore(WINDOW);
      AtomicLong answered = new AtomicLong();
      AtomicBoolean allSent = new AtomicBoolean();
      Thread replies = new Thread(() -> {
        DatagramPacket reply = new DatagramPacket(new byte[512], 512);
        while (true) {
          try {
            socket.receive(reply);
            answered.incrementAndGet();
            inFlight.release();
          } catch (SocketTimeoutException quiet) {
            if (allSent.get()) {
              return;
            }
          } catch (IOException closed) {
            return;
          }
        }
      });
      replies.start();
      for (int i = 0; i < count; i++) {
        inFlight.tryAcquire(LOSS_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
        byte[] request = (i + " over_limit u" + i + " ip=132.185.1.1").getBytes(StandardCharsets.US_ASCII);
        socket.send(new DatagramPacket(request, request.length));
      }
      allSent.set(true);
      replies.join();
      double seconds = (System.nanoTime() - started) / 1e9;
      return String.format("%d distinct UDP keys sent, %d answered, in %.1f s", count, answered.get(), seconds);
    }
  }
}
