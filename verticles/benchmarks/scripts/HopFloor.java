import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Arrays;

/**
 * The latency floor of one extra hop on this machine, for the cluster's 1 x 1 goal (a request
 * through a node that owns no key takes one hop more than a request to its owner): one byte asked
 * and answered at a time over loopback TCP, straight to an echo server, then through a relay that
 * copies each byte on to the echo server and back, in one run, two rounds. No Sluice code runs:
 * the difference is what any forwarding costs here at least (two thread wake-ups and two loopback
 * transfers more).
 *
 * <p>Usage: {@code java verticles/benchmarks/scripts/HopFloor.java [requests per measurement, default 200000]}
 */
public class HopFloor {

  public static void main(String[] args) throws Exception {
    int requests = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
    ServerSocket echo = listen();
    serve(echo, socket -> start(() -> copy(socket, socket)));
    ServerSocket relay = listen();
    serve(relay, in -> {
      Socket out = connect(echo.getLocalPort());
      start(() -> copy(in, out));
      start(() -> copy(out, in));
    });
    for (int round = 1; round <= 2; round++) {
      System.out.println("round " + round + " direct:  " + measure(echo.getLocalPort(), requests));
      System.out.println("round " + round + " relayed: " + measure(relay.getLocalPort(), requests));
    }
    System.exit(0);
  }

  interface Accepted {
    void accept(Socket socket) throws IOException;
  }

  private static ServerSocket listen() throws IOException {
    return new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
  }

  private static Socket connect(int port) throws IOException {
    Socket socket = new Socket(InetAddress.getLoopbackAddress(), port);
    socket.setTcpNoDelay(true);
    return socket;
  }

  private static void serve(ServerSocket server, Accepted accepted) {
    start(() -> {
      try {
        while (true) {
          Socket socket = server.accept();
          socket.setTcpNoDelay(true);
          accepted.accept(socket);
        }
      } catch (IOException closed) {
        // the run is over
      }
    });
  }

  private static void start(Runnable task) {
    Thread thread = new Thread(task);
    thread.setDaemon(true);
    thread.start();
  }

  private static void copy(Socket from, Socket to) {
    try {
      InputStream in = from.getInputStream();
      OutputStream out = to.getOutputStream();
      byte[] buffer = new byte[4096];
      for (int read; (read = in.read(buffer)) > 0; ) {
        out.write(buffer, 0, read);
        out.flush();
      }
    } catch (IOException closed) {
      // the other side went away
    }
  }

  private static String measure(int port, int requests) throws IOException {
    try (Socket socket = connect(port)) {
      InputStream in = socket.getInputStream();
      OutputStream out = socket.getOutputStream();
      long[] nanos = new long[requests];
      for (int i = -requests / 5; i < requests; i++) { // the first fifth warms up, unrecorded
        long start = System.nanoTime();
        out.write(1);
        out.flush();
        if (in.read() < 0) {
          throw new EOFException("the echo went away");
        }
        if (i >= 0) {
          nanos[i] = System.nanoTime() - start;
        }
      }
      Arrays.sort(nanos);
      return String.format("p50 %.1f us, p99 %.1f us, p999 %.1f us", nanos[requests / 2] / 1e3,
          nanos[(int) (requests * 0.99)] / 1e3, nanos[(int) (requests * 0.999)] / 1e3);
    }
  }
}
