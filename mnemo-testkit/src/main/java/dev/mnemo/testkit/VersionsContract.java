package dev.mnemo.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mnemo.Category;
import dev.mnemo.ConflictPolicy;
import dev.mnemo.InvalidRequestException;
import dev.mnemo.MemoryRecord;
import dev.mnemo.NewMemory;
import dev.mnemo.RecallRequest;
import dev.mnemo.RecallResult;
import dev.mnemo.TemporalMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The bitemporal part of {@link MemoryStoreContract}: corrections and supersession with clipped
 * versions, history, authority, expiry, kept conflicts, a summary following its sources, and
 * concurrent writers superseding in order. Apart because these are the rules a store most easily
 * breaks by storing or filtering a version's times wrongly.
 */
abstract class VersionsContract extends StoreContractBase {
  @Test
  void correction_supersedesForTheOverlap_andEveryModeSeesTheRightVersion() {
    mnemo.remember(
        NewMemory.builder("u-maya", "Maya writes all her code in Vim.")
            .factKey("editor")
            .source("e1")
            .recordedAt(t("2026-03-01T10:00:00Z"))
            .build());
    mnemo.remember(
        NewMemory.builder("u-maya", "Maya switched from Vim to Emacs in June.")
            .factKey("editor")
            .source("e2")
            .recordedAt(t("2026-06-02T09:00:00Z"))
            .validFrom(t("2026-06-01"))
            .build());

    assertThat(sources(recall("u-maya", "Maya editor Vim Emacs", TemporalMode.current())))
        .containsExactly("e2");
    assertThat(
            sources(
                recall("u-maya", "Maya editor Vim Emacs", TemporalMode.validAt(t("2026-04-15")))))
        .containsExactly("e1");
    assertThat(
            sources(
                recall("u-maya", "Maya editor Vim Emacs", TemporalMode.knownAt(t("2026-05-20")))))
        .containsExactly("e1");
    assertThat(
            sources(
                recall("u-maya", "Maya editor Vim Emacs", TemporalMode.knownAt(t("2026-06-10")))))
        .containsExactly("e2");
  }

  @Test
  void history_listsEveryVersion_andNothingIsDeleted() {
    mnemo.remember(
        NewMemory.builder("u", "Lives in Porto.")
            .factKey("home_city")
            .recordedAt(t("2026-01-01"))
            .build());
    mnemo.remember(
        NewMemory.builder("u", "Lives in Lisbon.")
            .factKey("home_city")
            .recordedAt(t("2026-03-01"))
            .build());

    List<MemoryRecord> h = mnemo.history("u", "home_city");

    assertThat(h)
        .extracting(MemoryRecord::text)
        .containsExactly("Lives in Porto.", "Lives in Porto.", "Lives in Lisbon.");
    MemoryRecord original = h.get(0);
    assertThat(original.expiredAt()).isEqualTo(t("2026-03-01"));
    assertThat(h.get(2).version()).isEqualTo(2);
    MemoryRecord clipped = h.get(1);
    assertThat(clipped.origin()).isEqualTo(original.id());
    assertThat(clipped.validFrom()).isEqualTo(t("2026-01-01"));
    assertThat(clipped.validTo()).isEqualTo(t("2026-03-01"));
    assertThat(clipped.expiredAt()).isNull();
  }

  @Test
  void retroactiveCorrection_policyCorrect_replacesTheWholeOverlap() {
    mnemo.remember(
        NewMemory.builder("u", "Works at Acme.")
            .factKey("employer")
            .source("w1")
            .recordedAt(t("2026-03-01"))
            .build());
    MemoryRecord globex =
        mnemo.remember(
            NewMemory.builder("u", "Works at Globex.")
                .factKey("employer")
                .source("w2")
                .recordedAt(t("2026-05-01"))
                .validFrom(t("2026-01-01"))
                .conflictPolicy(ConflictPolicy.CORRECT)
                .build());

    assertThat(globex.validTo()).isNull();
    assertThat(globex.resolution()).startsWith("correct: replaces ");

    assertThat(sources(recall("u", "works at", TemporalMode.validAt(t("2026-04-01")))))
        .containsExactly("w2");
    assertThat(sources(recall("u", "works at", TemporalMode.knownAt(t("2026-04-01")))))
        .containsExactly("w1");
    assertThat(sources(recall("u", "works at", TemporalMode.current()))).containsExactly("w2");
  }

