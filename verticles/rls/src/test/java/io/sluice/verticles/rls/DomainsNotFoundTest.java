package io.sluice.verticles.rls;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The domain label of domain_not_found is the client's to choose: past
 * {@link DomainsNotFound#MAX_DOMAINS} domains, the rest count under {@link RlsStats#OTHER}, and no
 * further series is made.
 */
class DomainsNotFoundTest {

  @Test
  void domainsPastTheBoundCountUnderOther() {
    List<String> registered = new ArrayList<>();
    RlsStats stats = new RlsStats(counts -> { }, count -> registered.add(count.domain()));
    DomainsNotFound notFound = stats.domainsNotFound();

    for (int i = 0; i < DomainsNotFound.MAX_DOMAINS + 50; i++) {
      notFound.count("made-up-" + i, 2);
    }
    notFound.count("made-up-0", 1);

    assertThat(registered).hasSize(DomainsNotFound.MAX_DOMAINS + 1).contains(RlsStats.OTHER);
    assertThat(notFound.all()).hasSize(DomainsNotFound.MAX_DOMAINS + 1);
    assertThat(count(notFound, "made-up-0")).isEqualTo(3);
    assertThat(count(notFound, RlsStats.OTHER)).as("50 domains of 2 descriptors each").isEqualTo(100);
  }

  private static long count(DomainsNotFound notFound, String domain) {
    return notFound.all().stream().filter(c -> c.domain().equals(domain)).findFirst().orElseThrow().descriptors();
  }
}
