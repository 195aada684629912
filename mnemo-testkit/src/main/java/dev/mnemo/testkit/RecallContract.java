package dev.mnemo.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.Category;
import dev.mnemo.ConflictPolicy;
import dev.mnemo.Fusion;
import dev.mnemo.MemoryRecord;
import dev.mnemo.NewMemory;
import dev.mnemo.Outcome;
import dev.mnemo.Packing;
import dev.mnemo.RecallRequest;
import dev.mnemo.RecallResult;
import dev.mnemo.spi.Candidate;
import dev.mnemo.spi.CandidateQuery;
import dev.mnemo.spi.CandidateSet;
import dev.mnemo.spi.Eligibility;
import dev.mnemo.spi.MemoryStore;
import dev.mnemo.text.JTokkitTokenizer;
import dev.mnemo.time.TimeRange;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The recall part of {@link MemoryStoreContract}: the token budget, the threshold, {@code k},
 * coverage packing, fusion, and the candidates a store returns (their scores on every signal, the
 * statistics, the versions given with them). Apart because it pins what the read path gets from a
 * store's candidate search and makes of it.
 */
abstract class RecallContract extends EligibilityContract {
  @Test
  void budget_overBudgetRecordIsOmittedWithReason_andSmallerOnesStillFit() {
    mnemo.remember(
        NewMemory.builder("u", "Lee prefers short weekly status reports in bullet points.")
            .source("m1")
            .importance(0.7)
            .build());
    mnemo.remember(
        NewMemory.builder(
                "u",
                "Weekly status reports for Lee must be long and detailed, with full "
                    + "benchmark tables, methodology, caveats and links to all raw data for every weekly report.")
            .source("m2")
            .importance(0.9)
            .build());

    RecallResult r =
        mnemo.recall(
            RecallRequest.builder("u", "weekly status reports for Lee")
                .budgetTokens(40)
                .threshold(0)
                .relativeThreshold(0)
                .minRelevance(0.0)
                .explain(true)
                .build());

    assertThat(sources(r)).containsExactly("m1");
    assertThat(r.renderedTokens()).isLessThanOrEqualTo(40);
    assertThat(r.trace().blockTokens()).isEqualTo(r.renderedTokens());
    assertThat(r.trace().tokensUsed()).isEqualTo(r.tokensUsed()).isLessThan(r.renderedTokens());
    assertThat(r.trace().candidates())
        .anySatisfy(
            c -> {
              assertThat(c.sources()).containsExactly("m2");
              assertThat(c.outcome()).isEqualTo(Outcome.OVER_BUDGET);
            });
  }

  @Test
  void budget_boundsTheRenderedBlock_headerDatesAndMarkersIncluded() {
    mnemo.remember(
        NewMemory.builder("u", "Lee likes tea.")
            .factKey("drink")
            .source("b1")
            .recordedAt(t("2026-02-01"))
            .build());
    mnemo.remember(
        NewMemory.builder("u", "Lee likes coffee.")
            .factKey("drink")
            .source("b2")
            .recordedAt(t("2026-03-01"))
            .conflictPolicy(ConflictPolicy.KEEP_BOTH)
            .build());
    mnemo.remember(NewMemory.builder("u", "Lee drinks water at lunch.").source("b3").build());
    JTokkitTokenizer tok = JTokkitTokenizer.cl100k();
    for (int budget : new int[] {0, 10, 28, 40, 56, 80, 400}) {
      RecallResult r =
          mnemo.recall(
              RecallRequest.builder("u", "What does Lee like to drink, tea or coffee?")
                  .budgetTokens(budget)
                  .threshold(0)
                  .relativeThreshold(0)
                  .explain(true)
                  .build());
      assertThat(r.renderedTokens())
          .as("budget %d: %s", budget, r.rendered())
          .isLessThanOrEqualTo(budget)
          .isEqualTo(r.rendered().isEmpty() ? 0 : tok.count(r.rendered()));
      assertThat(r.trace().blockTokens()).isEqualTo(r.renderedTokens());
      r.selected().forEach(x -> assertThat(r.rendered()).contains(x.record().text()));
    }
    RecallResult all =
        mnemo.recall(
            RecallRequest.builder("u", "What does Lee like to drink, tea or coffee?")
                .budgetTokens(400)
                .threshold(0)
                .relativeThreshold(0)
                .build());
    assertThat(all.rendered()).contains("conflicting");
  }

