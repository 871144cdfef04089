package io.sluice.gateway.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.net.URI;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TelemetryValueTypesTest {

  @ParameterizedTest
  @ValueSource(strings = {"http://127.0.0.1:4318/v1/traces", "https://otel.example.com/v1/traces", "HTTP://collector:4318"})
  void httpUrlTakesHttpAndHttpsUrlsWithAHost(String url) {
    assertThat(TelemetryValueTypes.httpUrl().parse(url)).isEqualTo(URI.create(url));
  }

  @ParameterizedTest
  @ValueSource(strings = {"127.0.0.1:4318", "grpc://collector:4317", "http:///v1/traces", "/v1/traces", "http://a b", ""})
  void httpUrlRefusesOthersSayingWhatItExpects(String url) {
    assertThatIllegalArgumentException().isThrownBy(() -> TelemetryValueTypes.httpUrl().parse(url))
        .withMessageContaining("URL");
  }

  @ParameterizedTest
  @ValueSource(strings = {"0", "0.25", "1", "1.0", " 0.5 "})
  void ratioTakesNumbersFromZeroToOne(String ratio) {
    assertThat(TelemetryValueTypes.ratio().parse(ratio)).isBetween(0.0, 1.0);
  }

  @ParameterizedTest
  @ValueSource(strings = {"-0.1", "1.01", "NaN", "half", "", "Infinity"})
  void ratioRefusesTheRest(String ratio) {
    assertThatIllegalArgumentException().isThrownBy(() -> TelemetryValueTypes.ratio().parse(ratio))
        .withMessage("expected a number from 0 to 1, e.g. 0.1");
  }
}
