package io.sluice.protocol.udp.wire;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class UdpRequestParserTest {

  private final UdpRequestParser parser = new UdpRequestParser();

  private Optional<UdpRequest> parse(String datagram) {
    return parser.parse(datagram.getBytes(StandardCharsets.ISO_8859_1));
  }

  private UdpCommand command(String datagram) {
    return parse(datagram).orElseThrow().command();
  }

  @Test
  void theFiveCommands() {
    assertThat(command("over_limit ws ip=1.2.3.4")).isEqualTo(new UdpCommand.OverLimit("ws ip=1.2.3.4"));
    assertThat(command("check_limit {\"ip\":\"1.2.3.4\"}")).isEqualTo(new UdpCommand.CheckLimit("{\"ip\":\"1.2.3.4\"}"));
    assertThat(command("get_stats ws global")).isEqualTo(new UdpCommand.GetStats("ws global"));
    assertThat(command("get_size")).isEqualTo(new UdpCommand.GetSize());
    assertThat(command("ping")).isEqualTo(new UdpCommand.Ping());
  }

  @Test
  void keysAreEverythingAfterTheFirstSpaceIncludingSpacesAndEmptiness() {
    assertThat(command("over_limit ws ua=Mozilla/5.0 (X11; Linux)")).isEqualTo(new UdpCommand.OverLimit("ws ua=Mozilla/5.0 (X11; Linux)"));
    assertThat(command("over_limit  two leading")).isEqualTo(new UdpCommand.OverLimit(" two leading"));
    assertThat(command("over_limit ")).isEqualTo(new UdpCommand.OverLimit(""));
    assertThat(command("get_stats ")).isEqualTo(new UdpCommand.GetStats(""));
    assertThat(command("over_limit trailing  ")).isEqualTo(new UdpCommand.OverLimit("trailing  "));
    assertThat(command("over_limit a\rb")).isEqualTo(new UdpCommand.OverLimit("a\rb"));
  }

  @Test
  void oneTrailingNewlineIsToleratedForKeyedCommands() {
    assertThat(command("over_limit ws ip=1.2.3.4\n")).isEqualTo(new UdpCommand.OverLimit("ws ip=1.2.3.4"));
    assertThat(command("check_limit {}\n")).isEqualTo(new UdpCommand.CheckLimit("{}"));
    assertThat(command("get_stats k\n")).isEqualTo(new UdpCommand.GetStats("k"));
    assertThat(command("over_limit \n")).isEqualTo(new UdpCommand.OverLimit(""));
  }

  /** spec §2, §9 and §13.1 "fussiness": every one of these gets no reply. */
  @ParameterizedTest
  @ValueSource(strings = {
      "", "PING", " ping", "ping ", "ping\n", "ping\r", "pong", "Ping",
      "get_size ", "get_size\n", "get_sizes", "GET_SIZE",
      "over_limit", "get_stats", "check_limit", "over_limit\n", "over_limitx", "Over_limit k",
      "over_limit a\nb", "over_limit a\n\n", "over_limit \n\n", "get_stats a\nb", "check_limit {}\n{}",
      "no_such_command", "123", "123 ", "12 34 ping", "123  ping", " 123 ping", "123\tping", "-1 ping",
      "\nping", "ping\0",
  })
  void noReplyForAnythingElse(String datagram) {
    assertThat(parse(datagram)).isEmpty();
  }

  @Test
  void requestIdIsKeptVerbatim() {
    assertThat(parse("27823 ping")).contains(new UdpRequest("27823", new UdpCommand.Ping()));
    assertThat(parse("000867465 ping")).contains(new UdpRequest("000867465", new UdpCommand.Ping()));
    assertThat(parse("394769760968709384567 ping")).contains(new UdpRequest("394769760968709384567", new UdpCommand.Ping()));
    assertThat(parse("0 over_limit k")).contains(new UdpRequest("0", new UdpCommand.OverLimit("k")));
    assertThat(parse("ping")).contains(new UdpRequest(null, new UdpCommand.Ping()));
    assertThat(parse("ping").orElseThrow().hasRequestId()).isFalse();
  }

  @Test
  void onlyOneIdIsStrippedAndTheBodyKeepsItsNewlines() {
    assertThat(parse("12 34 ping")).isEmpty();
    assertThat(parse("12 over_limit 34 k")).contains(new UdpRequest("12", new UdpCommand.OverLimit("34 k")));
    assertThat(parse("7 over_limit k\n")).contains(new UdpRequest("7", new UdpCommand.OverLimit("k")));
    assertThat(parse("7 \nping")).isEmpty();
  }

  @Test
  void keysAreOpaqueBytes() {
    byte[] datagram = {'o', 'v', 'e', 'r', '_', 'l', 'i', 'm', 'i', 't', ' ', (byte) 0xC3, (byte) 0xA9, (byte) 0xFF, 0, '\r'};
    UdpCommand.OverLimit overLimit = (UdpCommand.OverLimit) parser.parse(datagram).orElseThrow().command();
    assertThat(overLimit.key()).isEqualTo("\u00C3\u00A9\u00FF\u0000\r");
    assertThat(overLimit.key().getBytes(StandardCharsets.ISO_8859_1)).containsExactly(0xC3, 0xA9, 0xFF, 0, '\r');
  }

  @Test
  void onlyTheFirst1000BytesCount() {
    String prefix = "over_limit ";
    String key = "k".repeat(1000 - prefix.length());
    assertThat(command(prefix + key + "IGNORED")).isEqualTo(new UdpCommand.OverLimit(key));
    // a newline beyond the cut does not matter; one inside does
    assertThat(command(prefix + key + "\nmore")).isEqualTo(new UdpCommand.OverLimit(key));
    assertThat(parse(prefix + key.substring(1) + "\n" + "x")).contains(
        new UdpRequest(null, new UdpCommand.OverLimit(key.substring(1))));
    // "ping" followed by junk at byte 1001 is still exactly "ping" after the cut
    assertThat(command("9".repeat(995) + " ping" + "junk")).isEqualTo(new UdpCommand.Ping());
    assertThat(parse("9".repeat(996) + " ping")).isEmpty();
  }

  @Test
  void theCutIsConfigurable() {
    UdpRequestParser small = new UdpRequestParser(6);
    assertThat(small.parse("ping and more".getBytes(StandardCharsets.ISO_8859_1))).isEmpty();
    assertThat(small.parse("1 ping junk".getBytes(StandardCharsets.ISO_8859_1)))
        .contains(new UdpRequest("1", new UdpCommand.Ping()));
    assertThat(small.maxDatagramBytes()).isEqualTo(6);
    assertThatThrownBy(() -> new UdpRequestParser(0)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void parsesASliceOfABuffer() {
    byte[] buffer = "xxpingyy".getBytes(StandardCharsets.ISO_8859_1);
    assertThat(parser.parse(buffer, 2, 4)).contains(new UdpRequest(null, new UdpCommand.Ping()));
    assertThat(Arrays.copyOf(buffer, 2)).containsExactly('x', 'x');
  }
}
