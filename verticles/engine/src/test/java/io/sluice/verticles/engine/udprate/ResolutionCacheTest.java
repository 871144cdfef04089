package io.sluice.verticles.engine.udprate;

import io.sluice.protocol.udp.rulefile.MusicBrainzRulesFile;
import io.sluice.protocol.udp.rules.KeyResolution;
import io.sluice.protocol.udp.rules.RuleSet;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.sluice.protocol.udp.rules.KeySemantics.BYTES;
import static io.sluice.protocol.udp.rules.KeySemantics.UNICODE;
import static org.assertj.core.api.Assertions.assertThat;

class ResolutionCacheTest {

  private static final RuleSet RULES = MusicBrainzRulesFile.load();

  @Test
  void decidesWhatTheRuleSetDecides() {
    ResolutionCache cache = new ResolutionCache(RULES, 4);
    for (String key : List.of("ws ip=1.2.3.4", "ws ua=python-musicbrainz/0.7.3", "ws global", "cover art", "ws ua=",
        "ws ip=1.2.3.4", "ws global")) {
      assertThat(cache.resolve(key, BYTES)).isEqualTo(RULES.resolve(key, BYTES));
      assertThat(cache.resolve(key, UNICODE)).isEqualTo(RULES.resolve(key, UNICODE));
    }
  }

  @Test
  void aKeySeenAgainIsNotResolvedAgain() {
    ResolutionCache cache = new ResolutionCache(RULES, 4);
    KeyResolution first = cache.resolve("ws ip=1.2.3.4", BYTES);
    assertThat(cache.resolve("ws ip=1.2.3.4", BYTES)).isSameAs(first);
    // The semantics are part of the decision: the same text under Unicode rules is resolved apart.
    assertThat(cache.resolve("ws ip=1.2.3.4", UNICODE)).isNotSameAs(first);
  }

  @Test
  void holdsAtMostTwoGenerationsAndKeepsTheKeysInUse() {
    ResolutionCache cache = new ResolutionCache(RULES, 100);
    KeyResolution hot = cache.resolve("ws ip=10.0.0.1", BYTES);
    for (int i = 0; i < 10_000; i++) {
      cache.resolve("ws ip=198.18." + i / 256 + "." + i % 256, BYTES);
      assertThat(cache.size()).isLessThanOrEqualTo(200);
      if (i % 50 == 0) {
        assertThat(cache.resolve("ws ip=10.0.0.1", BYTES)).isSameAs(hot);
      }
    }
  }

  @Test
  void longKeysAreResolvedEveryTime() {
    ResolutionCache cache = new ResolutionCache(RULES, 4);
    String longKey = "ws ua=" + "x".repeat(ResolutionCache.MAX_CACHED_KEY_LENGTH);
    KeyResolution first = cache.resolve(longKey, BYTES);
    assertThat(cache.resolve(longKey, BYTES)).isEqualTo(first).isNotSameAs(first);
    assertThat(cache.size()).isZero();
  }
}