  @Test
  void threshold_nothingRelevant_returnsNothing() {
    mnemo.remember(NewMemory.builder("u", "Sam collects vinyl records of old jazz.").build());
    RecallResult r =
        mnemo.recall(
            RecallRequest.builder("u", "Convert 30 degrees Celsius to Fahrenheit").build());
    assertThat(r.selected()).isEmpty();
    assertThat(r.rendered()).isEmpty();
  }

  @Test
  void ownerWithNoRecords_recallsEmpty_notAnError() {
    assertThat(mnemo.recall(RecallRequest.builder("nobody", "anything at all").build()).selected())
        .isEmpty();
  }

  @Test
  void kLimitsTheSelection_andTheRestAreBeyondK() {
    for (int i = 0; i < 5; i++) {
      mnemo.remember(
          NewMemory.builder("u", "Note number " + i + " about the garden roses.")
              .source("n" + i)
              .build());
    }
    RecallResult r =
        mnemo.recall(
            RecallRequest.builder("u", "garden roses")
                .k(2)
                .threshold(0)
                .relativeThreshold(0)
                .minRelevance(0.0)
                .explain(true)
                .build());
    assertThat(r.selected()).hasSize(2);
    assertThat(r.trace().candidates()).filteredOn(c -> c.outcome() == Outcome.BEYOND_K).hasSize(3);
  }

  @Test
  void coveragePacking_omitsNearDuplicates() {
    // episodes: two records of one fact without a fact key would be one fact (docs/write-path.md)
    mnemo.remember(
        NewMemory.builder("u", "The cat is called Miso.")
            .category(Category.EPISODIC)
            .source("c1")
            .build());
    mnemo.remember(
        NewMemory.builder("u", "The cat is called Miso!")
            .category(Category.EPISODIC)
            .source("c2")
            .build());
    mnemo.remember(NewMemory.builder("u", "The cat sleeps on the sofa.").source("c3").build());

    RecallResult r =
        mnemo.recall(
            RecallRequest.builder("u", "the cat")
                .packing(Packing.COVERAGE)
                .threshold(0)
                .relativeThreshold(0)
                .minRelevance(0.0)
                .explain(true)
                .build());

    assertThat(r.selected()).hasSize(2);
    assertThat(sources(r)).contains("c3");
    assertThat(r.trace().candidates())
        .anySatisfy(c -> assertThat(c.outcome()).isEqualTo(Outcome.DUPLICATE));
  }

  @Test
  void rrfFusion_ranksAndStillAppliesTheAbsoluteThreshold() {
    mnemo.remember(
        NewMemory.builder("u", "Sam collects vinyl records of old jazz.").source("j").build());
    RecallResult hit =
        mnemo.recall(RecallRequest.builder("u", "Sam jazz vinyl").fusion(Fusion.rrf()).build());
    RecallResult miss =
        mnemo.recall(
            RecallRequest.builder("u", "Convert Celsius to Fahrenheit")
                .fusion(Fusion.rrf())
                .build());
    assertThat(sources(hit)).containsExactly("j");
    assertThat(miss.selected()).isEmpty();
  }

  /**
   * A store that returns versions with its candidates ({@link dev.mnemo.spi.CandidateSet#versions})
   * returns, for each candidate's fact key with more than one eligible record, exactly the key's
   * records that the eligibility admits; keys it leaves out have one eligible record. A store that
   * returns none (null) passes trivially: the read path then asks {@link MemoryStore#versions}.
   */
  @Test
  void candidates_versionsGivenWithThem_areTheEligibleVersionsOfTheCandidatesKeys() {
    for (int i = 0; i < 12; i++) {
      mnemo.remember(
          NewMemory.builder(
                  i % 4 == 3 ? "v" : "u", "Drinks " + (i % 2 == 0 ? "tea" : "coffee") + " " + i)
              .factKey("drink-" + (i % 3))
              .source("s" + i)
              .recordedAt(t("2026-01-01").plusSeconds(86_400L * i))
              .conflictPolicy(i % 2 == 0 ? ConflictPolicy.KEEP_BOTH : ConflictPolicy.SUPERSEDE)
              .build());
    }
    MemoryStore store = store();
    int checked = 0;
    int keys = 0;
    for (String at : List.of("2026-01-05", "2026-07-01")) {
      for (Eligibility e : List.of(Eligibility.current("u", t(at)), Eligibility.allOf("u"))) {
        var set =
            store.candidates(new CandidateQuery(e, null, "drinks tea coffee", Set.of(), null, 50));
        if (set.versions() == null) continue;
        Map<String, Set<String>> want = new java.util.TreeMap<>();
        for (var c : set.candidates()) {
          String key = c.record().factKey();
          Set<String> eligible = ids(store.versions("u", key).stream().filter(e::admits).toList());
          if (eligible.size() > 1) want.put(key, eligible);
        }
        Map<String, Set<String>> got = new java.util.TreeMap<>();
        set.versions().forEach((k, v) -> got.put(k, ids(v)));
        assertThat(got).as("%s", e).isEqualTo(want);
        checked++;
        keys += want.size();
      }
    }
    assertThat(checked).isEqualTo(versionsWithCandidates() ? 4 : 0);
    if (versionsWithCandidates()) assertThat(keys).isPositive();
  }

