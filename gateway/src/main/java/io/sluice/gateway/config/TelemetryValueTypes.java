package io.sluice.gateway.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/** The value types of the tracing options: where spans go, and what share of traces is kept. */
final class TelemetryValueTypes {

  private TelemetryValueTypes() {
  }

  /** An absolute {@code http://} or {@code https://} URL with a host (an OTLP/HTTP endpoint). */
  static ValueType<URI> httpUrl() {
    return new ValueType<>("http:// or https:// URL", TelemetryValueTypes::parseHttpUrl, URI::toString);
  }

  private static URI parseHttpUrl(String text) {
    URI url;
    try {
      url = new URI(text.trim());
    } catch (URISyntaxException invalid) {
      throw new IllegalArgumentException("not a valid URL: " + invalid.getReason());
    }
    String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("http") && !scheme.equals("https") || url.getHost() == null) {
      throw new IllegalArgumentException("expected an http:// or https:// URL with a host, e.g. http://127.0.0.1:4318/v1/traces");
    }
    return url;
  }

  /** A fraction from 0 (none) to 1 (all), as a decimal number. */
  static ValueType<Double> ratio() {
    return new ValueType<>("0..1", TelemetryValueTypes::parseRatio, String::valueOf);
  }

  private static double parseRatio(String text) {
    double ratio;
    try {
      ratio = Double.parseDouble(text.trim());
    } catch (NumberFormatException notANumber) {
      throw new IllegalArgumentException("expected a number from 0 to 1, e.g. 0.1");
    }
    // Written so that NaN fails it too.
    if (!(ratio >= 0 && ratio <= 1)) {
      throw new IllegalArgumentException("expected a number from 0 to 1, e.g. 0.1");
    }
    return ratio;
  }
}
