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
 * rate state and new statistics ({@code u<i> cust=bbc}). At most {@link #WINDOW} requests in flight,
 * below the ~200 small datagrams the kernel's default receive buffer holds, a thread counting the
 * replies; a permit not given back within {@link #LOSS_TIMEOUT_MILLIS} was a request lost to a full
 * buffer. Shared by the attack tool and the test that holds the server to its bounds.
 */
public final class UdpKeyFlood {

  private static final int WINDOW = 128;
  private static final int LOSS_TIMEOUT_MILLIS = 100;
  /** No reply for this long once every request is sent: the flood is over. */
  private static final int QUIET_MILLIS = 1_000;

  private UdpKeyFlood() {
  }

  /** Sends {@code count} distinct keys to {@code target}; answers how many were answered. */
  public static long send(InetSocketAddress target, int count) throws IOException, InterruptedException {
    try (DatagramSocket socket = new DatagramSocket()) {
      socket.connect(target);
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
      return answered.get();
    }
  }
}