  @Test
  void backfill_openEndedOlderFact_endsWhereTheCurrentVersionBegins() {
    MemoryRecord emacs =
        mnemo.remember(
            NewMemory.builder("u-maya", "Maya switched from Vim to Emacs.")
                .factKey("editor")
                .source("e2")
                .build()); // valid from now (2026-07-01)
    clock.set(t("2026-07-02"));
    MemoryRecord vim =
        mnemo.remember(
            NewMemory.builder("u-maya", "Maya writes all her code in Vim.")
                .factKey("editor")
                .source("e1")
                .validFrom(t("2025-01-01"))
                .build());

    assertThat(vim.validTo()).isEqualTo(emacs.validFrom());
    assertThat(vim.resolution())
        .startsWith("backfill: starts before current version " + emacs.id());
    assertThat(mnemo.get("u-maya", emacs.id()).orElseThrow().expiredAt()).isNull();
    RecallResult now =
        mnemo.recall(
            RecallRequest.builder("u-maya", "Which editor does Maya use, Vim or Emacs?")
                .threshold(0)
                .relativeThreshold(0)
                .askedAt(t("2026-07-03"))
                .build());
    assertThat(sources(now)).containsExactly("e2");
    assertThat(
            sources(
                mnemo.recall(
                    RecallRequest.builder("u-maya", "Maya editor Vim Emacs")
                        .threshold(0)
                        .relativeThreshold(0)
                        .mode(TemporalMode.validAt(t("2025-06-01")))
                        .askedAt(t("2026-07-03"))
                        .build())))
        .containsExactly("e1");
  }

  @Test
  void laterStartingVersion_coversTheOverlapOnly_theEarlierStaysTrueUntilThen() {
    mnemo.remember(
        NewMemory.builder("u-lena", "Lena is vegetarian.").factKey("diet").source("d1").build());
    mnemo.remember(
        NewMemory.builder("u-lena", "Lena became vegan.")
            .factKey("diet")
            .source("d2")
            .validFrom(t("2026-10-01"))
            .build());

    assertThat(
            sources(
                recall(
                    "u-lena", "Lena vegetarian vegan diet", TemporalMode.validAt(t("2026-09-01")))))
        .containsExactly("d1");
    assertThat(sources(recall("u-lena", "Lena vegetarian vegan diet", TemporalMode.current())))
        .containsExactly("d1");
    assertThat(
            sources(
                recall(
                    "u-lena", "Lena vegetarian vegan diet", TemporalMode.validAt(t("2026-11-01")))))
        .containsExactly("d2");
  }

  @Test
  void sameInterval_recordedLater_isACorrection() {
    MemoryRecord first =
        mnemo.remember(
            NewMemory.builder("u", "Lives in Porto.")
                .factKey("home")
                .source("h1")
                .validFrom(t("2026-02-01"))
                .build());
    clock.set(t("2026-07-05"));
    MemoryRecord fixed =
        mnemo.remember(
            NewMemory.builder("u", "Lives in Braga.")
                .factKey("home")
                .source("h2")
                .validFrom(t("2026-02-01"))
                .build());

    assertThat(fixed.validTo()).isNull();
    assertThat(fixed.resolution())
        .isEqualTo("supersede: replaces " + first.id() + " for the overlap");
    assertThat(
            sources(
                mnemo.recall(
                    RecallRequest.builder("u", "lives in")
                        .threshold(0)
                        .relativeThreshold(0)
                        .mode(TemporalMode.validAt(t("2026-03-01")))
                        .askedAt(t("2026-07-06"))
                        .build())))
        .containsExactly("h2");
    assertThat(mnemo.history("u", "home")).hasSize(2);
  }

