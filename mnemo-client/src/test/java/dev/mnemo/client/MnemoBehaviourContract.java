package dev.mnemo.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mnemo.Category;
import dev.mnemo.IngestReceipt;
import dev.mnemo.InvalidRequestException;
import dev.mnemo.LoggedRecall;
import dev.mnemo.MemoryRecord;
import dev.mnemo.Mnemo;
import dev.mnemo.NewMemory;
import dev.mnemo.Outcome;
import dev.mnemo.RecallLogQuery;
import dev.mnemo.RecallRequest;
import dev.mnemo.RecallResult;
import dev.mnemo.RecallStats;
import dev.mnemo.Replay;
import dev.mnemo.RetrievalLog;
import dev.mnemo.TemporalMode;
import dev.mnemo.Turn;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * One set of assertions run against both implementations of {@link Mnemo}: the embedded engine and
 * the client of a real server. Whatever passes here behaves the same on either side of the line
 * that builds the memory.
 */
abstract class MnemoBehaviourContract {
  static final Instant MARCH = Instant.parse("2026-03-01T00:00:00Z");
  static final Instant JUNE = Instant.parse("2026-06-01T00:00:00Z");

  /** The implementation under test; shared by the class's tests, which use distinct owners. */
  abstract Mnemo mnemo();

  @Test
  void remember_returnsTheStoredRecord_andGetReadsItBack() {
    MemoryRecord r =
        mnemo()
            .remember(
                NewMemory.builder("rem", "Maya writes all her code in Vim.")
                    .factKey("editor")
                    .category(Category.SEMANTIC)
                    .validFrom(MARCH)
                    .importance(0.7)
                    .metadata(Map.of("lang", "en"))
                    .source("e1")
                    .build());
    assertThat(r.id()).isNotBlank();
    assertThat(r.version()).isEqualTo(1);
    assertThat(r.sources()).containsExactly("e1");
    assertThat(r.metadata()).containsEntry("lang", "en");
    assertThat(mnemo().get("rem", r.id())).contains(r);
  }

  @Test
  void correction_supersedes_keepsHistory_andRecallReturnsTheCurrentVersionOnly() {
    Mnemo m = mnemo();
    MemoryRecord vim =
        m.remember(
            NewMemory.builder("fix", "Maya writes all her code in Vim.")
                .factKey("editor")
                .validFrom(MARCH)
                .build());
    MemoryRecord emacs =
        m.remember(
            NewMemory.builder("fix", "Maya switched from Vim to Emacs.")
                .factKey("editor")
                .validFrom(JUNE)
                .build());
    assertThat(emacs.version()).isEqualTo(2);
    List<MemoryRecord> history = m.history("fix", "editor");
    assertThat(history).extracting(MemoryRecord::text).contains(vim.text(), emacs.text());
    assertThat(
            history.stream()
                .filter(h -> h.id().equals(vim.id()))
                .findFirst()
                .orElseThrow()
                .expiredAt())
        .isNotNull();

    RecallResult now =
        m.recall(RecallRequest.builder("fix", "Which editor does Maya use?").explain(true).build());
    assertThat(now.selected())
        .extracting(s -> s.record().text())
        .contains(emacs.text())
        .doesNotContain(vim.text());
    assertThat(now.rendered()).contains("Emacs");
    assertThat(now.trace()).isNotNull();
    assertThat(now.trace().candidates())
        .anySatisfy(
            c -> {
              assertThat(c.id()).isEqualTo(emacs.id());
              assertThat(c.outcome()).isEqualTo(Outcome.SELECTED);
            });

    RecallResult april =
        m.recall(
            RecallRequest.builder("fix", "Which editor does Maya use?")
                .mode(TemporalMode.validAt(Instant.parse("2026-04-01T00:00:00Z")))
                .build());
    assertThat(april.selected()).extracting(s -> s.record().text()).containsExactly(vim.text());
    assertThat(april.trace()).isNull();
  }

