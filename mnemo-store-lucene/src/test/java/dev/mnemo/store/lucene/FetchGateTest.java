package dev.mnemo.store.lucene;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.mnemo.CandidateTrace;
import dev.mnemo.Category;
import dev.mnemo.Mnemo;
import dev.mnemo.NewMemory;
import dev.mnemo.Outcome;
import dev.mnemo.RecallRequest;
import dev.mnemo.RecallResult;
import dev.mnemo.RelevanceModel;
import dev.mnemo.testkit.HashingEmbedder;
import dev.mnemo.testkit.MutableClock;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fetch gate: the fetch decision, the relevance probability and its threshold, exhaustive mode,
 * time words.
 */
class FetchGateTest {
  @TempDir Path dir;
  Mnemo mnemo;

  @BeforeEach
  void open() {
    mnemo =
        Mnemo.builder()
            .store(LuceneMemoryStore.open(dir))
            .embedder(new HashingEmbedder())
            .clock(MutableClock.at("2026-06-01T00:00:00Z"))
            .build();
    mnemo.rememberAll(
        List.of(
            NewMemory.builder("u", "Maya is allergic to peanuts.")
                .recordedAt(Instant.parse("2026-01-10T10:00:00Z"))
                .build(),
            NewMemory.builder("u", "Maya lives in Porto.")
                .recordedAt(Instant.parse("2026-02-10T10:00:00Z"))
                .build(),
            NewMemory.builder("u", "Maya went hiking in the Alps.")
                .category(Category.EPISODIC)
                .validFrom(Instant.parse("2026-03-12T10:00:00Z"))
                .recordedAt(Instant.parse("2026-03-12T10:00:00Z"))
                .build(),
            NewMemory.builder("u", "Maya went hiking near the coast.")
                .category(Category.EPISODIC)
                .validFrom(Instant.parse("2026-05-20T10:00:00Z"))
                .recordedAt(Instant.parse("2026-05-20T10:00:00Z"))
                .build()));
  }

  @AfterEach
  void close() {
    mnemo.close();
  }

  private RecallResult ask(RecallRequest.Builder b) {
    return mnemo.recall(b.explain(true).build());
  }

  @Test
  void smallTalkIsNotSearched_andTheTraceSaysWhy() {
    RecallResult r = ask(RecallRequest.builder("u", "Thanks Maya, that was helpful!"));
    assertThat(r.selected()).isEmpty();
    assertThat(r.rendered()).isEmpty();
    assertThat(r.trace().candidates()).isEmpty();
    assertThat(r.trace().gate().fetch()).isEqualTo("skip");
    assertThat(r.trace().gate().reason()).contains("small talk");
  }

  @Test
  void minRelevanceZeroTurnsTheGateOff_fetchDecisionIncluded() {
    RecallResult r =
        ask(RecallRequest.builder("u", "Thanks Maya, that was helpful!").minRelevance(0.0));
    assertThat(r.trace().gate().fetch()).isEqualTo("retrieve");
    assertThat(r.trace().candidates()).isNotEmpty();
  }

  @Test
  void everyCandidateCarriesItsProbability_andTheContributionsExplainIt() {
    RecallResult r =
        ask(RecallRequest.builder("u", "Which food is Maya allergic to?").minRelevance(0.0));
    assertThat(r.trace().gate().model()).isEqualTo(RelevanceModel.defaultModel().id());
    assertThat(r.trace().candidates()).isNotEmpty();
    for (CandidateTrace c : r.trace().candidates()) {
      double p = c.relevance().probability();
      assertThat(p).isBetween(0.0, 1.0);
      double z =
          c.relevance().contributions().values().stream().mapToDouble(Double::doubleValue).sum();
      assertThat(1 / (1 + Math.exp(-z))).isCloseTo(p, within(1e-9));
      assertThat(c.relevance().features())
          .containsKeys("dense", "bm25", "coverage", "ccos", "own_name");
    }
  }

