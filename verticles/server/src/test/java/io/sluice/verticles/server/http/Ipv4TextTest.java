package io.sluice.verticles.server.http;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** The guard's hand-written IPv4 test says what the regular expression it replaced said. */
class Ipv4TextTest {

  private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

  @ParameterizedTest
  @ValueSource(strings = {"127.0.0.1", "10.1.2.3", "999.999.999.999", "1.2.3.4", "0.0.0.0", "1.2.3", "1.2.3.4.5",
      "1..2.3", ".1.2.3", "1.2.3.", "1234.1.1.1", "1.2.3.4a", "a.b.c.d", "", "localhost", "evil.example",
      "1.2.3.04", "１.2.3.4", "12.34.56.789", "1.2.3.4 "})
  void agreesWithTheRegularExpression(String host) {
    assertThat(RequestGuard.isIpv4(host)).isEqualTo(IPV4.matcher(host).matches());
  }
}
