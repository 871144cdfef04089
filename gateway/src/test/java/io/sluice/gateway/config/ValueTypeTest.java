package io.sluice.gateway.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import io.sluice.protocol.binary.codec.ValueSize;
import io.sluice.verticles.engine.persist.FsyncPolicy;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ValueTypeTest {

  @ParameterizedTest
  @ValueSource(strings = {"127.0.0.1", "0.0.0.0", "255.255.255.255", "::", "::1", "fe80::1%1",
      "2001:db8::8a2e:370:7334", "localhost", "gateway-1.internal", "example.com.", "a"})
  void hostAcceptsAddressLiteralsAndHostNames(String host) {
    assertThat(ValueType.host().parse(host)).isEqualTo(host);
  }

  @Test
  void hostStripsIpv6BracketsAndSpaces() {
    assertThat(ValueType.host().parse("[::1]")).isEqualTo("::1");
    assertThat(ValueType.host().parse(" localhost ")).isEqualTo("localhost");
  }

  @ParameterizedTest
  @ValueSource(strings = {"256.1.1.1", "1.2.3", "1.2.3.4.5", "1..2.3", "1:2:3:4:5:6:7:8:9", "gg::1",
      "-leading.example", "trailing-.example", "under_score", "two words", "[]", "a..b", "http://x"})
  void hostRejectsMalformedAddresses(String host) {
    assertThatIllegalArgumentException().isThrownBy(() -> ValueType.host().parse(host));
  }

  @Test
  void hostsAreACommaListOfHostsOrAStar() {
    assertThat(ValueType.hosts().parse(" sluice.example.com, 10.0.0.1,,[::1] ")).containsExactly("sluice.example.com",
        "10.0.0.1", "::1");
    assertThat(ValueType.hosts().parse("*")).containsExactly("*");
    assertThat(ValueType.hosts().format(List.of("a.example", "b.example"))).isEqualTo("a.example,b.example");
  }

  @ParameterizedTest
  @ValueSource(strings = {"http://sluice.example", "sluice.example:8080", "sluice.example/", "a..b"})
  void hostsRejectSchemesPortsAndPaths(String hosts) {
    assertThatIllegalArgumentException().isThrownBy(() -> ValueType.hosts().parse(hosts));
  }

  @Test
  void integersAreDecimalAndTrimmed() {
    assertThat(ValueType.integer(0, 10).parse(" 7 ")).isEqualTo(7);
    assertThat(ValueType.integer(-5, 10).parse("-5")).isEqualTo(-5);
    assertThat(ValueType.integer(0, 10).parse("+3")).isEqualTo(3);
  }

  @ParameterizedTest
  @ValueSource(strings = {"", " ", "1e3", "0x10", "1_000", "1.0", "99999999999999999999", "ten"})
  void integersRejectEverythingElse(String text) {
    assertThatIllegalArgumentException().isThrownBy(() -> ValueType.integer(0, Integer.MAX_VALUE).parse(text))
        .withMessage("expected an integer in 0..2147483647");
  }

  @Test
  void durationsTakeAUnitAndFormatInTheLargestWholeOne() {
    assertThat(ValueType.duration().parse(" 5m ")).isEqualTo(java.time.Duration.ofMinutes(5));
    assertThat(ValueType.duration().parse("1500ms")).isEqualTo(java.time.Duration.ofMillis(1500));
    assertThat(ValueType.duration().format(java.time.Duration.ofHours(2))).isEqualTo("2h");
    assertThat(ValueType.duration().format(java.time.Duration.ofMillis(1500))).isEqualTo("1500ms");
    assertThatThrownBy(() -> ValueType.duration().parse("5")).hasMessage(
        "expected a duration that is a positive duration with a unit (500ms, 10s, 5m, 1h, 1d)");
    assertThatThrownBy(() -> ValueType.duration().parse("0s")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ValueType.duration().parse("999999999999999999d")).hasMessage(
        "expected a duration that is too long (at most about 292 years)");
  }

  @Test
  void fsyncIsOneOfThreePolicies() {
    assertThat(ValueType.fsyncPolicy().parse("Always")).isEqualTo(FsyncPolicy.ALWAYS);
    assertThat(ValueType.fsyncPolicy().format(FsyncPolicy.EVERYSEC)).isEqualTo("everysec");
    assertThatThrownBy(() -> ValueType.fsyncPolicy().parse("sometimes")).hasMessage("expected always, everysec or no");
  }

  @Test
  void valueSizeUsesTheCodecSpellingInAnyCase() {
    assertThat(ValueType.valueSize().parse("Uint32")).isEqualTo(ValueSize.UINT32);
    assertThat(ValueType.valueSize().format(ValueSize.UINT8)).isEqualTo("uint8");
  }

  @Test
  void tokenRejectsEmptyAndInvisibleCharactersAndIsMaskedWhenFormatted() {
    ValueType<String> token = ValueType.secretToken();

    assertThat(token.parse("Abc-123_~!")).isEqualTo("Abc-123_~!");
    assertThatIllegalArgumentException().isThrownBy(() -> token.parse("")).withMessage("must not be empty");
    assertThatIllegalArgumentException().isThrownBy(() -> token.parse("é")).withMessageStartingWith("character 1 ");
    assertThatIllegalArgumentException().isThrownBy(() -> token.parse("ab\n")).withMessageStartingWith("character 3 ");
    assertThat(token.format("anything")).isEqualTo(Option.MASK);
  }

  @Test
  void booleansAreTrueOrFalse() {
    assertThat(ValueType.bool().parse("TRUE")).isTrue();
    assertThat(ValueType.bool().parse("false")).isFalse();
    assertThatIllegalArgumentException().isThrownBy(() -> ValueType.bool().parse("yes"));
  }

  @Test
  void pathsAreKeptAsGiven() {
    assertThat(ValueType.path().parse("conf/sluice.yaml")).isEqualTo(Path.of("conf/sluice.yaml"));
    assertThatIllegalArgumentException().isThrownBy(() -> ValueType.path().parse("nul\0byte"));
  }

  @Test
  void spellingSuggestsOnlyNearNames() {
    assertThat(Spelling.closest("bnid", List.of("bind", "shards"))).contains("bind");
    assertThat(Spelling.closest("zzzz", List.of("bind", "shards"))).isEmpty();
    assertThat(Spelling.editDistance("kitten", "sitting")).isEqualTo(3);
  }
}
