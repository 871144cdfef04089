package io.sluice.gateway.accuracy;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OverAdmissionTest {

  private static final long SECOND = 1_000_000_000L;
  private final OverAdmission tenPerSecond = new OverAdmission(10, Duration.ofSeconds(1), 5 * SECOND);

  private static List<Grant> grants(String key, int node, long fromNanos, int count, long stepNanos) {
    List<Grant> grants = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      grants.add(new Grant(fromNanos + i * stepNanos, fromNanos + i * stepNanos, node, key));
    }
    return grants;
  }

  @Test
  void grantsWithinTheLimitAreExact() {
    OverAdmission.Report report = tenPerSecond.check(grants("a", 0, 5 * SECOND, 10, 1_000));
    assertThat(report.excess()).isZero();
    assertThat(report.granted()).isEqualTo(10);
    assertThat(report.windows()).singleElement().satisfies(window -> assertThat(window.startNanos()).isEqualTo(5 * SECOND));
  }

  @Test
  void everyGrantBeyondTheLimitInAWindowIsExcess() {
    List<Grant> grants = new ArrayList<>(grants("a", 0, 5 * SECOND, 8, 1_000));
    grants.addAll(grants("a", 1, 5 * SECOND + 500, 7, 1_000));
    assertThat(tenPerSecond.check(grants).excess()).isEqualTo(5);
  }

  @Test
  void windowsAreTiledFromTheOriginAndCountedApart() {
    List<Grant> grants = new ArrayList<>(grants("a", 0, 5 * SECOND + SECOND / 2, 12, 1_000));
    grants.addAll(grants("a", 0, 6 * SECOND, 11, 1_000)); // the next window starts at exactly origin + 1 s
    OverAdmission.Report report = tenPerSecond.check(grants);
    assertThat(report.windows()).extracting(OverAdmission.Window::excess).containsExactly(2L, 1L);
    assertThat(report.windows()).extracting(OverAdmission.Window::startNanos).containsExactly(5 * SECOND, 6 * SECOND);
  }

  @Test
  void keysAreLimitedApart() {
    List<Grant> grants = new ArrayList<>(grants("a", 0, 5 * SECOND, 10, 1_000));
    grants.addAll(grants("b", 0, 5 * SECOND, 13, 1_000));
    OverAdmission.Report report = tenPerSecond.check(grants);
    assertThat(report.of("a").excess()).isZero();
    assertThat(report.of("b").excess()).isEqualTo(3);
  }

  @Test
  void theExcessAfterAMarkIsTheLatestGrantsBeyondTheLimit() {
    // arrival order decides, not list order: the list is shuffled by node
    List<Grant> grants = new ArrayList<>(grants("a", 1, 5 * SECOND + 100, 6, 1_000));
    grants.addAll(grants("a", 0, 5 * SECOND, 6, 1_000));
    grants.addAll(grants("a", 2, 5 * SECOND + 20_000, 3, 1_000));
    OverAdmission.Report report = tenPerSecond.check(grants, 5 * SECOND + 20_000);
    assertThat(report.excess()).isEqualTo(5);
    assertThat(report.excessAfter()).as("the 3 grants from the mark on, all beyond the limit").isEqualTo(3);
  }

  @Test
  void perNodeCountsWhoAdmittedWhat() {
    List<Grant> grants = new ArrayList<>(grants("a", 2, 5 * SECOND, 4, 1));
    grants.addAll(grants("b", 0, 5 * SECOND, 1, 1));
    assertThat(OverAdmission.perNode(grants)).isEqualTo(Map.of(0, 1L, 2, 4L));
  }

  @Test
  void aGrantBeforeTheOriginOrANonsenseLimitIsRefused() {
    assertThatThrownBy(() -> tenPerSecond.check(List.of(new Grant(SECOND, SECOND, 0, "a"))))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("before the origin");
    assertThatThrownBy(() -> new OverAdmission(5, Duration.ZERO, 0)).isInstanceOf(IllegalArgumentException.class);
  }
}
