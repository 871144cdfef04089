package io.sluice.protocol.udp.wire;

import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * Turns the bytes of one datagram into a {@link UdpRequest}, or into nothing when the original
 * server would not have answered.
 *
 * <p>The rules, in order (spec §1, §2):
 * <ol>
 *   <li>Only the first {@code maxDatagramBytes} bytes count (the original reads with a 1000-byte
 *       buffer and silently drops the rest).</li>
 *   <li>A request id is one or more ASCII digits at the very start followed by exactly one space;
 *       everything after that space is the body. The digits are kept verbatim.</li>
 *   <li>The body must be {@code over_limit }, {@code check_limit } or {@code get_stats } followed by
 *       an argument without newlines (one trailing {@code \n} is tolerated and dropped), or exactly
 *       {@code get_size} or {@code ping}. Matching is case-sensitive; anything else gets no reply.</li>
 * </ol>
 *
 * <p>Bytes are never decoded: each byte becomes one {@code char} (ISO-8859-1), so keys stay opaque.
 * Instances are immutable and thread-safe.
 */
public final class UdpRequestParser {

  /** The receive buffer of the original server. */
  public static final int DEFAULT_MAX_DATAGRAM_BYTES = 1000;

  private static final String OVER_LIMIT = "over_limit ";
  private static final String CHECK_LIMIT = "check_limit ";
  private static final String GET_STATS = "get_stats ";
  private static final String GET_SIZE = "get_size";
  private static final String PING = "ping";

  private final int maxDatagramBytes;

  public UdpRequestParser() {
    this(DEFAULT_MAX_DATAGRAM_BYTES);
  }

  /** @param maxDatagramBytes bytes of a datagram that are read; the rest is ignored (at least 1) */
  public UdpRequestParser(int maxDatagramBytes) {
    if (maxDatagramBytes < 1) {
      throw new IllegalArgumentException("maxDatagramBytes must be at least 1, got " + maxDatagramBytes);
    }
    this.maxDatagramBytes = maxDatagramBytes;
  }

  public int maxDatagramBytes() {
    return maxDatagramBytes;
  }

  public Optional<UdpRequest> parse(byte[] datagram) {
    return parse(datagram, 0, datagram.length);
  }

  /** Parses {@code length} bytes of {@code buffer} from {@code offset}; the buffer is not kept. */
  public Optional<UdpRequest> parse(byte[] buffer, int offset, int length) {
    String text = new String(buffer, offset, Math.min(length, maxDatagramBytes), StandardCharsets.ISO_8859_1);
    int digits = leadingAsciiDigits(text);
    boolean hasId = digits > 0 && digits < text.length() && text.charAt(digits) == ' ';
    String requestId = hasId ? text.substring(0, digits) : null;
    String body = hasId ? text.substring(digits + 1) : text;
    return parseCommand(body).map(command -> new UdpRequest(requestId, command));
  }

  private static Optional<UdpCommand> parseCommand(String body) {
    if (body.startsWith(OVER_LIMIT)) {
      return singleLineArgument(body, OVER_LIMIT).map(UdpCommand.OverLimit::new);
    }
    if (body.startsWith(CHECK_LIMIT)) {
      return singleLineArgument(body, CHECK_LIMIT).map(UdpCommand.CheckLimit::new);
    }
    if (body.startsWith(GET_STATS)) {
      return singleLineArgument(body, GET_STATS).map(UdpCommand.GetStats::new);
    }
    if (body.equals(GET_SIZE)) {
      return Optional.of(new UdpCommand.GetSize());
    }
    if (body.equals(PING)) {
      return Optional.of(new UdpCommand.Ping());
    }
    return Optional.empty();
  }

  /**
   * The rest of the body after the command word and its space, as Perl's {@code /^cmd (.*)$/}
   * captures it: {@code .} does not match a newline and {@code $} also matches just before a final
   * newline. So one trailing {@code \n} is dropped, and any other newline means no match.
   */
  private static Optional<String> singleLineArgument(String body, String commandAndSpace) {
    int end = body.length();
    if (end > commandAndSpace.length() && body.charAt(end - 1) == '\n') {
      end--;
    }
    String argument = body.substring(commandAndSpace.length(), end);
    return argument.indexOf('\n') >= 0 ? Optional.empty() : Optional.of(argument);
  }

  private static int leadingAsciiDigits(String text) {
    int count = 0;
    while (count < text.length() && text.charAt(count) >= '0' && text.charAt(count) <= '9') {
      count++;
    }
    return count;
  }
}
