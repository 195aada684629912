package dev.mnemo.store.lucene;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.mnemo.Authority;
import dev.mnemo.CandidateTrace;
import dev.mnemo.Category;
import dev.mnemo.MemoryRecord;
import dev.mnemo.Mnemo;
import dev.mnemo.NewMemory;
import dev.mnemo.RecallRequest;
import dev.mnemo.RecallTrace;
import dev.mnemo.Weights;
import dev.mnemo.testkit.HashingEmbedder;
import dev.mnemo.testkit.MutableClock;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each ranking rule of stage 4 ({@code ReadPath.rank}, docs/read-path.md) moves a ranking as
 * documented: two records with the same text (so the same relevance) that differ in one attribute
 * only. Without the rule's weight the tie-break (newer recorded first) puts B first; with the
 * default weight the rule puts A first, and the two scores stand in the documented ratio {@code (1
 * + w * signalA) / (1 + w * signalB)}.
 */
class RankingRulesTest {
  private static final Instant ASKED = Instant.parse("2026-07-01T00:00:00Z");
  private static final String TEXT = "Sam plays chess at the club on Sundays.";
  private static final String QUERY = "When does Sam play chess at the club?";

  @TempDir Path dir;
  private Mnemo mnemo;

  @BeforeEach
  void open() {
    mnemo =
        Mnemo.builder()
            .store(LuceneMemoryStore.open(dir))
            .embedder(new HashingEmbedder())
            .clock(MutableClock.at("2026-07-01T00:00:00Z"))
            .build();
  }

  @AfterEach
  void close() {
    mnemo.close();
  }

  /**
   * A's candidate first, then B's, as ranked under {@code weights}; only the ranking rule under
   * test is on.
   */
  private List<CandidateTrace> ranked(Weights weights) {
    RecallTrace t =
        mnemo
            .recall(
                RecallRequest.builder("u", QUERY)
                    .askedAt(ASKED)
                    .threshold(0)
                    .relativeThreshold(0)
                    .weights(weights)
                    .explain(true)
                    .build())
            .trace();
    assertThat(t.candidates()).hasSize(2);
    return t.candidates();
  }

  /** The default weights with every ranking rule off but the one {@code on} turns back on. */
  private static Weights only(UnaryOperator<Weights> on) {
    Weights off =
        Weights.DEFAULT
            .withRecency(0)
            .withImportance(0)
            .withFrequency(0)
            .withAuthority(0)
            .withTimeMatch(0)
            .withSpeaker(0);
    return on.apply(off);
  }

  private static void assertRatio(List<CandidateTrace> c, double expected) {
    assertThat(c.get(0).signals().finalScore() / c.get(1).signals().finalScore())
        .isCloseTo(expected, within(1e-9));
  }

  private MemoryRecord write(String source, UnaryOperator<NewMemory.Builder> f) {
    // each its own fact key: two keyless records with one text would be one fact
    // (docs/write-path.md)
    return mnemo.remember(
        f.apply(NewMemory.builder("u", TEXT).source(source).factKey("fact-" + source)).build());
  }

  @Test
  void recency_theMoreRecentlyValidRecordRanksFirst_byTheHalfLifeOfItsCategory() {
    // A starts later in valid time (June 15) though it was recorded earlier than B (June 1).
    write(
        "A",
        b ->
            b.category(Category.EPISODIC)
                .recordedAt(Instant.parse("2026-05-01T00:00:00Z"))
                .validFrom(Instant.parse("2026-06-15T00:00:00Z")));
    write(
        "B", b -> b.category(Category.EPISODIC).recordedAt(Instant.parse("2026-06-01T00:00:00Z")));

    assertThat(ranked(only(w -> w)).get(0).sources()).containsExactly("B");
    List<CandidateTrace> on = ranked(only(w -> w.withRecency(Weights.DEFAULT.recency())));
    assertThat(on.get(0).sources()).containsExactly("A");
    double a = Math.pow(0.5, 16 / 30.0); // 16 days old, episodic half-life 30 days
    double b = Math.pow(0.5, 30 / 30.0);
    assertThat(on.get(0).signals().recency()).isCloseTo(a, within(1e-9));
    assertThat(on.get(1).signals().recency()).isCloseTo(b, within(1e-9));
    assertRatio(on, (1 + 0.1 * a) / (1 + 0.1 * b));
    // A longer half-life (semantic: 365 days) shrinks the gap: the rule reads the category's
    // half-life.
    List<CandidateTrace> longer =
        mnemo
            .recall(
                RecallRequest.builder("u", QUERY)
                    .askedAt(ASKED)
                    .threshold(0)
                    .relativeThreshold(0)
                    .weights(only(w -> w.withRecency(0.1)))
                    .halfLives(java.util.Map.of(Category.EPISODIC, java.time.Duration.ofDays(365)))
                    .explain(true)
                    .build())
            .trace()
            .candidates();
    assertThat(longer.get(0).signals().recency())
        .isCloseTo(Math.pow(0.5, 16 / 365.0), within(1e-9));
  }

  @Test
  void importance_theMoreImportantRecordRanksFirst() {
    write("A", b -> b.importance(0.9).recordedAt(Instant.parse("2026-05-01T00:00:00Z")));
    write("B", b -> b.importance(0.1).recordedAt(Instant.parse("2026-06-01T00:00:00Z")));

    assertThat(ranked(only(w -> w)).get(0).sources()).containsExactly("B");
    List<CandidateTrace> on = ranked(only(w -> w.withImportance(Weights.DEFAULT.importance())));
    assertThat(on.get(0).sources()).containsExactly("A");
    assertRatio(on, (1 + 0.1 * 0.9) / (1 + 0.1 * 0.1));
  }

  @Test
  void frequency_theRecordReportedAsUsedMoreOftenRanksFirst() {
    MemoryRecord a = write("A", b -> b.recordedAt(Instant.parse("2026-05-01T00:00:00Z")));
    write("B", b -> b.recordedAt(Instant.parse("2026-06-01T00:00:00Z")));
    for (int i = 0; i < 3; i++) mnemo.markUsed("u", List.of(a.id()));

    assertThat(ranked(only(w -> w)).get(0).sources()).containsExactly("B");
    List<CandidateTrace> on = ranked(only(w -> w.withFrequency(Weights.DEFAULT.frequency())));
    assertThat(on.get(0).sources()).containsExactly("A");
    assertThat(on.get(0).signals().frequency()).isCloseTo(3 / 6.0, within(1e-9)); // n / (n + 3)
    assertRatio(on, 1 + 0.05 * 0.5);
  }

  @Test
  void authority_theMoreTrustedRecordRanksFirst_verifiedOverExplicitOverDerived() {
    write(
        "A",
        b -> b.authority(Authority.VERIFIED).recordedAt(Instant.parse("2026-04-01T00:00:00Z")));
    write(
        "B", b -> b.authority(Authority.DERIVED).recordedAt(Instant.parse("2026-06-01T00:00:00Z")));

    assertThat(ranked(only(w -> w)).get(0).sources()).containsExactly("B");
    List<CandidateTrace> on = ranked(only(w -> w.withAuthority(Weights.DEFAULT.authority())));
    assertThat(on.get(0).sources()).containsExactly("A");
    assertThat(on.get(0).signals().authority()).isEqualTo(1.0);
    assertThat(on.get(1).signals().authority()).isEqualTo(0.5);
    assertRatio(on, (1 + 0.05 * 1.0) / (1 + 0.05 * 0.5));
  }
}