  @Test
  void backfill_olderOpenEndedFact_isHistory_theCurrentVersionStaysCurrent() {
    Mnemo m = mnemo();
    MemoryRecord emacs =
        m.remember(
            NewMemory.builder("back", "Maya switched from Vim to Emacs.")
                .factKey("editor")
                .build());
    MemoryRecord vim =
        m.remember(
            NewMemory.builder("back", "Maya writes all her code in Vim.")
                .factKey("editor")
                .validFrom(Instant.parse("2025-01-01T00:00:00Z"))
                .build());
    assertThat(vim.validTo()).isEqualTo(emacs.validFrom());
    assertThat(vim.resolution()).startsWith("backfill: ");
    assertThat(m.get("back", emacs.id()).orElseThrow().expiredAt()).isNull();
    RecallResult now =
        m.recall(RecallRequest.builder("back", "Which editor does Maya use?").build());
    assertThat(now.selected())
        .extracting(s -> s.record().text())
        .contains(emacs.text())
        .doesNotContain(vim.text());
    RecallResult then =
        m.recall(
            RecallRequest.builder("back", "Which editor does Maya use?")
                .mode(TemporalMode.validAt(Instant.parse("2025-06-01T00:00:00Z")))
                .build());
    assertThat(then.selected()).extracting(s -> s.record().text()).containsExactly(vim.text());
  }

  @Test
  void lowerAuthority_isKeptBesideTheHigherOne_orRefused() {
    Mnemo m = mnemo();
    MemoryRecord verified =
        m.remember(
            NewMemory.builder("trust", "Alex is allergic to peanuts.")
                .factKey("allergy")
                .authority(dev.mnemo.Authority.VERIFIED)
                .build());
    assertThatThrownBy(
            () ->
                m.remember(
                    NewMemory.builder("trust", "Alex is allergic to cashews.")
                        .factKey("allergy")
                        .authority(dev.mnemo.Authority.DERIVED)
                        .lowerAuthority(dev.mnemo.LowerAuthority.REFUSE)
                        .build()))
        .isInstanceOfSatisfying(
            InvalidRequestException.class, e -> assertThat(e.field()).isEqualTo("authority"));
    MemoryRecord derived =
        m.remember(
            NewMemory.builder("trust", "Alex is allergic to cashews.")
                .factKey("allergy")
                .authority(dev.mnemo.Authority.DERIVED)
                .build());
    assertThat(derived.resolution())
        .startsWith("authority: derived does not supersede verified version " + verified.id());
    RecallResult r = m.recall(RecallRequest.builder("trust", "What is Alex allergic to?").build());
    assertThat(r.selected()).extracting(s -> s.record().id()).contains(verified.id(), derived.id());
    assertThat(r.rendered()).contains("this one verified").contains("this one derived");
  }

  @Test
  void contradictionWithoutAFactKey_isFound_theNewerWins_andTheOlderStaysInHistory() {
    Mnemo m = mnemo();
    MemoryRecord before =
        m.remember(NewMemory.builder("maths", "I do not like maths.").validFrom(MARCH).build());
    MemoryRecord after =
        m.remember(
            NewMemory.builder("maths", "I have come to enjoy maths.").validFrom(JUNE).build());
    MemoryRecord other = m.remember(NewMemory.builder("maths", "I like hiking.").build());
    assertThat(after.factKey()).isEqualTo("auto/" + before.id() + "/slot:likes-math");
    assertThat(after.resolution())
        .startsWith("same fact: contradicts " + before.id() + " (subject+attribute)");
    assertThat(other.factKey()).isNull();
    assertThat(m.history("maths", after.factKey()))
        .extracting(MemoryRecord::text)
        .contains(before.text(), after.text());
    RecallResult now =
        m.recall(RecallRequest.builder("maths", "Does the user like maths?").build());
    assertThat(now.selected())
        .extracting(s -> s.record().text())
        .contains(after.text())
        .doesNotContain(before.text());
    RecallResult april =
        m.recall(
            RecallRequest.builder("maths", "Does the user like maths?")
                .mode(TemporalMode.validAt(Instant.parse("2026-04-01T00:00:00Z")))
                .build());
    assertThat(april.selected()).extracting(s -> s.record().text()).containsExactly(before.text());
  }