  @Test
  void lowerAuthority_neverSupersedesAHigherOne_bothAreShownAsAConflict() {
    MemoryRecord verified =
        mnemo.remember(
            NewMemory.builder("u", "Alex is allergic to peanuts.")
                .factKey("allergy")
                .source("a1")
                .authority(dev.mnemo.Authority.VERIFIED)
                .recordedAt(t("2026-02-01"))
                .build());
    MemoryRecord derived =
        mnemo.remember(
            NewMemory.builder("u", "Alex is allergic to cashews.")
                .factKey("allergy")
                .source("a2")
                .authority(dev.mnemo.Authority.DERIVED)
                .recordedAt(t("2026-03-01"))
                .build());

    assertThat(mnemo.get("u", verified.id()).orElseThrow().expiredAt()).isNull();
    assertThat(derived.conflictPolicy()).isEqualTo(ConflictPolicy.KEEP_BOTH);
    assertThat(derived.resolution())
        .isEqualTo(
            "authority: derived does not supersede verified version "
                + verified.id()
                + " of fact_key 'allergy'; kept beside it as a conflict");
    RecallResult r =
        mnemo.recall(
            RecallRequest.builder("u", "What is Alex allergic to?")
                .k(1)
                .threshold(0.05)
                .relativeThreshold(0)
                .askedAt(t("2026-04-01"))
                .explain(true)
                .build());
    assertThat(sources(r)).containsExactlyInAnyOrder("a1", "a2");
    assertThat(r.rendered())
        .contains("[since 2026-02-01]")
        .contains("[since 2026-03-01]")
        .contains("this one verified")
        .contains("this one derived");
    assertThat(r.trace().candidates())
        .anySatisfy(c -> assertThat(c.reason()).contains("lower authority kept beside higher"));
  }

  @Test
  void lowerAuthority_refuse_refusesWithTheReason_andWritesNothing() {
    MemoryRecord verified =
        mnemo.remember(
            NewMemory.builder("u", "Alex is allergic to peanuts.")
                .factKey("allergy")
                .authority(dev.mnemo.Authority.VERIFIED)
                .build());

    assertThatThrownBy(
            () ->
                mnemo.remember(
                    NewMemory.builder("u", "Alex is allergic to cashews.")
                        .factKey("allergy")
                        .authority(dev.mnemo.Authority.EXPLICIT)
                        .lowerAuthority(dev.mnemo.LowerAuthority.REFUSE)
                        .build()))
        .isInstanceOfSatisfying(
            InvalidRequestException.class,
            e -> {
              assertThat(e.field()).isEqualTo("authority");
              assertThat(e.getMessage())
                  .contains("explicit does not supersede verified version " + verified.id());
            });
    assertThat(mnemo.history("u", "allergy")).containsExactly(verified);
  }

  @Test
  void higherAuthority_supersedesALowerOne() {
    mnemo.remember(
        NewMemory.builder("u", "Alex is allergic to cashews.")
            .factKey("allergy")
            .source("a1")
            .authority(dev.mnemo.Authority.DERIVED)
            .recordedAt(t("2026-02-01"))
            .build());
    MemoryRecord verified =
        mnemo.remember(
            NewMemory.builder("u", "Alex is allergic to peanuts.")
                .factKey("allergy")
                .source("a2")
                .authority(dev.mnemo.Authority.VERIFIED)
                .recordedAt(t("2026-03-01"))
                .build());

    assertThat(verified.resolution()).startsWith("supersede: ");
    assertThat(sources(recall("u", "Alex allergic", TemporalMode.current()))).containsExactly("a2");
  }

  @Test
  void expiry_validTo_endsTheFact() {
    mnemo.remember(
        NewMemory.builder("u", "Is on parental leave.")
            .factKey("leave")
            .source("l1")
            .recordedAt(t("2026-02-01"))
            .validTo(t("2026-05-01"))
            .build());

    assertThat(sources(recall("u", "parental leave", TemporalMode.current()))).isEmpty();
    assertThat(sources(recall("u", "parental leave", TemporalMode.validAt(t("2026-03-01")))))
        .containsExactly("l1");
  }