  @Test
  void aCandidateBelowMinRelevanceIsNotSelected_whateverKAllows() {
    RecallResult all =
        ask(
            RecallRequest.builder("u", "Which food is Maya allergic to?")
                .minRelevance(0.0)
                .threshold(0)
                .relativeThreshold(0)
                .k(10));
    assertThat(all.selected()).hasSize(4);
    RecallResult none =
        ask(
            RecallRequest.builder("u", "Which food is Maya allergic to?")
                .minRelevance(1.0)
                .threshold(0)
                .relativeThreshold(0)
                .k(10));
    assertThat(none.selected()).isEmpty();
    assertThat(none.trace().candidates())
        .allSatisfy(
            c -> {
              assertThat(c.outcome()).isEqualTo(Outcome.BELOW_THRESHOLD);
              assertThat(c.reason())
                  .contains("relevance probability")
                  .contains("min_relevance 1.000");
            });
    // the gate keeps those at or above the threshold: the best candidate's probability lets it
    // through
    double best =
        all.trace().candidates().stream()
            .mapToDouble(c -> c.relevance().probability())
            .max()
            .orElseThrow();
    RecallResult one =
        ask(
            RecallRequest.builder("u", "Which food is Maya allergic to?")
                .minRelevance(best)
                .threshold(0)
                .relativeThreshold(0)
                .k(10));
    assertThat(one.selected()).hasSize(1);
  }

  /**
   * An untraced recall (no explain, no retrieval log) computes features and probabilities only for
   * the candidates still in the running; it selects what the traced recall selects, with the same
   * scores, even with the gate's threshold between the candidates' probabilities.
   */
  @Test
  void anUntracedRecall_selectsWhatTheTracedOneSelects() {
    mnemo.close();
    mnemo =
        Mnemo.builder()
            .store(LuceneMemoryStore.open(dir))
            .embedder(new HashingEmbedder())
            .clock(MutableClock.at("2026-06-01T00:00:00Z"))
            .recallLogOptions(dev.mnemo.RecallLogOptions.OFF)
            .build();
    int gated = 0;
    for (String q :
        List.of(
            "Which food is Maya allergic to?",
            "Where did Maya go hiking?",
            "Where does Maya live?",
            "hiking Alps coast")) {
      RecallResult traced = ask(RecallRequest.builder("u", q).k(10));
      List<Double> probabilities =
          traced.trace().candidates().stream()
              .map(c -> c.relevance().probability())
              .sorted()
              .toList();
      // the default gate, and others between the candidates' probabilities; greedy packing (the
      // default, where an untraced recall asks the gate lazily in rank order) and coverage
      for (Double min :
          java.util.Arrays.asList(
              null,
              probabilities.get(probabilities.size() / 4),
              probabilities.get(probabilities.size() / 2))) {
        for (int k : new int[] {1, 2, 10}) {
          for (dev.mnemo.Packing packing : dev.mnemo.Packing.values()) {
            RecallRequest.Builder b = RecallRequest.builder("u", q).k(k).packing(packing);
            if (min != null) b.minRelevance(min);
            RecallResult withTrace = mnemo.recall(b.explain(true).build());
            RecallResult without = mnemo.recall(b.explain(false).build());
            assertThat(without.selected())
                .as("%s at %s, k %d, %s", q, min, k, packing)
                .isEqualTo(withTrace.selected());
            assertThat(without.rendered()).isEqualTo(withTrace.rendered());
            if (withTrace.trace().candidates().stream()
                .anyMatch(c -> c.outcome() == Outcome.BELOW_THRESHOLD)) gated++;
          }
        }
      }
    }
    assertThat(gated).as("recalls where the gate left candidates out").isPositive();
  }