  @Test
  void contradictionWithoutAFactKey_keepBoth_showsBothWithDates() {
    Mnemo m = mnemo();
    m.remember(NewMemory.builder("maths2", "I do not like maths.").validFrom(MARCH).build());
    m.remember(
        NewMemory.builder("maths2", "I have come to enjoy maths.")
            .validFrom(JUNE)
            .conflictPolicy(dev.mnemo.ConflictPolicy.KEEP_BOTH)
            .build());
    RecallResult now =
        m.recall(RecallRequest.builder("maths2", "Does the user like maths?").build());
    assertThat(now.selected()).hasSize(2).allSatisfy(s -> assertThat(s.conflictsWith()).hasSize(1));
    assertThat(now.rendered())
        .contains("[since 2026-03-01]")
        .contains("[since 2026-06-01]")
        .contains("conflicting");
  }

  @Test
  void aKeylessMove_supersedesTheOldCity_fromTheTimeItNames_andMarchStillAnswersTheOldOne() {
    Mnemo m = mnemo();
    MemoryRecord berlin =
        m.remember(
            NewMemory.builder("mover", "I live in Berlin.")
                .recordedAt(Instant.parse("2026-01-10T09:00:00Z"))
                .build());
    MemoryRecord lisbon =
        m.remember(
            NewMemory.builder("mover", "I moved to Lisbon last month.")
                .recordedAt(Instant.parse("2026-05-05T09:00:00Z"))
                .build());
    assertThat(berlin.eventTime()).isNull();
    // The text is about April; the move holds from then (no valid-from was given).
    assertThat(lisbon.eventTime()).isNotNull();
    assertThat(lisbon.eventTime().from()).isEqualTo(Instant.parse("2026-04-01T00:00:00Z"));
    assertThat(lisbon.eventTime().phrase()).isEqualTo("last month");
    assertThat(lisbon.validFrom()).isEqualTo(Instant.parse("2026-04-01T00:00:00Z"));
    assertThat(lisbon.factKey()).isEqualTo("auto/" + berlin.id() + "/slot:home-lives-in");
    assertThat(lisbon.resolution())
        .startsWith("same fact: updates " + berlin.id() + " (slot residence)")
        .contains("valid from 2026-04-01T00:00:00Z ('last month')");
    assertThat(m.get("mover", lisbon.id())).contains(lisbon);
    assertThat(m.history("mover", lisbon.factKey()))
        .extracting(MemoryRecord::text)
        .contains(berlin.text(), lisbon.text());

    // Which versions are eligible is the write rules' doing, so the fetch gate is off and the
    // question shares a word with each text: the test's hashing embedder knows no synonyms (with
    // the real one, the derived key's words "home, lives in" let "Which city do I live in?" find "I
    // moved to Lisbon": the dev scenario s-nokey-first-person-city, docs/evaluation.md).
    RecallResult now =
        m.recall(
            RecallRequest.builder("mover", "Where do I live, did I move?")
                .minRelevance(0.0)
                .build());
    assertThat(now.selected())
        .extracting(s -> s.record().text())
        .contains(lisbon.text())
        .doesNotContain(berlin.text());
    // The block dates the move by the month it names, not by the day it was written.
    assertThat(now.rendered()).contains("[2026-04] I moved to Lisbon last month.");
    for (String at : new String[] {"2026-03-10T00:00:00Z", "2026-02-01T00:00:00Z"}) {
      RecallResult march =
          m.recall(
              RecallRequest.builder("mover", "What was true in March: where did I live?")
                  .minRelevance(0.0)
                  .mode(TemporalMode.validAt(Instant.parse(at)))
                  .build());
      assertThat(march.selected())
          .as(at)
          .extracting(s -> s.record().text())
          .containsExactly(berlin.text());
    }
    RecallResult april =
        m.recall(
            RecallRequest.builder("mover", "Where did I live after I moved?")
                .minRelevance(0.0)
                .mode(TemporalMode.validAt(Instant.parse("2026-04-15T00:00:00Z")))
                .build());
    assertThat(april.selected()).extracting(s -> s.record().text()).containsExactly(lisbon.text());
  }