  @Test
  void boundedCorrection_keepsTheOldFactOnBothSides() {
    mnemo.remember(
        NewMemory.builder("u", "Commutes by bike.")
            .factKey("commute")
            .source("c1")
            .recordedAt(t("2026-01-01"))
            .build());
    mnemo.remember(
        NewMemory.builder("u", "Commutes by bus while the bike is repaired.")
            .factKey("commute")
            .source("c2")
            .recordedAt(t("2026-03-01"))
            .validFrom(t("2026-03-01"))
            .validTo(t("2026-04-01"))
            .build());

    assertThat(sources(recall("u", "commutes bike bus", TemporalMode.validAt(t("2026-02-01")))))
        .containsExactly("c1");
    assertThat(sources(recall("u", "commutes bike bus", TemporalMode.validAt(t("2026-03-15")))))
        .containsExactly("c2");
    assertThat(sources(recall("u", "commutes bike bus", TemporalMode.current())))
        .containsExactly("c1");
  }

  @Test
  void keepBoth_conflictingVersions_areSurfacedTogetherWithDates() {
    mnemo.remember(
        NewMemory.builder("u", "Prefers tea in the morning.")
            .factKey("morning_drink")
            .source("d1")
            .recordedAt(t("2026-02-01"))
            .build());
    mnemo.remember(
        NewMemory.builder("u", "Prefers coffee in the morning.")
            .factKey("morning_drink")
            .source("d2")
            .recordedAt(t("2026-03-01"))
            .conflictPolicy(ConflictPolicy.KEEP_BOTH)
            .build());

    RecallResult r =
        mnemo.recall(
            RecallRequest.builder("u", "what does the user drink in the morning, coffee?")
                .k(1)
                .threshold(0.05)
                .relativeThreshold(0)
                .minRelevance(0.0)
                .askedAt(t("2026-04-01"))
                .explain(true)
                .build());

    assertThat(sources(r)).containsExactlyInAnyOrder("d1", "d2");
    assertThat(r.selected()).allSatisfy(s -> assertThat(s.conflictsWith()).hasSize(1));
    assertThat(r.rendered())
        .contains("[since 2026-02-01]")
        .contains("[since 2026-03-01]")
        .contains("conflicting");
  }