  /**
   * The same on a larger random store, where the relevance model's order differs from the rank
   * order: an untraced greedy recall asks the gate lazily, candidate by candidate in rank order,
   * and must skip a gated candidate ranked above a selected one exactly as the traced recall does.
   */
  @Test
  void anUntracedRecall_selectsWhatTheTracedOneSelects_onARandomStore(@TempDir Path other) {
    String[] words = {
      "tea", "coffee", "hiking", "Porto", "Lisbon", "cat", "dog", "piano", "chess", "running",
      "allergy", "peanuts", "editor", "vim", "garden", "roses", "sister", "Ana", "train", "bike"
    };
    java.util.Random random = new java.util.Random(11);
    Instant t0 = Instant.parse("2026-01-01T00:00:00Z");
    try (Mnemo m =
        Mnemo.builder()
            .store(LuceneMemoryStore.open(other))
            .embedder(new HashingEmbedder())
            .clock(MutableClock.at("2026-06-01T00:00:00Z"))
            .recallLogOptions(dev.mnemo.RecallLogOptions.OFF)
            .build()) {
      List<NewMemory> records = new java.util.ArrayList<>();
      for (int i = 0; i < 160; i++) {
        StringBuilder text = new StringBuilder("Maya");
        for (int w = 0; w < 3 + random.nextInt(6); w++)
          text.append(' ').append(words[random.nextInt(words.length)]);
        records.add(
            NewMemory.builder("u", text.append('.').toString())
                .recordedAt(t0.plus(java.time.Duration.ofHours(random.nextInt(3600))))
                .build());
      }
      m.rememberAll(records);
      int compared = 0;
      int skippedInRankOrder = 0;
      for (int q = 0; q < 40; q++) {
        String text =
            "What about "
                + words[random.nextInt(words.length)]
                + " and "
                + words[random.nextInt(words.length)]
                + "?";
        List<Double> probabilities =
            m
                .recall(RecallRequest.builder("u", text).minRelevance(0.0).explain(true).build())
                .trace()
                .candidates()
                .stream()
                .map(c -> c.relevance().probability())
                .sorted()
                .toList();
        if (probabilities.isEmpty()) continue;
        for (double quantile : new double[] {0.3, 0.6, 0.85}) {
          double min = probabilities.get((int) (quantile * (probabilities.size() - 1)));
          for (int k : new int[] {1, 3, 8}) {
            RecallRequest.Builder b = RecallRequest.builder("u", text).k(k).minRelevance(min);
            RecallResult withTrace = m.recall(b.explain(true).build());
            RecallResult without = m.recall(b.explain(false).build());
            assertThat(without.selected())
                .as("%s at %s, k %d", text, min, k)
                .isEqualTo(withTrace.selected());
            assertThat(without.rendered()).isEqualTo(withTrace.rendered());
            compared++;
            List<CandidateTrace> ranked = withTrace.trace().candidates();
            int lastSelected = -1;
            for (int i = 0; i < ranked.size(); i++)
              if (ranked.get(i).outcome() == Outcome.SELECTED) lastSelected = i;
            for (int i = 0; i < lastSelected; i++)
              if (ranked.get(i).outcome() == Outcome.BELOW_THRESHOLD
                  && ranked.get(i).reason().contains("relevance probability")) {
                skippedInRankOrder++;
                break;
              }
          }
        }
      }
      assertThat(compared).isGreaterThan(200);
      assertThat(skippedInRankOrder)
          .as("recalls where the gate left out a candidate ranked above a selected one")
          .isGreaterThan(10);
    }
  }

  @Test
  void aggregationQuestionsAreExhaustive_unlessTheRequestSaysOtherwise() {
    RecallResult r =
        ask(RecallRequest.builder("u", "How many times did Maya go hiking?").minRelevance(0.3));
    assertThat(r.trace().gate().exhaustive()).isTrue();
    RecallResult off =
        ask(RecallRequest.builder("u", "How many times did Maya go hiking?").exhaustive(false));
    assertThat(off.trace().gate().exhaustive()).isFalse();
    RecallResult plain = ask(RecallRequest.builder("u", "Where does Maya live?"));
    assertThat(plain.trace().gate().exhaustive()).isFalse();
  }

  @Test
  void
      withAnotherEmbedderThanTheModelWasFittedWith_noDefaultThresholdApplies_butSmallTalkIsStillSkipped() {
    RecallResult r = ask(RecallRequest.builder("u", "Where does Maya live?"));
    assertThat(r.trace().gate().minRelevance()).isZero();
    assertThat(r.trace().gate().reason())
        .contains("fitted with " + RelevanceModel.defaultModel().embedder())
        .contains("embedder is hashing");
    assertThat(ask(RecallRequest.builder("u", "Thanks!")).trace().gate().fetch()).isEqualTo("skip");
  }

