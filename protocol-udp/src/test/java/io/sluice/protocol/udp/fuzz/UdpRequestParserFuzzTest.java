package io.sluice.protocol.udp.fuzz;

import io.sluice.protocol.udp.wire.UdpRequestParser;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The UDP text parser against any datagram, and against datagrams made of the protocol's own words
 * (which reach its deeper paths): a request or none, never an exception.
 */
class UdpRequestParserFuzzTest {

  private final UdpRequestParser parser = new UdpRequestParser(UdpRequestParser.DEFAULT_MAX_DATAGRAM_BYTES);

  @Property
  void anyBytesParseOrAreIgnored(@ForAll @Size(max = 1500) byte[] datagram) {
    assertThat(parser.parse(datagram)).isNotNull();
  }

  @Property
  void wordsOfTheProtocolParseOrAreIgnored(@ForAll("datagrams") String datagram) {
    assertThat(parser.parse(datagram.getBytes(StandardCharsets.ISO_8859_1))).isNotNull();
  }

  @Provide
  Arbitrary<String> datagrams() {
    Arbitrary<String> words = Arbitraries.oneOf(
        Arbitraries.of("over_limit", "check_limit", "get_stats", "get_size", "ping", "ws", "ip=1.2.3.4", "{", "}",
            "[", "]", "\"", ":", ",", "\"keys\"", "\"limit\"", "null", "1", "-1", "99999999999999999999", "1e309",
            " ", "  ", "\t", "\n", "\u00ff"),
        Arbitraries.strings().ofMaxLength(12),
        Arbitraries.integers().map(String::valueOf));
    return words.list().ofMaxSize(30).map(parts -> String.join("", parts));
  }
}
