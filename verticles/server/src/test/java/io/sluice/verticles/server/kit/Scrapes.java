package io.sluice.verticles.server.kit;

import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

/** Reading /metrics (the Prometheus text format) over a real socket. */
public final class Scrapes {

  private Scrapes() {
  }

  public static String scrape(HttpCalls http) {
    HttpCalls.Answer answer = http.get("/metrics");
    assertThat(answer.status()).isEqualTo(200);
    return answer.body();
  }

  /** The first line starting with {@code prefix} (a series name, with its labels as far as given). */
  public static String line(String scrape, String prefix) {
    return Arrays.stream(scrape.split("\n")).filter(l -> l.startsWith(prefix)).findFirst()
        .orElseThrow(() -> new AssertionError("no series " + prefix + " in:\n" + scrape));
  }

  /** The value of the first series starting with {@code prefix}. */
  public static double value(String scrape, String prefix) {
    String line = line(scrape, prefix);
    return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
  }
}