  /**
   * Summaries follow their sources: a source corrected (superseded by a later version), forgotten,
   * or expired leaves the episode's summary re-derived from what is current (or expired when
   * nothing is), never recalled as current with the stale text; a forgotten source's text is in no
   * version of the summary.
   */
  @Test
  void summary_followsItsSources_whenCorrectedForgottenOrExpired() {
    mnemo.remember(
        NewMemory.builder("maya", "Maya lives in Lisbon.")
            .factKey("home")
            .episode("s1", 1)
            .source("t1")
            .importance(0.9)
            .recordedAt(t("2026-06-01"))
            .build());
    MemoryRecord dog =
        mnemo.remember(
            NewMemory.builder("maya", "Maya's dog is called Biscuit.")
                .episode("s1", 2)
                .source("t2")
                .importance(0.8)
                .recordedAt(t("2026-06-01"))
                .build());
    mnemo.remember(
        NewMemory.builder("maya", "Maya plays the cello.")
            .episode("s1", 3)
            .source("t3")
            .recordedAt(t("2026-06-01"))
            .build());
    MemoryRecord first = mnemo.summarize("maya", "s1").orElseThrow();
    assertThat(first.text()).contains("Lisbon", "Biscuit", "cello");

    // corrected: a later session says she moved; the Lisbon version is no longer current
    mnemo.remember(
        NewMemory.builder("maya", "Maya moved to Porto.")
            .factKey("home")
            .episode("s2", 1)
            .source("t9")
            .recordedAt(t("2026-06-20"))
            .build());
    List<MemoryRecord> versions = mnemo.history("maya", "summary/s1");
    MemoryRecord current =
        versions.stream().filter(r -> r.expiredAt() == null).findFirst().orElseThrow();
    assertThat(current.text()).contains("Biscuit", "cello").doesNotContain("Lisbon");
    assertThat(current.metadata().get("rederived"))
        .startsWith("stale: source ")
        .contains("is no longer current");
    assertThat(
            versions.stream()
                .filter(r -> r.id().equals(first.id()))
                .findFirst()
                .orElseThrow()
                .expiredAt())
        .isNotNull();
    RecallResult lisbon =
        mnemo.recall(
            RecallRequest.builder("maya", "Summary of s1: where does Maya live, Lisbon?")
                .threshold(0)
                .relativeThreshold(0)
                .minRelevance(0.0)
                .k(10)
                .build());
    assertThat(lisbon.selected())
        .noneSatisfy(s -> assertThat(s.record().text()).startsWith("Summary").contains("Lisbon"));
    RecallResult then =
        mnemo.recall(
            RecallRequest.builder("maya", "Summary of s1 Lisbon")
                .mode(TemporalMode.validAt(t("2026-06-10")))
                .threshold(0)
                .relativeThreshold(0)
                .minRelevance(0.0)
                .k(10)
                .build());
    assertThat(then.selected())
        .noneSatisfy(s -> assertThat(s.record().text()).startsWith("Summary").contains("Lisbon"));

    // forgotten: the dog's record goes, and with it every version of the summary that quoted it
    mnemo.forget("maya", dog.id());
    List<MemoryRecord> after = mnemo.history("maya", "summary/s1");
    assertThat(after).isNotEmpty().noneSatisfy(r -> assertThat(r.text()).contains("Biscuit"));
    assertThat(after.stream().filter(r -> r.expiredAt() == null).findFirst().orElseThrow().text())
        .contains("cello");

    // expired: nothing of the episode is current any more, so neither is its summary
    mnemo
        .maintenance()
        .orElseThrow()
        .retain(
            "maya",
            Map.of(
                Category.SEMANTIC,
                new dev.mnemo.RetentionPolicy(java.time.Duration.ofDays(1), null, 0, 2)),
            null,
            t("2026-07-01"));
    assertThat(mnemo.history("maya", "summary/s1"))
        .allSatisfy(r -> assertThat(r.expiredAt()).isNotNull());
  }

  /**
   * Writers at once (the engine plans each under its lock and awaits the durable commit outside it,
   * which a store may share between them): every acknowledged record is there, visible the moment
   * its call returns and after a restart, and supersession saw every earlier version of the key
   * (one current version, none lost).
   */
  @Test
  void concurrentWriters_areAllAcknowledgedDurably_andSupersedeInOrder() throws Exception {
    int writers = 6;
    int each = 5;
    List<String> ids = java.util.Collections.synchronizedList(new ArrayList<>());
    java.util.concurrent.ExecutorService pool =
        java.util.concurrent.Executors.newFixedThreadPool(writers);
    try {
      List<java.util.concurrent.Future<?>> done = new ArrayList<>();
      for (int w = 0; w < writers; w++) {
        int writer = w;
        done.add(
            pool.submit(
                () -> {
                  for (int i = 0; i < each; i++) {
                    MemoryRecord r =
                        mnemo.remember(
                            NewMemory.builder("u", "Lives in city " + writer + "-" + i)
                                .factKey("home_city")
                                .build());
                    assertThat(mnemo.get("u", r.id())).isPresent();
                    ids.add(r.id());
                    ids.add(
                        mnemo.remember(NewMemory.builder("w" + writer, "note " + i).build()).id());
                  }
                  return null;
                }));
      }
      for (var f : done) f.get(5, java.util.concurrent.TimeUnit.MINUTES);
    } finally {
      pool.shutdownNow();
    }
    List<MemoryRecord> versions = mnemo.history("u", "home_city");
    assertThat(versions).hasSize(writers * each);
    assertThat(versions.stream().filter(v -> v.expiredAt() == null)).hasSize(1);
    if (!reopenable()) return;
    mnemo.close();
    mnemo = engine(openStore(dir));
    for (String id : ids) {
      String owner = mnemo.get("u", id).isPresent() ? "u" : null;
      if (owner == null) {
        boolean found = false;
        for (int w = 0; w < writers && !found; w++) found = mnemo.get("w" + w, id).isPresent();
        assertThat(found).as(id).isTrue();
      }
    }
  }
}
