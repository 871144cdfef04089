package io.sluice.verticles.server.kit;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.handler.codec.http2.DefaultHttp2FrameReader;
import io.netty.handler.codec.http2.DefaultHttp2FrameWriter;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2FrameAdapter;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2Settings;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.HashMap;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * A hand-driven HTTP/2 client over a plain socket, frames made and read by Netty's codec: it sends
 * exactly what a test says (never a SETTINGS ACK, say) and records what the server answers per
 * stream (headers and trailers merged, or the RST_STREAM code), and any GOAWAY.
 */
public final class RawHttp2 implements AutoCloseable {

  /** What the server answered on one stream so far. */
  public static final class StreamAnswer {
    public final Map<String, String> headers = new HashMap<>();
    public boolean ended;
    /** The RST_STREAM error code, or -1. */
    public long reset = -1;

    public boolean answered() {
      return ended || reset >= 0;
    }
  }

  private final Socket socket;
  private final OutputStream out;
  private final InputStream in;
  private final EmbeddedChannel frames = new EmbeddedChannel(new ChannelOutboundHandlerAdapter());
  private final ChannelHandlerContext ctx = frames.pipeline().firstContext();
  private final DefaultHttp2FrameWriter writer = new DefaultHttp2FrameWriter();
  private final DefaultHttp2FrameReader reader = new DefaultHttp2FrameReader();
  private ByteBuf received = Unpooled.buffer();
  private final Map<Integer, StreamAnswer> answers = new HashMap<>();
  private boolean goAway;
  private boolean closedByServer;
  private boolean closed;
  private int nextStream = 1;

  /**
   * Connects, sends the preface and SETTINGS (with this INITIAL_WINDOW_SIZE: 0 lets the server
   * send no DATA at all), and never acknowledges the server's.
   */
  public RawHttp2(int port, int initialWindow) throws IOException {
    // A channel's socket: its writes can be tried without blocking (callsUntilBlocked).
    socket = SocketChannel.open(new InetSocketAddress("127.0.0.1", port)).socket();
    socket.setTcpNoDelay(true);
    out = socket.getOutputStream();
    in = socket.getInputStream();
    out.write(io.netty.buffer.ByteBufUtil.getBytes(Http2CodecUtil.connectionPrefaceBuf()));
    writer.writeSettings(ctx, new Http2Settings().initialWindowSize(initialWindow), ctx.newPromise());
    flush();
  }

  /** Opens a stream: a gRPC call's HEADERS (plus {@code extra}, name and value alternately), then {@code body} as DATA. */
  public int call(String path, byte[] body, boolean endStream, String... extra) throws IOException {
    int stream = encodeCall(path, body, endStream, extra);
    flush();
    return stream;
  }

  /**
   * Sends whole calls, a new stream each, reading nothing, until the server stops reading: the
   * socket took nothing for {@code quietMillis} (a bound on the wait, not a pause that hopes). Fails
   * when {@code maxBytes} went through first. Returns the bytes sent.
   */
  public long callsUntilBlocked(String path, byte[] body, long maxBytes, long quietMillis) throws IOException {
    SocketChannel channel = socket.getChannel();
    long sent = 0;
    boolean blocked = false;
    channel.configureBlocking(false);
    try (Selector selector = Selector.open()) {
      channel.register(selector, SelectionKey.OP_WRITE);
      ByteBuffer pending = ByteBuffer.allocate(0);
      while (!blocked && sent < maxBytes) {
        if (!pending.hasRemaining()) {
          encodeCall(path, body, true);
          pending = ByteBuffer.wrap(encoded());
        }
        int written = channel.write(pending);
        sent += written;
        if (written == 0) {
          selector.selectedKeys().clear();
          blocked = selector.select(quietMillis) == 0;
        }
      }
    }
    // The selector closed, the channel is free to block again (for readUntil).
    channel.configureBlocking(true);
    if (!blocked) {
      throw new AssertionError("the server went on reading: " + sent + " bytes of calls went through");
    }
    return sent;
  }

  private int encodeCall(String path, byte[] body, boolean endStream, String... extra) {
    int stream = nextStream;
    nextStream += 2;
    Http2Headers headers = new DefaultHttp2Headers().method("POST").scheme("http").path(path).authority("127.0.0.1")
        .add("content-type", "application/grpc").add("te", "trailers");
    for (int i = 0; i < extra.length; i += 2) {
      headers.add(extra[i], extra[i + 1]);
    }
    writer.writeHeaders(ctx, stream, headers, 0, body == null && endStream, ctx.newPromise());
    if (body != null) {
      // DATA frames of at most 16 KiB, the default SETTINGS_MAX_FRAME_SIZE.
      for (int at = 0; at < body.length || at == 0; at += 16_384) {
        int length = Math.min(16_384, body.length - at);
        boolean last = at + length >= body.length;
        writer.writeData(ctx, stream, Unpooled.wrappedBuffer(body, at, length), 0, last && endStream, ctx.newPromise());
        if (last) {
          break;
        }
      }
    }
    return stream;
  }

