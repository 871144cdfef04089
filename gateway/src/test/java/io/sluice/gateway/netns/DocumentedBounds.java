package io.sluice.gateway.netns;

import io.sluice.gateway.accuracy.OverAdmission;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What docs/cluster.md promises about a limit's accuracy in a cluster, in one place: each scenario
 * asserts through these, so a change of the promise is a change here (and in the docs) only.
 */
final class DocumentedBounds {

  private DocumentedBounds() {
  }

  /** With no fault a limit is exact: as many grants as the limit, none beyond, with more demand than that. */
  static void noFault(OverAdmission.Report report, long limit) {
    assertThat(report.excess()).as("grants beyond the limit with no fault").isZero();
    assertThat(report.granted()).as("grants with more demand than the limit, no fault").isEqualTo(limit);
  }

  /** After a kill -9 of an owner: at most the grants of one replication lag (those its backup never saw). */
  static void afterKill(OverAdmission.Report report, long grantsWithinOneLag) {
    assertThat(report.excess()).as("grants beyond the limit after a kill -9 of the owner").isLessThanOrEqualTo(grantsWithinOneLag);
  }

  /** During a split each side may count a key apart: up to twice as permissive, a whole limit beyond. */
  static void split(OverAdmission.Report report, long limit) {
    assertThat(report.excess()).as("grants beyond the limit across a split").isLessThanOrEqualTo(limit);
  }

  /**
   * At the heal each key goes on from the copy that consumed more: no quota is handed out afresh,
   * and the join counts only the larger side's use, so a limit's grants beyond it are at most the
   * grants of the split itself, those served from the copy apart until the two copies were joined
   * ({@code grantsApart}); so are those admitted after the heal.
   */
  static void afterHeal(OverAdmission.Report report, long grantsApart) {
    assertThat(report.excessAfter()).as("grants admitted after the heal beyond the limit").isLessThanOrEqualTo(grantsApart);
    assertThat(report.excess()).as("grants beyond the limit, the split and its heal").isLessThanOrEqualTo(grantsApart);
  }
}