  /**
   * The time list holds a record whose valid time starts in the range, and one whose event time
   * (the time its text is about) overlaps it although it was written, and holds, from another time:
   * "I'm planning a trip to Kyoto in April." written in February is a candidate for "in April". A
   * record whose event time ends where the range starts, or starts where it ends, is not.
   */
  @Test
  void candidates_timeList_holdsRecordsWhoseEventTimeOverlapsTheRange() {
    java.util.function.BiFunction<String, String, MemoryRecord> said =
        (text, at) -> mnemo.remember(NewMemory.builder("ev", text).recordedAt(t(at)).build());
    MemoryRecord trip =
        said.apply("I'm planning a trip to Kyoto in April.", "2026-02-10T10:00:00Z");
    assertThat(trip.eventTime()).as("event time read from the text").isNotNull();
    assertThat(trip.eventTime().from()).isEqualTo(t("2026-04-01"));
    MemoryRecord garage = said.apply("I took my car to the garage.", "2026-04-08T10:00:00Z");
    MemoryRecord march = said.apply("We painted the kitchen in March.", "2026-05-02T10:00:00Z");
    MemoryRecord may = said.apply("The concert is in May.", "2026-02-11T10:00:00Z");
    CandidateSet found =
        store()
            .candidates(
                new CandidateQuery(
                    Eligibility.current("ev", t("2026-06-01")),
                    null,
                    null,
                    Set.of(),
                    new TimeRange(t("2026-04-01"), t("2026-05-01"), "in April"),
                    50));
    Set<String> timed =
        found.candidates().stream()
            .filter(c -> c.timeRank() > 0)
            .map(c -> c.record().id())
            .collect(Collectors.toSet());
    assertThat(timed)
        .as("time candidates for April")
        .contains(trip.id(), garage.id())
        .doesNotContain(march.id(), may.id());
  }

  /**
   * Every candidate carries its BM25 score and cosine whichever list found it, and the set reports
   * the statistics the read path scales them by: a record found only by the dense search still has
   * its (lower) BM25 score, both are below {@code bm25Max}, and entity frequencies count the
   * eligible records naming each query entity.
   */
  @Test
  void candidates_scoreEveryCandidateOnEverySignal_andReportTheStatistics() {
    mnemo.remember(
        NewMemory.builder("u", "apple apple apple apple banana")
            .entities(List.of("fruit bowl"))
            .source("a")
            .build());
    mnemo.remember(
        NewMemory.builder("u", "cherry pie with apple")
            .entities(List.of("fruit bowl"))
            .source("b")
            .build());
    mnemo.remember(NewMemory.builder("u", "nothing in common").source("c").build());
    mnemo.remember(
        NewMemory.builder("other", "apple apple")
            .entities(List.of("fruit bowl"))
            .source("d")
            .build());
    HashingEmbedder embedder = new HashingEmbedder();

    CandidateSet found =
        store()
            .candidates(
                new CandidateQuery(
                    Eligibility.current("u", clock.instant()),
                    embedder.embedQuery("cherry pie with apple"),
                    "apple",
                    Set.of("fruit bowl"),
                    null,
                    1));

    Candidate a =
        found.candidates().stream()
            .filter(c -> c.record().sources().equals(List.of("a")))
            .findFirst()
            .orElseThrow();
    Candidate b =
        found.candidates().stream()
            .filter(c -> c.record().sources().equals(List.of("b")))
            .findFirst()
            .orElseThrow();
    assertThat(b.denseRank()).isEqualTo(1);
    assertThat(b.bm25Rank()).isZero();
    assertThat(a.bm25Rank()).isEqualTo(1);
    assertThat(b.bm25()).isPositive().isLessThan(a.bm25());
    assertThat(a.bm25()).isLessThan(found.bm25Max());
    assertThat(b.cosine()).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-5));
    assertThat(a.cosine()).isFinite().isLessThan(b.cosine());
    assertThat(found.eligibleCount()).isEqualTo(3);
    assertThat(found.entityFrequencies()).containsEntry("fruit bowl", 2L);
  }
}