  @Test
  void aKeylessToolWithoutItsPurpose_isKeptBesideTheOldOne_andShownTogether() {
    Mnemo m = mnemo();
    MemoryRecord vim =
        m.remember(
            NewMemory.builder("editor2", "I use Vim for editing code.")
                .recordedAt(Instant.parse("2026-01-03T10:00:00Z"))
                .build());
    MemoryRecord emacs =
        m.remember(
            NewMemory.builder("editor2", "I use Emacs.")
                .recordedAt(Instant.parse("2026-04-02T10:00:00Z"))
                .build());
    assertThat(emacs.factKey()).isEqualTo("auto/" + vim.id() + "/slot:uses-for-editing-code");
    assertThat(emacs.conflictPolicy()).isEqualTo(dev.mnemo.ConflictPolicy.KEEP_BOTH);
    assertThat(emacs.resolution()).contains("uncertain").contains("keep_both");
    assertThat(m.get("editor2", vim.id()).orElseThrow().expiredAt()).isNull();
    RecallResult now =
        m.recall(RecallRequest.builder("editor2", "Which editor do I use for code?").build());
    assertThat(now.rendered())
        .contains("conflicting records of one fact")
        .contains("said 2026-01-03")
        .contains("said 2026-04-02");
  }

  @Test
  void sinceX_setsTheValidFrom_theWriterLeftOut() {
    Mnemo m = mnemo();
    MemoryRecord vegan =
        m.remember(
            NewMemory.builder("since", "I've been vegan since March.")
                .recordedAt(Instant.parse("2026-06-01T10:00:00Z"))
                .build());
    assertThat(vegan.validFrom()).isEqualTo(Instant.parse("2026-03-01T00:00:00Z"));
    assertThat(vegan.resolution()).contains("valid from 2026-03-01T00:00:00Z ('since March')");
    MemoryRecord given =
        m.remember(
            NewMemory.builder("since2", "I've been vegan since March.")
                .recordedAt(Instant.parse("2026-06-01T10:00:00Z"))
                .validFrom(JUNE)
                .build());
    assertThat(given.validFrom()).isEqualTo(JUNE);
  }

  @Test
  void accessLabels_aLabelledRecordIsRecalledOnlyForOneOfItsPrincipals() {
    Mnemo m = mnemo();
    MemoryRecord pay =
        m.remember(
            NewMemory.builder("acc", "The payroll run is on the 25th.")
                .access(List.of("team:payments"))
                .build());
    assertThat(pay.access()).containsExactly("team:payments");
    m.remember(NewMemory.builder("acc", "Payroll questions go to the finance desk.").build());
    RecallRequest.Builder q =
        RecallRequest.builder("acc", "payroll").threshold(0).relativeThreshold(0).minRelevance(0.0);
    assertThat(m.recall(q.build()).ids()).doesNotContain(pay.id()).isNotEmpty();
    assertThat(m.recall(q.principals(java.util.Set.of("team:payments")).build()).ids())
        .contains(pay.id());
  }

  @Test
  void summary_isRederivedWhenASourceIsCorrected_andRecategorizeMovesARecord() {
    Mnemo m = mnemo();
    m.remember(
        NewMemory.builder("sum", "Maya lives in Lisbon.").factKey("home").episode("s1", 1).build());
    MemoryRecord cello =
        m.remember(NewMemory.builder("sum", "Maya plays the cello.").episode("s1", 2).build());
    assertThat(m.summarize("sum", "s1").orElseThrow().text()).contains("Lisbon", "cello");
    assertThat(m.summarize("sum", "nothing")).isEmpty();
    m.remember(
        NewMemory.builder("sum", "Maya moved to Porto.").factKey("home").episode("s2", 1).build());
    MemoryRecord current =
        m.history("sum", "summary/s1").stream()
            .filter(r -> r.expiredAt() == null)
            .findFirst()
            .orElseThrow();
    assertThat(current.text()).contains("cello").doesNotContain("Lisbon");
    assertThat(m.recategorize("sum", cello.id(), Category.PROCEDURAL).category())
        .isEqualTo(Category.PROCEDURAL);
  }