  /**
   * The model's own thresholds apply with the embedder it was fitted with (here: one that reports
   * its id).
   */
  @Test
  void withTheModelsEmbedder_theModelsThresholdsApply_exhaustiveTheLowerOne() {
    RelevanceModel model = RelevanceModel.defaultModel();
    HashingEmbedder hashing = new HashingEmbedder();
    dev.mnemo.spi.Embedder sameId =
        new dev.mnemo.spi.Embedder() {
          @Override
          public String modelId() {
            return model.embedder();
          }

          @Override
          public int dimension() {
            return hashing.dimension();
          }

          @Override
          public float[] embedQuery(String text) {
            return hashing.embedQuery(text);
          }

          @Override
          public List<float[]> embedPassages(List<String> texts) {
            return hashing.embedPassages(texts);
          }
        };
    try (Mnemo m =
        Mnemo.builder()
            .store(LuceneMemoryStore.open(dir.resolve("same")))
            .embedder(sameId)
            .build()) {
      m.remember(NewMemory.builder("u", "Maya went hiking in the Alps.").build());
      RecallResult plain =
          m.recall(RecallRequest.builder("u", "Where did Maya go hiking?").explain(true).build());
      assertThat(plain.trace().gate().minRelevance()).isEqualTo(model.minRelevance());
      RecallResult many =
          m.recall(
              RecallRequest.builder("u", "How many times did Maya go hiking?")
                  .explain(true)
                  .build());
      assertThat(many.trace().gate().minRelevance()).isEqualTo(model.exhaustiveMinRelevance());
    }
  }

  @Test
  void timeWordsConstrainRecency_aNewerRecordOutsideTheNamedMonthGetsNoRecency() {
    RecallResult r =
        ask(
            RecallRequest.builder("u", "Where did Maya go hiking in March?")
                .minRelevance(0.0)
                .threshold(0)
                .relativeThreshold(0)
                .k(10));
    CandidateTrace march =
        r.trace().candidates().stream()
            .filter(c -> c.text().contains("Alps"))
            .findFirst()
            .orElseThrow();
    CandidateTrace may =
        r.trace().candidates().stream()
            .filter(c -> c.text().contains("coast"))
            .findFirst()
            .orElseThrow();
    assertThat(march.signals().timeMatch()).isEqualTo(1.0);
    assertThat(march.signals().recency()).isPositive();
    assertThat(may.signals().timeMatch()).isZero();
    assertThat(may.signals().recency()).isZero();
    assertThat(r.selected().get(0).record().text()).contains("Alps");
  }

  @Test
  void aNamedTimeIsAConstraint_everyRecordInsideItRanksBeforeAnyOutside_inTheCurrentMode() {
    // "Maya lives in Porto." shares nothing with the question's time; "Maya went hiking near the
    // coast." shares its words; only the Alps hike started in March.
    RecallResult r =
        ask(
            RecallRequest.builder("u", "What did Maya do in March near the coast?")
                .minRelevance(0.0)
                .threshold(0)
                .relativeThreshold(0)
                .k(10));
    assertThat(r.selected().get(0).record().text()).contains("Alps");
    // The same words without a named time: the coast hike, which matches them, is first.
    RecallResult plain =
        ask(
            RecallRequest.builder("u", "What did Maya do near the coast?")
                .minRelevance(0.0)
                .threshold(0)
                .relativeThreshold(0)
                .k(10));
    assertThat(plain.selected().get(0).record().text()).contains("coast");
  }

  @Test
  void withItsOwnValidTime_theRequestsNamedTimeStaysABoost() {
    // valid_at says which version of a fact is asked for: a record that merely started in the named
    // month does not jump ahead of the one that matches the question.
    RecallResult r =
        ask(
            RecallRequest.builder("u", "What did Maya do in March near the coast?")
                .mode(dev.mnemo.TemporalMode.of("valid_at", Instant.parse("2026-05-31T00:00:00Z")))
                .minRelevance(0.0)
                .threshold(0)
                .relativeThreshold(0)
                .k(10));
    assertThat(r.selected().get(0).record().text()).contains("coast");
  }
}
