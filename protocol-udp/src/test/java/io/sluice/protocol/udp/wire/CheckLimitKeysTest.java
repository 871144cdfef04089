package io.sluice.protocol.udp.wire;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CheckLimitKeysTest {

  private static List<String> keys(String json) throws MalformedCheckLimitException {
    return CheckLimitKeys.derive(new String(json.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1));
  }

  @Test
  void uaIpGlobalInThisOrder() throws Exception {
    assertThat(keys("{\"ua\":\"foo/1.0\",\"ip\":\"1.2.3.4\",\"origin\":\"ws\"}"))
        .containsExactly("ws ua=foo/1.0", "ws ip=1.2.3.4", "ws global");
  }

  @Test
  void missingOrNullMembers() throws Exception {
    assertThat(keys("{}")).containsExactly("unspecified ua=", "unspecified ip=", "unspecified global");
    assertThat(keys("null")).containsExactly("unspecified ua=", "unspecified ip=", "unspecified global");
    assertThat(keys(" \n null \t")).containsExactly("unspecified ua=", "unspecified ip=", "unspecified global");
    assertThat(keys("{\"origin\":null,\"ua\":null,\"ip\":null}"))
        .containsExactly("unspecified ua=", "unspecified ip=", "unspecified global");
    assertThat(keys("{\"origin\":\"\",\"ip\":\"1.2.3.4\"}")).containsExactly(" ua=", " ip=1.2.3.4", " global");
  }

  @Test
  void lastDuplicateWinsAndOtherMembersAreIgnored() throws Exception {
    assertThat(keys("{\"ip\":\"1.1.1.1\",\"ip\":\"2.2.2.2\",\"x\":[1,{\"y\":2}],\"origin\":\"search\"}"))
        .containsExactly("search ua=", "search ip=2.2.2.2", "search global");
  }

  @Test
  void stringsAreDecodedText() throws Exception {
    assertThat(keys("{\"ua\":\"caf\\u00e9 \u20ac \\ud83d\\ude00 \\\"q\\\" \\n\"}").get(0))
        .isEqualTo("unspecified ua=café € \uD83D\uDE00 \"q\" \n");
  }

  @ParameterizedTest(name = "{0} → {1}")
  @CsvSource(delimiter = '|', value = {
      "true | 1",
      "false | 0",
      "12 | 12",
      "-0 | 0",
      "18446744073709551617 | 18446744073709551617",
      "12.50 | 12.5",
      "1.0 | 1",
      "-0.0 | 0",
      "1E2 | 100",
      "0.1 | 0.1",
      "1e-5 | 1e-05",
      "0.000012345 | 1.2345e-05",
      "1.5e15 | 1.5e+15",
      "123456789.0 | 123456789",
      "-1.5e300 | -1.5e+300",
      "1e400 | Inf",
      "99999999999999999999.5 | 1e+20",
      "[1, 2] | [1,2]",
      "{\"a\" : \"b\"} | {\"a\":\"b\"}",
  })
  void nonStringValuesBecomeText(String json, String text) throws Exception {
    assertThat(keys("{\"origin\":" + json + "}").get(2)).isEqualTo(text + " global");
  }

  @Test
  void falseOriginIsZeroNotUnspecified() throws Exception {
    assertThat(keys("{\"origin\":false}")).containsExactly("0 ua=", "0 ip=", "0 global");
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "", " ", "{bad json", "{\"ua\": \"x\"", "[1,2]", "\"x\"", "5", "true", "{} {}", "{} x", "{}}", "nul",
      "{'a':1}", "{\"a\":01}", "{\"a\":NaN}", "{\"a\":\"\u0001\"}", "{\"a\":\"\\ud800\"}", "{\"a\":\"\\udc00x\"}",
      "\uFEFF{}", "{\"a\":1,}", "/* c */ {}",
  })
  void malformedArguments(String json) {
    assertThatThrownBy(() -> keys(json)).isInstanceOf(MalformedCheckLimitException.class);
  }

  @Test
  void invalidUtf8IsMalformed() {
    String bytes = "{\"ua\":\"\u00C3\u0028\"}";
    assertThatThrownBy(() -> CheckLimitKeys.derive(bytes))
        .isInstanceOf(MalformedCheckLimitException.class)
        .hasMessageContaining("UTF-8");
  }

  @Test
  void perlFloatTextIsPercentFifteenG() {
    assertThat(CheckLimitKeys.perlFloatText(0.1 + 0.2)).isEqualTo("0.3");
    assertThat(CheckLimitKeys.perlFloatText(Math.pow(2, 52))).isEqualTo("4.5035996273705e+15");
    assertThat(CheckLimitKeys.perlFloatText(1e15)).isEqualTo("1e+15");
    assertThat(CheckLimitKeys.perlFloatText(999999999999999.0)).isEqualTo("999999999999999");
    assertThat(CheckLimitKeys.perlFloatText(0.0001)).isEqualTo("0.0001");
    assertThat(CheckLimitKeys.perlFloatText(1.0 / 3)).isEqualTo("0.333333333333333");
    assertThat(CheckLimitKeys.perlFloatText(Double.NaN)).isEqualTo("NaN");
  }
}
