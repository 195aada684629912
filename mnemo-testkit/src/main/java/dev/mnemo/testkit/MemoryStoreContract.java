package dev.mnemo.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mnemo.Category;
import dev.mnemo.ConflictPolicy;
import dev.mnemo.Fusion;
import dev.mnemo.InvalidRequestException;
import dev.mnemo.MemoryRecord;
import dev.mnemo.Mnemo;
import dev.mnemo.NewMemory;
import dev.mnemo.Outcome;
import dev.mnemo.Packing;
import dev.mnemo.RecallRequest;
import dev.mnemo.RecallResult;
import dev.mnemo.TemporalMode;
import dev.mnemo.spi.Candidate;
import dev.mnemo.spi.CandidateQuery;
import dev.mnemo.spi.CandidateSet;
import dev.mnemo.spi.Eligibility;
import dev.mnemo.spi.MemoryStore;
import dev.mnemo.text.JTokkitTokenizer;
import dev.mnemo.time.TimeRange;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The behaviour every {@link MemoryStore} must show under the engine, so that stores cannot drift:
 * round trips, eligibility, every temporal mode, supersession with clipped versions, conflicts,
 * budget, forgetting, usage feedback, restart, bad input and determinism. Extend it and implement
 * {@link #openStore(Path)}; {@link #reopenable()} says whether the store keeps data across a close.
 */
public abstract class MemoryStoreContract {

  /** Opens (or reopens) a store whose data lives in {@code dir}. */
  protected abstract MemoryStore openStore(Path dir);

  /** Whether data written before {@code close()} is there after {@link #openStore} again. */
  protected boolean reopenable() {
    return true;
  }

  /**
   * Whether the store returns versions with its candidates ({@link CandidateSet#versions}); false
   * by default.
   */
  protected boolean versionsWithCandidates() {
    return false;
  }

  @TempDir protected Path dir;
  protected MutableClock clock;
  protected Mnemo mnemo;

  @BeforeEach
  void openEngine() {
    clock = MutableClock.at("2026-07-01T00:00:00Z");
    mnemo = engine(openStore(dir));
  }

  @AfterEach
  void closeEngine() {
    if (mnemo != null) mnemo.close();
  }

  protected Mnemo engine(MemoryStore store) {
    return Mnemo.builder()
        .store(store)
        .embedder(new HashingEmbedder())
        .tokenizer(JTokkitTokenizer.cl100k())
        .clock(clock)
        .build();
  }

  protected static Instant t(String iso) {
    return iso.length() == 10 ? Instant.parse(iso + "T00:00:00Z") : Instant.parse(iso);
  }

  /**
   * A recall under a temporal mode with the fetch gate off: these tests are about eligibility
   * (which versions may be selected at all), which the gate must never widen and which they test
   * alone.
   */
  protected RecallResult recall(String owner, String query, TemporalMode mode) {
    return mnemo.recall(
        RecallRequest.builder(owner, query)
            .mode(mode)
            .askedAt(t("2026-07-01"))
            .minRelevance(0.0)
            .explain(true)
            .build());
  }

  protected static List<String> sources(RecallResult r) {
    return r.sourceIds();
  }

  @Test
  void remember_thenGet_roundTripsEveryField() {
    MemoryRecord written =
        mnemo.remember(
            NewMemory.builder("u1", "Maya moved to Lisbon with her partner Joao.")
                .scope("home")
                .category(Category.EPISODIC)
                .context("session 3, May 2026")
                .sources(List.of("turn-7", "doc-2"))
                .episode("s3", 7)
                .recordedAt(t("2026-05-02T10:15:30.123Z"))
                .validFrom(t("2026-05-01"))
                .validTo(t("2027-05-01"))
                .factKey("home_city")
                .importance(0.8)
                .authority(dev.mnemo.Authority.VERIFIED)
                .entities(List.of("Lisbon Portugal"))
                .metadata(Map.of("lang", "en"))
                .access(List.of("team:family", "person:maya", "team:family"))
                .build());

    MemoryRecord read = mnemo.get("u1", written.id()).orElseThrow();

    assertThat(read).isEqualTo(written);
    assertThat(read.entities()).contains("maya", "lisbon", "joao", "lisbon portugal");
    assertThat(read.embedding()).hasSize(64);
    assertThat(read.embeddingModel()).isEqualTo("hashing-64");
    assertThat(read.version()).isEqualTo(1);
    assertThat(read.recordedAt()).isEqualTo(t("2026-05-02T10:15:30.123Z"));
    assertThat(read.access()).containsExactly("person:maya", "team:family");
  }

  @Test
  void get_anotherOwnersId_isNotFound() {
    MemoryRecord r =
        mnemo.remember(NewMemory.builder("u1", "Alex is allergic to peanuts.").build());
    assertThat(mnemo.get("u2", r.id())).isEmpty();
  }

  @Test
  void recall_otherOwnersRecord_isNeverACandidate() {
    mnemo.remember(
        NewMemory.builder("u-1001", "Alex is allergic to peanuts.")
            .factKey("allergy")
            .source("a1")
            .recordedAt(t("2026-02-10"))
            .build());
    mnemo.remember(
        NewMemory.builder("u-2002", "Alex is allergic to shellfish.")
            .factKey("allergy")
            .source("b1")
            .recordedAt(t("2026-02-11"))
            .build());

    RecallResult r =
        mnemo.recall(
            RecallRequest.builder("u-2002", "Alex is allergic to peanuts.")
                .threshold(0)
                .relativeThreshold(0)
                .minRelevance(0.0)
                .askedAt(t("2026-03-01"))
                .explain(true)
                .build());

    assertThat(sources(r)).containsExactly("b1");
    assertThat(r.trace().candidates())
        .allSatisfy(c -> assertThat(c.sources()).containsExactly("b1"));
  }

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

  @Test
  void scope_query_seesItsScopeAndUnscopedOnly() {
    mnemo.remember(
        NewMemory.builder("ops", "To roll back billing, redeploy the previous tag.")
            .scope("billing")
            .category(Category.PROCEDURAL)
            .source("p1")
            .build());
    mnemo.remember(
        NewMemory.builder("ops", "To roll back search, flip the traffic switch.")
            .scope("search")
            .category(Category.PROCEDURAL)
            .source("p2")
            .build());
    mnemo.remember(
        NewMemory.builder("ops", "Always announce a roll back in the ops channel.")
            .source("p3")
            .build());

    RecallResult r =
        mnemo.recall(
            RecallRequest.builder("ops", "how do I roll back")
                .scope("search")
                .threshold(0)
                .relativeThreshold(0)
                .minRelevance(0.0)
                .build());

    assertThat(sources(r)).containsExactlyInAnyOrder("p2", "p3");
  }

  /**
   * Access inside an owner: a record with labels is a candidate only for a caller holding one of
   * them; a record without labels is every caller's; a caller without principals sees only those.
   */
  @Test
  void accessLabels_aRecordIsEligibleOnlyForACallerHoldingOneOfItsLabels() {
    mnemo.remember(
        NewMemory.builder("acme", "The payroll run is on the 25th.")
            .source("pay")
            .access(List.of("team:payments", "role:cfo"))
            .build());
    mnemo.remember(
        NewMemory.builder("acme", "The payroll bank is Banco Azul.")
            .source("bank")
            .access(List.of("person:ana"))
            .build());
    mnemo.remember(
        NewMemory.builder("acme", "Payroll questions go to the finance desk.")
            .source("desk")
            .build());

    java.util.function.Function<Set<String>, RecallResult> as =
        principals ->
            mnemo.recall(
                RecallRequest.builder("acme", "payroll")
                    .principals(principals)
                    .threshold(0)
                    .relativeThreshold(0)
                    .minRelevance(0.0)
                    .explain(true)
                    .build());

    assertThat(sources(as.apply(Set.of()))).containsExactly("desk");
    assertThat(sources(as.apply(Set.of("team:payments")))).containsExactlyInAnyOrder("pay", "desk");
    assertThat(sources(as.apply(Set.of("role:cfo", "person:ana"))))
        .containsExactlyInAnyOrder("pay", "bank", "desk");
    assertThat(sources(as.apply(Set.of("team:sales", "person:bo")))).containsExactly("desk");
    // Not a candidate at all (never scored, never in the trace), and the label is matched exactly.
    RecallResult other = as.apply(Set.of("team:Payments"));
    assertThat(other.trace().candidates())
        .allSatisfy(c -> assertThat(c.sources()).containsExactly("desk"));
    assertThat(other.rendered()).doesNotContain("25th").doesNotContain("Banco");
  }

  /**
   * A version under other access labels is another audience's: it neither supersedes nor is
   * superseded by this one, so each audience keeps a current answer.
   */
  @Test
  void accessLabels_versionsOfAFactUnderOtherLabels_areIndependent() {
    mnemo.remember(
        NewMemory.builder("acme", "The launch is in March.")
            .factKey("launch")
            .source("public")
            .recordedAt(t("2026-02-01"))
            .build());
    MemoryRecord internal =
        mnemo.remember(
            NewMemory.builder("acme", "The launch slipped to May.")
                .factKey("launch")
                .source("internal")
                .access(List.of("team:launch"))
                .recordedAt(t("2026-03-01"))
                .build());

    assertThat(internal.version()).isEqualTo(2);
    assertThat(mnemo.history("acme", "launch")).allSatisfy(r -> assertThat(r.expiredAt()).isNull());
    RecallRequest.Builder q =
        RecallRequest.builder("acme", "when is the launch")
            .askedAt(t("2026-04-01"))
            .threshold(0)
            .relativeThreshold(0)
            .minRelevance(0.0);
    assertThat(sources(mnemo.recall(q.build()))).containsExactly("public");
    assertThat(sources(mnemo.recall(q.principals(Set.of("team:launch")).build())))
        .containsExactlyInAnyOrder("public", "internal");
  }

  @Test
  void accessLabels_malformed_areRefusedNamingTheField_andNothingIsWritten() {
    assertThatThrownBy(
            () ->
                mnemo.remember(
                    NewMemory.builder("acme", "Secret plan.")
                        .access(List.of("team:ok", "payments", "group:x", "role: "))
                        .build()))
        .isInstanceOf(InvalidRequestException.class)
        .satisfies(
            e ->
                assertThat(((InvalidRequestException) e).violations())
                    .extracting(v -> v.field())
                    .containsExactly("access[1]", "access[2]", "access[3]"));
    assertThat(store().latest(Eligibility.allOf("acme"), 10)).isEmpty();
    assertThatThrownBy(
            () -> RecallRequest.builder("acme", "plan").principals(Set.of("admin")).build())
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("principals[0]");
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
   * A summary shows no caller what they could not see line by line: it carries the labels all its
   * labelled sources share.
   */
  @Test
  void summary_carriesTheAccessLabelsItsSourcesShare() {
    mnemo.remember(
        NewMemory.builder("acme", "The launch slipped to May.")
            .episode("w1", 1)
            .access(List.of("team:launch", "role:cfo"))
            .build());
    mnemo.remember(
        NewMemory.builder("acme", "The launch budget is 2M.")
            .episode("w1", 2)
            .access(List.of("team:launch"))
            .build());
    mnemo.remember(
        NewMemory.builder("acme", "The launch party is at the office.").episode("w1", 3).build());
    assertThat(mnemo.summarize("acme", "w1").orElseThrow().access()).containsExactly("team:launch");

    mnemo.remember(
        NewMemory.builder("acme", "Sales target is 10M.")
            .episode("w2", 1)
            .access(List.of("team:sales"))
            .build());
    mnemo.remember(
        NewMemory.builder("acme", "Hiring is frozen.")
            .episode("w2", 2)
            .access(List.of("team:hr"))
            .build());
    mnemo.remember(NewMemory.builder("acme", "Friday is a holiday.").episode("w2", 3).build());
    MemoryRecord w2 = mnemo.summarize("acme", "w2").orElseThrow();
    assertThat(w2.access()).isEmpty();
    assertThat(w2.text()).contains("holiday").doesNotContain("Sales", "Hiring");
  }

  @Test
  void categoryAndMetadataFilters_areHardFilters() {
    mnemo.remember(
        NewMemory.builder("u", "Deploy with the blue pipeline.")
            .category(Category.PROCEDURAL)
            .metadata(Map.of("team", "a"))
            .source("x1")
            .build());
    mnemo.remember(
        NewMemory.builder("u", "Deploy happened on Friday.")
            .category(Category.EPISODIC)
            .metadata(Map.of("team", "b"))
            .source("x2")
            .build());

    assertThat(
            sources(
                mnemo.recall(
                    RecallRequest.builder("u", "deploy")
                        .threshold(0)
                        .relativeThreshold(0)
                        .minRelevance(0.0)
                        .categories(Set.of(Category.EPISODIC))
                        .build())))
        .containsExactly("x2");
    assertThat(
            sources(
                mnemo.recall(
                    RecallRequest.builder("u", "deploy")
                        .threshold(0)
                        .relativeThreshold(0)
                        .minRelevance(0.0)
                        .metadata(Map.of("team", "a"))
                        .build())))
        .containsExactly("x1");
  }

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

  @Test
  void forgetOwner_removesEveryVersion_andOnlyThatOwner() {
    mnemo.remember(
        NewMemory.builder("u1", "Lives in Porto.")
            .factKey("city")
            .recordedAt(t("2026-01-01"))
            .build());
    mnemo.remember(
        NewMemory.builder("u1", "Lives in Lisbon.")
            .factKey("city")
            .recordedAt(t("2026-02-01"))
            .build());
    MemoryRecord other =
        mnemo.remember(NewMemory.builder("u2", "Lives in Lisbon.").factKey("city").build());

    assertThat(mnemo.forget("u1")).isEqualTo(3);

    assertThat(mnemo.history("u1", "city")).isEmpty();
    assertThat(mnemo.get("u2", other.id())).isPresent();
  }

  @Test
  void forgetOneRecord_removesItWithItsClippedCopies() {
    MemoryRecord first =
        mnemo.remember(
            NewMemory.builder("u", "Lives in Porto.")
                .factKey("city")
                .recordedAt(t("2026-01-01"))
                .build());
    mnemo.remember(
        NewMemory.builder("u", "Lives in Lisbon.")
            .factKey("city")
            .recordedAt(t("2026-02-01"))
            .build());

    assertThat(mnemo.forget("u", first.id())).isEqualTo(2);
    assertThat(mnemo.history("u", "city"))
        .extracting(MemoryRecord::text)
        .containsExactly("Lives in Lisbon.");
    assertThat(mnemo.forget("someone-else", first.id())).isZero();
  }

  @Test
  void markUsed_countsUses_withoutANewVersion() {
    MemoryRecord r =
        mnemo.remember(NewMemory.builder("u", "Prefers aisle seats.").factKey("seat").build());
    assertThat(mnemo.markUsed("u", List.of(r.id(), r.id(), "unknown"))).isEqualTo(1);
    mnemo.markUsed("u", List.of(r.id()));
    assertThat(mnemo.markUsed("other-owner", List.of(r.id()))).isZero();

    MemoryRecord after = mnemo.get("u", r.id()).orElseThrow();
    assertThat(after.accessCount()).isEqualTo(2);
    assertThat(after.lastAccessedAt()).isEqualTo(clock.instant());
    assertThat(mnemo.history("u", "seat")).hasSize(1);
  }

  @Test
  void badInput_isRefusedWithFieldAndValue_andNothingIsWritten() {
    List<NewMemory> batch =
        List.of(
            NewMemory.builder("u", "A fine memory.").build(),
            NewMemory.builder("u", "").build(),
            NewMemory.builder("u", "x".repeat(8_001)).build(),
            NewMemory.builder("u", "Bad interval.")
                .validFrom(t("2026-05-01"))
                .validTo(t("2026-04-01"))
                .build(),
            NewMemory.builder("u", "Too important.").importance(1.5).build());

    assertThatThrownBy(() -> mnemo.rememberAll(batch))
        .isInstanceOfSatisfying(
            InvalidRequestException.class,
            e ->
                assertThat(e.violations())
                    .extracting(InvalidRequestException.Violation::field)
                    .containsExactly(
                        "memories[1].text",
                        "memories[2].text",
                        "memories[3].valid_to",
                        "memories[4].importance"))
        .hasMessageContaining("importance must be between 0 and 1, was 1.5")
        .hasMessageContaining("text must be at most 8000 characters, was 8001");
    assertThat(
            mnemo
                .recall(
                    RecallRequest.builder("u", "fine memory")
                        .threshold(0)
                        .relativeThreshold(0)
                        .minRelevance(0.0)
                        .build())
                .selected())
        .isEmpty();

    assertThatThrownBy(() -> RecallRequest.builder("u", "q").k(0).build())
        .hasMessage("k must be between 1 and 1000, was 0");
    assertThatThrownBy(() -> RecallRequest.builder("u", "q").budgetTokens(-1).build())
        .hasMessage("budget_tokens must be between 0 and 1000000, was -1");
    assertThatThrownBy(() -> Category.fromCode("category", "gossip"))
        .hasMessage("category must be one of [episodic, semantic, procedural, task], was 'gossip'");
  }

  @Test
  void recordedAtBeforeTheLatestVersion_isRefused() {
    mnemo.remember(NewMemory.builder("u", "v1").factKey("k").recordedAt(t("2026-03-01")).build());
    assertThatThrownBy(
            () ->
                mnemo.remember(
                    NewMemory.builder("u", "v0").factKey("k").recordedAt(t("2026-02-01")).build()))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("recorded_at must not precede");
    assertThat(mnemo.history("u", "k")).hasSize(1);
  }

  @Test
  void sameRequestSameStoreSameClock_givesTheSameResultAndTrace() {
    for (int i = 0; i < 12; i++) {
      mnemo.remember(
          NewMemory.builder("u", "Fact " + i + ": the project uses tool " + (i % 3))
              .source("f" + i)
              .recordedAt(t("2026-01-01").plusSeconds(86_400L * i))
              .build());
    }
    RecallRequest q =
        RecallRequest.builder("u", "which tool does the project use")
            .threshold(0)
            .relativeThreshold(0)
            .minRelevance(0.0)
            .k(4)
            .explain(true)
            .askedAt(t("2026-06-01"))
            .build();
    RecallResult a = mnemo.recall(q);
    RecallResult b = mnemo.recall(q);
    assertThat(b.ids()).isEqualTo(a.ids());
    assertThat(b.rendered()).isEqualTo(a.rendered());
    assertThat(b.trace().withoutTimings()).isEqualTo(a.trace().withoutTimings());
  }

  @Test
  void restart_keepsEverythingAcknowledged() {
    if (!reopenable()) return;
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      ids.add(
          mnemo
              .remember(
                  NewMemory.builder("u", "Memory " + i).factKey(i % 2 == 0 ? "even" : null).build())
              .id());
    }
    mnemo.close();
    mnemo = engine(openStore(dir));
    for (String id : ids) assertThat(mnemo.get("u", id)).isPresent();
    // all written at the same instant with the same valid start: each replaces the last whole
    assertThat(mnemo.history("u", "even")).hasSize(10);
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

  @Test
  void latest_isEligibleOnly_newestFirst() {
    Mnemo m = mnemo;
    m.remember(NewMemory.builder("u", "old").recordedAt(t("2026-01-01")).build());
    m.remember(NewMemory.builder("u", "new").recordedAt(t("2026-02-01")).build());
    m.remember(NewMemory.builder("v", "other owner").recordedAt(t("2026-03-01")).build());
    MemoryStore store = m.diagnostics().orElseThrow().store();
    assertThat(store.latest(Eligibility.current("u", t("2026-06-01")), 10))
        .extracting(MemoryRecord::text)
        .containsExactly("new", "old");
  }

  protected MemoryStore store() {
    return mnemo.diagnostics().orElseThrow().store();
  }

  private static Set<String> ids(List<MemoryRecord> records) {
    return records.stream().map(MemoryRecord::id).collect(Collectors.toCollection(TreeSet::new));
  }

  /**
   * The store's searches agree with the reference semantics ({@link Eligibility#admits}) for every
   * kind of filter: {@code latest} returns exactly the admitted records, and every signal of {@code
   * candidates} (dense, BM25, entity, time range; each asked for more than there are) returns
   * admitted records only and, together, all of them.
   */
  @Test
  void everySearch_returnsExactlyTheEligibleRecords_forEveryKindOfFilter() {
    String[] owners = {"ann", "bob", "cy"};
    String[] scopes = {null, "work", "home"};
    Category[] cats = {Category.SEMANTIC, Category.EPISODIC, Category.PROCEDURAL};
    for (int i = 0; i < 36; i++) {
      NewMemory.Builder b =
          NewMemory.builder(owners[i % 3], "Garden note " + i + " about roses and the shed")
              .scope(scopes[(i / 3) % 3])
              .category(cats[(i / 9) % 3])
              .metadata(Map.of("team", i % 2 == 0 ? "a" : "b"))
              .entities(List.of("garden shed"))
              .recordedAt(t("2026-01-01").plusSeconds(86_400L * i))
              .validFrom(t("2025-12-01").plusSeconds(86_400L * 2 * i));
      if (i % 4 == 0) b.validTo(t("2026-03-01"));
      if (i % 5 == 0)
        b.factKey("fact-" + (i % 3)); // corrections: expired versions and clipped copies
      // Versions of a fact under the same labels, so the corrections still expire and clip.
      b.access(
          i % 5 == 0
              ? List.of("team:a")
              : switch (i % 4) {
                case 0 -> List.of();
                case 1 -> List.of("team:a");
                case 2 -> List.of("role:lead", "person:pia");
                default -> List.of("team:b");
              });
      mnemo.remember(b.build());
    }
    List<MemoryRecord> all = new ArrayList<>();
    store().export(null, all::add);
    assertThat(all.size()).isGreaterThan(36);

    List<Eligibility> filters =
        List.of(
            Eligibility.current("ann", t("2026-06-01")),
            Eligibility.current("bob", t("2026-02-01")),
            Eligibility.allOf("cy"),
            new Eligibility(
                "ann", null, Set.of(), Map.of(), t("2026-01-15"), t("2026-06-01"), null),
            new Eligibility("bob", null, Set.of(), Map.of(), null, t("2026-01-20"), null),
            new Eligibility("ann", "work", Set.of(), Map.of(), null, null, null),
            new Eligibility(
                "bob",
                null,
                Set.of(Category.EPISODIC, Category.PROCEDURAL),
                Map.of(),
                null,
                null,
                null),
            new Eligibility("cy", null, Set.of(), Map.of("team", "a"), null, null, null),
            new Eligibility(
                "ann",
                null,
                Set.of(),
                Map.of(),
                null,
                null,
                new TimeRange(t("2026-01-10"), t("2026-02-10"), "test")),
            Eligibility.current("ann", t("2026-06-01")).withPrincipals(Set.of()),
            Eligibility.allOf("ann").withPrincipals(Set.of("team:a")),
            Eligibility.allOf("bob").withPrincipals(Set.of("person:pia", "team:b")),
            Eligibility.allOf("cy").withPrincipals(Set.of("role:nobody")),
            new Eligibility(
                "cy",
                "home",
                Set.of(),
                Map.of("team", "a"),
                null,
                null,
                null,
                Set.of("team:a", "team:b")),
            Eligibility.unrestrictedForEvaluation());
    float[] vector = new HashingEmbedder().embedQuery("garden roses");
    for (Eligibility el : filters) {
      Set<String> admitted = ids(all.stream().filter(el::admits).toList());
      assertThat(ids(store().latest(el, 1_000))).as("latest under %s", el).isEqualTo(admitted);
      CandidateSet found =
          store()
              .candidates(
                  new CandidateQuery(
                      el,
                      vector,
                      "garden roses shed",
                      Set.of("garden shed"),
                      new TimeRange(t("2025-01-01"), t("2027-01-01"), "test"),
                      1_000));
      Set<String> candidates = ids(found.candidates().stream().map(Candidate::record).toList());
      assertThat(candidates).as("candidates under %s", el).isEqualTo(admitted);
      assertThat(found.candidates())
          .allSatisfy(
              c -> {
                assertThat(c.denseRank()).isPositive();
                assertThat(c.bm25Rank()).isPositive();
                assertThat(c.entityRank()).isPositive();
                assertThat(c.timeRank()).isPositive();
              });
    }
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

  @Test
  void applyDeletes_removeOnlyTheNamedRecords_andCountAndExportSeeIt() {
    MemoryRecord keep = mnemo.remember(NewMemory.builder("u", "keep me").build());
    MemoryRecord drop = mnemo.remember(NewMemory.builder("u", "drop me").build());
    MemoryRecord other = mnemo.remember(NewMemory.builder("v", "someone else's").build());
    long before = store().count();

    store().apply(List.of(), List.of(drop.id()));

    assertThat(store().count()).isEqualTo(before - 1);
    assertThat(store().get("u", drop.id())).isEmpty();
    assertThat(store().get("u", keep.id())).contains(keep);
    List<MemoryRecord> exported = new ArrayList<>();
    store().export("u", exported::add);
    assertThat(exported).containsExactly(keep);
    List<MemoryRecord> everyone = new ArrayList<>();
    store().export(null, everyone::add);
    assertThat(everyone).containsExactlyInAnyOrder(keep, other);
  }
}