  /** RST_STREAM(CANCEL) on {@code stream}. */
  public void cancel(int stream) throws IOException {
    writer.writeRstStream(ctx, stream, Http2Error.CANCEL.code(), ctx.newPromise());
    flush();
  }

  /** What the server answered on {@code stream} so far (read with {@link #readUntil}). */
  public StreamAnswer answer(int stream) {
    return answers.computeIfAbsent(stream, id -> new StreamAnswer());
  }

  public Map<Integer, StreamAnswer> answers() {
    return answers;
  }

  public boolean goAway() {
    return goAway;
  }

  /** Whether the server closed the connection (seen while reading). */
  public boolean closedByServer() {
    return closedByServer;
  }

  /** Reads the server's frames until {@code done} holds, or fails after 15 s (or when the server closes first). */
  public void readUntil(String what, BooleanSupplier done) throws IOException {
    long deadline = System.nanoTime() + 15_000_000_000L;
    byte[] chunk = new byte[65_536];
    while (!done.getAsBoolean()) {
      if (closedByServer || System.nanoTime() > deadline) {
        throw new AssertionError("not seen " + (closedByServer ? "before the server closed" : "within 15 s") + ": " + what);
      }
      socket.setSoTimeout(200);
      int read;
      try {
        read = in.read(chunk);
      } catch (SocketTimeoutException quiet) {
        continue;
      } catch (SocketException reset) {
        // The server closed while the client's frames were still unread on its side: a reset, after what it sent.
        read = -1;
      }
      if (read < 0) {
        closedByServer = true;
        continue;
      }
      received.writeBytes(chunk, 0, read);
      decode();
    }
  }

  /** Reads until the server closes the connection (bounded by 15 s). */
  public void readUntilClosed() throws IOException {
    readUntilClosedOr(() -> false);
  }

  /** Reads until {@code done} holds or the server closes the connection, whichever comes first (bounded by 15 s). */
  public void readUntilClosedOr(BooleanSupplier done) throws IOException {
    try {
      readUntil("the close", () -> closedByServer || done.getAsBoolean());
    } catch (AssertionError closedFirst) {
      if (!closedByServer) {
        throw closedFirst;
      }
    }
  }

  private void decode() {
    try {
      reader.readFrame(ctx, received, new Http2FrameAdapter() {
        @Override
        public void onHeadersRead(ChannelHandlerContext c, int stream, Http2Headers headers, int padding, boolean end) {
          StreamAnswer answer = answer(stream);
          // grpc-message is percent-encoded on the wire.
          headers.forEach(header -> answer.headers.put(header.getKey().toString(), header.getKey().toString().equals("grpc-message")
              ? QueryStringDecoder.decodeComponent(header.getValue().toString()) : header.getValue().toString()));
          answer.ended |= end;
        }

        @Override
        public void onHeadersRead(ChannelHandlerContext c, int stream, Http2Headers headers, int dependency, short weight,
                                  boolean exclusive, int padding, boolean end) {
          onHeadersRead(c, stream, headers, padding, end);
        }

        @Override
        public int onDataRead(ChannelHandlerContext c, int stream, ByteBuf data, int padding, boolean end) {
          answer(stream).ended |= end;
          return data.readableBytes() + padding;
        }

        @Override
        public void onRstStreamRead(ChannelHandlerContext c, int stream, long errorCode) {
          answer(stream).reset = errorCode;
        }

        @Override
        public void onGoAwayRead(ChannelHandlerContext c, int lastStream, long errorCode, ByteBuf debugData) {
          goAway = true;
        }
      });
    } catch (Http2Exception e) {
      throw new AssertionError("the server sent a frame Netty cannot read: " + e, e);
    }
    received.discardReadBytes();
  }

  private void flush() throws IOException {
    try {
      out.write(encoded());
      out.flush();
    } catch (SocketException closed) {
      throw closed;
    } catch (IOException closed) {
      // A channel's socket says "Broken pipe" as an IOException; tests tell a closed connection by SocketException.
      throw (SocketException) new SocketException(closed.getMessage()).initCause(closed);
    }
  }

  /** The frames written to {@link #frames} so far, taken out of it. */
  private byte[] encoded() throws IOException {
    frames.flush();
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    for (ByteBuf frame = frames.readOutbound(); frame != null; frame = frames.readOutbound()) {
      frame.readBytes(bytes, frame.readableBytes());
      frame.release();
    }
    return bytes.toByteArray();
  }

  /** A gRPC message: the 5-byte prefix (compressed flag, length), then the bytes. */
  public static byte[] message(boolean compressed, byte[] bytes) {
    ByteBuf framed = Unpooled.buffer(5 + bytes.length).writeByte(compressed ? 1 : 0).writeInt(bytes.length).writeBytes(bytes);
    return framed.array();
  }

  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    socket.close();
    frames.finishAndReleaseAll();
    received.release();
  }
}
