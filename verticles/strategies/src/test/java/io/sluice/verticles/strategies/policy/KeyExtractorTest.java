package io.sluice.verticles.strategies.policy;

import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class KeyExtractorTest {

  /** A request made of plain values. */
  private record Facts(String param, Map<String, String> headers, String clientIp, String path) implements RequestFacts {
    Facts {
      Map<String, String> caseless = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
      caseless.putAll(headers);
      headers = caseless;
    }

    @Override
    public String header(String name) {
      return headers.get(name);
    }
  }

  private static final Facts REQUEST = new Facts("alice", Map.of("X-Api-Key", "k1", "X-Real-IP", "203.0.113.9"),
      "10.0.0.1", "/api/users/7");

  @Test
  void eachSourceReadsItsPartOfTheRequest() {
    assertThat(KeyExtractor.of("param").keyOf(REQUEST)).isEqualTo("alice");
    assertThat(KeyExtractor.of("header:x-api-key").keyOf(REQUEST)).isEqualTo("k1");
    assertThat(KeyExtractor.of("client-ip").keyOf(REQUEST)).isEqualTo("10.0.0.1");
    assertThat(KeyExtractor.of("path:1").keyOf(REQUEST)).isEqualTo("api");
    assertThat(KeyExtractor.of("path:3").keyOf(REQUEST)).isEqualTo("7");
    assertThat(KeyExtractor.of("path:4").keyOf(REQUEST)).isNull();
    assertThat(KeyExtractor.of("literal:all").keyOf(REQUEST)).isEqualTo("all");
  }

  @Test
  void alternativesTakeTheFirstPresentAndPartsAreJoinedWithColons() {
    Facts noParam = new Facts(null, Map.of("X-Api-Key", "k1"), "10.0.0.1", null);
    assertThat(KeyExtractor.of("param | header:X-Api-Key").keyOf(REQUEST)).isEqualTo("alice");
    assertThat(KeyExtractor.of("param | header:X-Api-Key").keyOf(noParam)).isEqualTo("k1");
    assertThat(KeyExtractor.of("header:X-Real-IP | client-ip", "path:2").keyOf(REQUEST)).isEqualTo("203.0.113.9:users");
    assertThat(KeyExtractor.of("header:X-Real-IP | client-ip", "path:2").keyOf(noParam))
        .as("no path: the whole key is missing").isNull();
    assertThat(KeyExtractor.of("header:X-Real-IP | client-ip").keyOf(new Facts(null, Map.of("X-Real-IP", " "), "10.0.0.1", null)))
        .as("a blank header counts as absent").isEqualTo("10.0.0.1");
  }

  @Test
  void pathSegmentsSkipEmptyOnes() {
    Facts slashes = new Facts(null, Map.of(), null, "//a///b/");
    assertThat(KeyExtractor.of("path:1").keyOf(slashes)).isEqualTo("a");
    assertThat(KeyExtractor.of("path:2").keyOf(slashes)).isEqualTo("b");
    assertThat(KeyExtractor.of("path:3").keyOf(slashes)).isNull();
  }

  @Test
  void spellingRoundTrips() {
    assertThat(KeyExtractor.of("param|header:X-Api-Key").spelling()).isEqualTo("param | header:X-Api-Key");
    assertThat(KeyExtractor.of("header:X-Real-IP | client-ip", "path:1").spelling())
        .isEqualTo("[header:X-Real-IP | client-ip, path:1]");
    assertThat(KeyExtractor.of("literal:x").acceptsParam()).isFalse();
    assertThat(KeyExtractor.of("literal:x | param").acceptsParam()).isTrue();
  }

  @Test
  void badSpellingsSayWhatIsAccepted() {
    assertThatThrownBy(() -> KeyExtractor.of("cookie:sid")).hasMessageContaining(
        "unknown key source 'cookie:sid'; use param, header:NAME, client-ip, path:N or literal:TEXT");
    assertThatThrownBy(() -> KeyExtractor.of("header:")).hasMessageContaining("header needs a header name");
    assertThatThrownBy(() -> KeyExtractor.of("header:X Api")).hasMessageContaining("not a valid header name");
    assertThatThrownBy(() -> KeyExtractor.of("path:0")).hasMessageContaining("segment number from 1 to 999");
    assertThatThrownBy(() -> KeyExtractor.of("param:x")).hasMessageContaining("param takes no argument");
    assertThatThrownBy(() -> KeyExtractor.of("param |")).hasMessageContaining("empty alternative");
  }
}