  @Test
  void recall_neverReturnsAnotherOwnersRecord() {
    mnemo().remember(NewMemory.builder("iso-a", "Alice's locker code is 4312.").build());
    mnemo().remember(NewMemory.builder("iso-b", "Bob's locker code is 9876.").build());
    RecallResult r =
        mnemo()
            .recall(
                RecallRequest.builder("iso-a", "What is Bob's locker code?").explain(true).build());
    assertThat(r.selected()).allSatisfy(s -> assertThat(s.record().owner()).isEqualTo("iso-a"));
    assertThat(r.trace().candidates()).noneMatch(c -> c.text().contains("9876"));
  }

  @Test
  void rememberAll_oneInvalidItem_namesIt_andWritesNothing() {
    List<NewMemory> batch =
        List.of(
            NewMemory.builder("batch", "Valid one.").build(),
            NewMemory.builder("batch", " ").build());
    assertThatThrownBy(() -> mnemo().rememberAll(batch))
        .isInstanceOfSatisfying(
            InvalidRequestException.class,
            e ->
                assertThat(e.violations())
                    .extracting(InvalidRequestException.Violation::field)
                    .containsExactly("memories[1].text"));
    List<MemoryRecord> all = new ArrayList<>();
    mnemo().export("batch", all::add);
    assertThat(all).isEmpty();
    assertThat(mnemo().rememberAll(List.of())).isEmpty();
  }

  @Test
  void rememberAll_writesInOrder() {
    List<MemoryRecord> out =
        mnemo()
            .rememberAll(
                List.of(
                    NewMemory.builder("order", "First.").build(),
                    NewMemory.builder("order", "Second.").build()));
    assertThat(out).extracting(MemoryRecord::text).containsExactly("First.", "Second.");
  }

  @Test
  void validate_reportsEveryViolationWithThePrefix_andWritesNothing() {
    List<InvalidRequestException.Violation> v =
        mnemo().validate(NewMemory.builder(" ", "").importance(2.0).build(), "line 3: ");
    assertThat(v)
        .extracting(InvalidRequestException.Violation::field)
        .contains("line 3: owner", "line 3: text");
    assertThat(v).allSatisfy(x -> assertThat(x.message()).startsWith("line 3: "));
    assertThat(mnemo().validate(NewMemory.builder("val", "Fine.").build(), "")).isEmpty();
  }

  @Test
  void markUsed_feedsTheCounters() {
    MemoryRecord r = mnemo().remember(NewMemory.builder("used", "Maya likes green tea.").build());
    assertThat(mnemo().markUsed("used", List.of(r.id(), "no-such-id"))).isEqualTo(1);
    MemoryRecord after = mnemo().get("used", r.id()).orElseThrow();
    assertThat(after.accessCount()).isEqualTo(1);
    assertThat(after.lastAccessedAt()).isNotNull();
    assertThat(mnemo().markUsed("used", List.of())).isZero();
  }

  @Test
  void forget_oneRecord_thenTheOwner() {
    MemoryRecord a = mnemo().remember(NewMemory.builder("gone", "Maya lives in Lisbon.").build());
    mnemo().remember(NewMemory.builder("gone", "Maya has a cat.").build());
    assertThat(mnemo().forget("gone", a.id())).isEqualTo(1);
    assertThat(mnemo().get("gone", a.id())).isEmpty();
    assertThat(mnemo().forget("gone", a.id())).isZero();
    assertThat(mnemo().forget("gone")).isEqualTo(1);
    List<MemoryRecord> left = new ArrayList<>();
    mnemo().export("gone", left::add);
    assertThat(left).isEmpty();
  }

