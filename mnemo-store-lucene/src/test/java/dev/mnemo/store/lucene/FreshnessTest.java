package dev.mnemo.store.lucene;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.mnemo.Authority;
import dev.mnemo.CandidateTrace;
import dev.mnemo.Freshness;
import dev.mnemo.Mnemo;
import dev.mnemo.NewMemory;
import dev.mnemo.Outcome;
import dev.mnemo.RecallRequest;
import dev.mnemo.RecallResult;
import dev.mnemo.testkit.HashingEmbedder;
import dev.mnemo.testkit.MutableClock;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Freshness per fact kind (half-life, maximum age), per store and per request, and never over
 * authority.
 */
class FreshnessTest {
  private static final Instant ASKED = Instant.parse("2026-07-01T00:00:00Z");
  @TempDir Path dir;

  private Mnemo open(Path where, Freshness storeFreshness) {
    Mnemo.Builder b =
        Mnemo.builder()
            .store(LuceneMemoryStore.open(where))
            .embedder(new HashingEmbedder())
            .clock(MutableClock.at("2026-07-01T00:00:00Z"));
    if (storeFreshness != null) b.freshness(storeFreshness);
    return b.build();
  }

  private static NewMemory status(String text, String key, int daysAgo) {
    return NewMemory.builder("u", text)
        .factKey(key)
        .source(key)
        .metadata(Map.of("kind", "status"))
        .recordedAt(ASKED.minus(Duration.ofDays(daysAgo)))
        .build();
  }

  private static RecallResult recall(Mnemo m, Freshness f) {
    return m.recall(
        RecallRequest.builder("u", "What is the status of the Apollo project?")
            .askedAt(ASKED)
            .threshold(0)
            .relativeThreshold(0)
            .freshness(f)
            .explain(true)
            .build());
  }

  private static CandidateTrace candidate(RecallResult r, String source) {
    return r.trace().candidates().stream()
        .filter(c -> c.sources().contains(source))
        .findFirst()
        .orElseThrow();
  }

  @Test
  void kindHalfLife_replacesTheCategorys_andAMaxAgeDropsStaleRecords() {
    try (Mnemo m = open(dir, null)) {
      m.remember(status("The Apollo project status is green.", "fresh", 28));
      m.remember(status("The Apollo project status was blocked.", "stale", 120));

      RecallResult r = recall(m, null);
      // status: half-life 14 days (not the semantic category's 365), maximum age 90 days
      assertThat(candidate(r, "fresh").signals().recency()).isCloseTo(0.25, within(1e-9));
      assertThat(candidate(r, "stale").outcome()).isEqualTo(Outcome.TOO_OLD);
      assertThat(candidate(r, "stale").reason())
          .isEqualTo("age 120 d > max age 90 d of kind 'status'");
      assertThat(r.sourceIds()).containsExactly("fresh");

      // per request, key by key over the store's
      RecallResult longer =
          recall(
              m,
              new Freshness(
                  Map.of("status", Duration.ofDays(28)), Map.of("status", Duration.ofDays(365))));
      assertThat(candidate(longer, "fresh").signals().recency()).isCloseTo(0.5, within(1e-9));
      assertThat(longer.sourceIds()).containsExactlyInAnyOrder("fresh", "stale");
    }
  }

  @Test
  void perStore_freshnessNone_keepsCategoryHalfLivesAndNoMaxAge() {
    try (Mnemo m = open(dir, Freshness.NONE)) {
      m.remember(status("The Apollo project status was blocked.", "stale", 120));
      RecallResult r = recall(m, null);
      assertThat(r.sourceIds()).containsExactly("stale");
      assertThat(candidate(r, "stale").signals().recency())
          .isCloseTo(Math.pow(0.5, 120 / 365.0), within(1e-9));
    }
  }

  @Test
  void freshnessNeverOverridesAuthority_betweenVersionsOfOneFact() {
    try (Mnemo m = open(dir, null)) {
      m.remember(
          NewMemory.builder("u", "The Apollo project status is green.")
              .factKey("apollo")
              .source("verified")
              .authority(Authority.VERIFIED)
              .metadata(Map.of("kind", "status"))
              .recordedAt(ASKED.minus(Duration.ofDays(60)))
              .build());
      m.remember(
          NewMemory.builder("u", "The Apollo project status is red.")
              .factKey("apollo")
              .source("derived")
              .authority(Authority.DERIVED)
              .metadata(Map.of("kind", "status"))
              .recordedAt(ASKED.minus(Duration.ofDays(1)))
              .build());
      // a one-day half-life and a strong recency weight make the derived record's score the higher
      // one
      Freshness shortLived = new Freshness(Map.of("status", Duration.ofDays(1)), Map.of());
      RecallResult r =
          m.recall(
              RecallRequest.builder("u", "What is the status of the Apollo project?")
                  .askedAt(ASKED)
                  .threshold(0)
                  .relativeThreshold(0)
                  .freshness(shortLived)
                  .weights(dev.mnemo.Weights.DEFAULT.withRecency(1.0))
                  .explain(true)
                  .build());
      assertThat(candidate(r, "derived").signals().finalScore())
          .isGreaterThan(candidate(r, "verified").signals().finalScore());
      assertThat(r.trace().candidates())
          .extracting(c -> c.sources().get(0))
          .containsSubsequence("verified", "derived");
      assertThat(r.selected())
          .extracting(s -> s.record().sources().get(0))
          .containsExactly("verified", "derived");
      assertThat(r.rendered()).contains("this one verified").contains("this one derived");
    }
  }

  @Test
  void invalidFreshness_isRefusedWithTheField() {
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> new Freshness(Map.of("status", Duration.ZERO), Map.of()))
        .isInstanceOfSatisfying(
            dev.mnemo.InvalidRequestException.class,
            e -> assertThat(e.field()).isEqualTo("freshness.half_lives.status"));
  }
}