  @Test
  void get_anotherOwnersId_isNotFound_andABlankOwnerIsRefused() {
    MemoryRecord r = mnemo().remember(NewMemory.builder("own-a", "A secret of A.").build());
    assertThat(mnemo().get("own-b", r.id())).isEmpty();
    assertThat(mnemo().forget("own-b", r.id())).isZero();
    assertThatThrownBy(() -> mnemo().get(" ", r.id()))
        .isInstanceOfSatisfying(
            InvalidRequestException.class, e -> assertThat(e.field()).isEqualTo("owner"));
  }

  @Test
  void export_streamsEveryVersion() {
    mnemo()
        .remember(
            NewMemory.builder("exp", "Maya uses Vim.").factKey("editor").validFrom(MARCH).build());
    mnemo()
        .remember(
            NewMemory.builder("exp", "Maya uses Emacs.").factKey("editor").validFrom(JUNE).build());
    List<MemoryRecord> all = new ArrayList<>();
    mnemo().export("exp", all::add);
    assertThat(all).extracting(MemoryRecord::text).contains("Maya uses Vim.", "Maya uses Emacs.");
    assertThat(all).allSatisfy(r -> assertThat(r.owner()).isEqualTo("exp"));
  }

  @Test
  void ingest_acceptsTurns_andWhatItStoresIsRecallable() {
    Instant at = Instant.parse("2026-05-03T10:00:00Z");
    IngestReceipt receipt =
        mnemo()
            .ingest(
                List.of(
                    Turn.of(
                            "ing",
                            "t1",
                            Turn.Role.USER,
                            "Maya",
                            "I adopted a greyhound called Biscuit.",
                            at)
                        .inEpisode("chat-1"),
                    Turn.of(
                            "ing",
                            "t2",
                            Turn.Role.ASSISTANT,
                            null,
                            "Congratulations on Biscuit!",
                            at.plusSeconds(5))
                        .inEpisode("chat-1"),
                    Turn.of(
                        "ing",
                        "t3",
                        Turn.Role.TOOL_CALL,
                        null,
                        "lookup(dog breeds)",
                        at.plusSeconds(6))));
    assertThat(receipt.accepted()).contains("t1", "t2", "t3");
    assertThat(receipt.records())
        .allSatisfy(r -> assertThat(mnemo().get("ing", r.id())).contains(r));
    assertThat(receipt.records()).noneMatch(r -> r.text().contains("lookup("));
    if (receipt.queued() == 0) {
      RecallResult r =
          mnemo().recall(RecallRequest.builder("ing", "What is the name of Maya's dog?").build());
      assertThat(r.rendered()).contains("Biscuit");
    }
    assertThatThrownBy(
            () -> mnemo().ingest(List.of(Turn.of("ing", "t4", Turn.Role.USER, null, " ", at))))
        .isInstanceOfSatisfying(
            InvalidRequestException.class,
            e ->
                assertThat(e.violations())
                    .extracting(InvalidRequestException.Violation::field)
                    .contains("turns[0].text"));
  }

  @Test
  void awaitIngested_thenSourcesReadTheTurnsBack_andProgressHasNothingPending() {
    Instant at = Instant.parse("2026-05-04T09:00:00Z");
    Mnemo m = mnemo();
    m.ingest(
        List.of(Turn.of("src", "s1", Turn.Role.USER, "Maya", "My sister Ana lives in Porto.", at)));
    assertThat(m.awaitIngested(java.time.Duration.ofSeconds(30))).isTrue();
    assertThat(m.ingestProgress().pending()).isZero();
    List<MemoryRecord> records = new ArrayList<>();
    m.export("src", records::add);
    MemoryRecord r =
        records.stream().filter(x -> x.sources().contains("s1")).findFirst().orElseThrow();
    assertThat(m.sources("src", r.id()))
        .singleElement()
        .satisfies(
            t -> {
              assertThat(t.id()).isEqualTo("s1");
              assertThat(t.text()).isEqualTo("My sister Ana lives in Porto.");
              assertThat(t.at()).isEqualTo(at);
            });
    assertThat(m.sources("src", "no-such-record")).isEmpty();
  }

  @Test
  void accept_aFailedAttempt_becomesAMemory_onceOnly_andAnUnknownTurnIsRefused() {
    Mnemo m = mnemo();
    m.ingest(
        List.of(
            new Turn(
                "f1",
                "acpt",
                "s1",
                Turn.Role.ASSISTANT,
                "assistant",
                "Your flight to Porto leaves at 7.",
                Instant.parse("2026-04-01T10:00:00Z"),
                "turn-9",
                1,
                Turn.Status.FAILED,
                Map.of())));
    assertThat(m.awaitIngested(java.time.Duration.ofSeconds(30))).isTrue();
    assertThat(records("acpt")).isEmpty();

    IngestReceipt accepted = m.accept("acpt", "f1");
    assertThat(accepted.accepted()).containsExactly("f1");
    assertThat(m.awaitIngested(java.time.Duration.ofSeconds(30))).isTrue();
    assertThat(records("acpt")).extracting(MemoryRecord::sources).containsExactly(List.of("f1"));
    assertThat(m.accept("acpt", "f1").duplicates()).containsExactly("f1");
    assertThatThrownBy(() -> m.accept("acpt", "no-such-turn"))
        .isInstanceOfSatisfying(
            InvalidRequestException.class, e -> assertThat(e.field()).isEqualTo("id"));
  }

  @Test
  void retrievalLog_findsCountsAndRatesTheRecall_andReplaysItWithAnotherThreshold() {
    Mnemo m = mnemo();
    m.remember(NewMemory.builder("logd", "Maya writes all her code in Emacs.").build());
    m.recall(
        RecallRequest.builder("logd", "Which editor does Maya use?")
            .threshold(0)
            .relativeThreshold(0)
            .minRelevance(0.0)
            .build());
    RetrievalLog log = m.retrievalLog().orElseThrow();
    RecallLogQuery mine = RecallLogQuery.all(10).withOwner("logd");
    m.diagnostics().ifPresent(d -> d.flushRecallLog(java.time.Duration.ofSeconds(10)));
    awaitLogged(log, mine);

    List<LoggedRecall> found = log.recalls(mine);
    assertThat(found)
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.request().query()).isEqualTo("Which editor does Maya use?");
              assertThat(e.selected()).hasSize(1);
              assertThat(e.trace().candidates()).isNotEmpty();
            });
    LoggedRecall e = found.get(0);
    assertThat(log.countRecalls(mine)).isEqualTo(1);
    assertThat(log.loggedRecall(e.id()))
        .get()
        .extracting(LoggedRecall::selected)
        .isEqualTo(e.selected());
    assertThat(log.loggedRecall("no-such-entry")).isEmpty();
    RecallStats stats = log.recallStats(mine);
    assertThat(stats.recalls()).isEqualTo(1);
    assertThat(stats.fetched()).isEqualTo(1);
    assertThat(stats.injectedTokens()).isPositive();

    Replay same = log.replay(e.id(), null).orElseThrow();
    assertThat(same.identical()).isTrue();
    assertThat(same.selectedNow()).isEqualTo(e.selected());
    Replay strict = log.replay(e.id(), b -> b.threshold(1.0).minRelevance(0.0)).orElseThrow();
    assertThat(strict.identical()).isFalse();
    assertThat(strict.removed()).isEqualTo(e.selected());
    assertThat(log.replay("no-such-entry", null)).isEmpty();
    assertThat(log.countRecalls(mine)).as("replays are not logged").isEqualTo(1);
  }

  /**
   * Logging is asynchronous, and a server offers no call that waits for it: ask until the entry is
   * there.
   */
  private static void awaitLogged(RetrievalLog log, RecallLogQuery q) {
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
    while (log.countRecalls(q) == 0 && System.nanoTime() < deadline) {
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
  }

  private List<MemoryRecord> records(String owner) {
    List<MemoryRecord> out = new ArrayList<>();
    mnemo().export(owner, out::add);
    return out;
  }
}
