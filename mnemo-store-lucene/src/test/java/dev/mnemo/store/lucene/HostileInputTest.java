package dev.mnemo.store.lucene;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mnemo.InvalidRequestException;
import dev.mnemo.MemoryRecord;
import dev.mnemo.Mnemo;
import dev.mnemo.MnemoException;
import dev.mnemo.NewMemory;
import dev.mnemo.RecallRequest;
import dev.mnemo.StoredTurn;
import dev.mnemo.TemporalMode;
import dev.mnemo.Turn;
import dev.mnemo.spi.Consolidator;
import dev.mnemo.spi.Extractor;
import dev.mnemo.testkit.HashingEmbedder;
import dev.mnemo.testkit.MutableClock;
import dev.mnemo.write.OfflineExtractor;
import dev.mnemo.write.RuleConsolidator;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Inputs a store cannot represent are refused at the engine's edge naming the field, and nothing a
 * caller sends can leave the store in a state that refuses later writes.
 */
class HostileInputTest {
  @TempDir Path dir;
  final MutableClock clock = MutableClock.at("2026-05-01T12:00:00Z");

  private Mnemo open(boolean synchronous, Extractor extractor, Consolidator consolidator) {
    return Mnemo.builder()
        .store(LuceneMemoryStore.open(dir.resolve("index")))
        .embedder(new HashingEmbedder())
        .clock(clock)
        .synchronousIngest(synchronous)
        .extractor(extractor)
        .consolidator(consolidator)
        .build();
  }

  private static InvalidRequestException refused(Runnable r) {
    try {
      r.run();
    } catch (InvalidRequestException e) {
      return e;
    }
    throw new AssertionError("expected an InvalidRequestException");
  }

  @Test
  void extremeDates_areRefusedNamingTheField_andTheStoreKeepsWriting() {
    Instant far = Instant.parse("-999999999-01-01T00:00:00Z");
    try (Mnemo m = open(true, null, null)) {
      assertThat(
              refused(() -> m.remember(NewMemory.builder("o", "x").validFrom(far).build())).field())
          .isEqualTo("valid_from");
      assertThat(
              refused(() -> m.remember(NewMemory.builder("o", "x").validTo(Instant.MAX).build()))
                  .field())
          .isEqualTo("valid_to");
      assertThat(
              refused(() -> m.remember(NewMemory.builder("o", "x").recordedAt(far).build()))
                  .field())
          .isEqualTo("recorded_at");
      assertThat(
              refused(
                      () ->
                          m.rememberAll(
                              List.of(
                                  NewMemory.builder("o", "fine").build(),
                                  NewMemory.builder("o", "x").validFrom(far).build())))
                  .field())
          .isEqualTo("memories[1].valid_from");
      assertThat(m.validate(NewMemory.builder("o", "x").validFrom(far).build(), ""))
          .extracting(v -> v.field())
          .containsExactly("valid_from");
      assertThat(
              refused(() -> m.recall(RecallRequest.builder("o", "x").askedAt(far).build())).field())
          .isEqualTo("asked_at");
      assertThat(
              refused(
                      () ->
                          m.recall(
                              RecallRequest.builder("o", "x")
                                  .mode(TemporalMode.validAt(Instant.MAX))
                                  .build()))
                  .field())
          .isEqualTo("at");
      assertThat(
              refused(
                      () ->
                          m.ingest(
                              List.of(
                                  Turn.of(
                                      "o", "t1", Turn.Role.USER, "O", "hello there friend", far))))
                  .field())
          .isEqualTo("turns[0].at");

      MemoryRecord ok =
          m.remember(NewMemory.builder("o", "Still writable after all that.").build());
      assertThat(m.get("o", ok.id())).isPresent();
    }
  }

  @Test
  void theEdgesOfTheRange_areKeptExactly() {
    try (Mnemo m = open(true, null, null)) {
      MemoryRecord r =
          m.remember(
              NewMemory.builder("o", "From the first year to the last.")
                  .validFrom(dev.mnemo.InputRules.MIN_TIME)
                  .validTo(dev.mnemo.InputRules.MAX_TIME)
                  .build());
      MemoryRecord back = m.get("o", r.id()).orElseThrow();
      assertThat(back.validFrom()).isEqualTo(dev.mnemo.InputRules.MIN_TIME);
      assertThat(back.validTo()).isEqualTo(dev.mnemo.InputRules.MAX_TIME);
    }
  }

  @Test
  void recordedAtInTheFuture_beyondTheSkew_isRefused_withinItIsKept() {
    try (Mnemo m = open(true, null, null)) {
      InvalidRequestException e =
          refused(
              () ->
                  m.remember(
                      NewMemory.builder("o", "x")
                          .recordedAt(Instant.parse("9999-01-01T00:00:00Z"))
                          .build()));
      assertThat(e.field()).isEqualTo("recorded_at");
      assertThat(e.getMessage()).contains("future");
      assertThat(
              m.remember(
                      NewMemory.builder("o", "Within the skew.")
                          .recordedAt(clock.instant().plusSeconds(60))
                          .build())
                  .recordedAt())
          .isEqualTo(clock.instant().plusSeconds(60));
    }
  }

  @Test
  void owners_outsideTheSafeSet_areRefusedEverywhere() {
    try (Mnemo m = open(true, null, null)) {
      for (String owner :
          List.of(
              "a\u0000b", "admin\u202Egnp", "zero\u200Bwidth", "line\nbreak", "x".repeat(257))) {
        assertThat(refused(() -> m.remember(NewMemory.builder(owner, "text").build())).field())
            .isEqualTo("owner");
        assertThat(refused(() -> m.recall(RecallRequest.builder(owner, "text").build())).field())
            .isEqualTo("owner");
        assertThat(refused(() -> m.history(owner, "k")).field()).isEqualTo("owner");
        // an unsafe owner the store does not hold is refused here too (DELETE /v1/owners/{owner})
        assertThat(refused(() -> m.forget(owner)).field()).isEqualTo("owner");
        assertThat(refused(() -> m.forget(owner, "some-id")).field()).isEqualTo("owner");
      }
      assertThat(
              m.remember(
                  NewMemory.builder("Maya Łukasiewicz / team-7", "Names in any script are fine.")
                      .build()))
          .isNotNull();
    }
  }

  @Test
  void collectionsOverTheirLimit_areRefusedNamingTheLimit_andUsualSizesAreKept() {
    try (Mnemo m = open(true, null, null)) {
      Map<String, String> many = new java.util.HashMap<>();
      for (int i = 0; i <= dev.mnemo.InputRules.MAX_METADATA_ENTRIES; i++) many.put("k" + i, "v");
      InvalidRequestException e =
          refused(() -> m.remember(NewMemory.builder("o", "x").metadata(many).build()));
      assertThat(e.field()).isEqualTo("metadata");
      assertThat(e.getMessage())
          .contains("metadata must hold at most " + dev.mnemo.InputRules.MAX_METADATA_ENTRIES);
      List<String> ids = new java.util.ArrayList<>();
      for (int i = 0; i <= dev.mnemo.InputRules.MAX_SOURCES; i++) ids.add("s" + i);
      assertThat(
              refused(() -> m.remember(NewMemory.builder("o", "x").sources(ids).build()))
                  .getMessage())
          .contains("sources must hold at most " + dev.mnemo.InputRules.MAX_SOURCES);
      assertThat(
              refused(
                      () ->
                          m.remember(
                              NewMemory.builder("o", "x")
                                  .entities(ids.subList(0, dev.mnemo.InputRules.MAX_ENTITIES + 1))
                                  .build()))
                  .getMessage())
          .contains("entities must hold at most " + dev.mnemo.InputRules.MAX_ENTITIES);
      assertThat(
              refused(
                      () ->
                          m.ingest(
                              List.of(
                                  Turn.of(
                                      "o",
                                      "t1",
                                      Turn.Role.USER,
                                      "O",
                                      "word ".repeat(dev.mnemo.InputRules.MAX_TURN_CHARS / 5 + 1),
                                      clock.instant()))))
                  .field())
          .isEqualTo("turns[0].text");
      assertThat(
              refused(
                      () ->
                          RecallRequest.builder("o", "x")
                              .budgetTokens(dev.mnemo.InputRules.MAX_BUDGET_TOKENS + 1)
                              .build())
                  .field())
          .isEqualTo("budget_tokens");

      Map<String, String> usual = new java.util.HashMap<>();
      for (int i = 0; i < 40; i++) usual.put("key" + i, "value " + i);
      MemoryRecord kept =
          m.remember(
              NewMemory.builder("o", "A record of usual size.")
                  .metadata(usual)
                  .sources(ids.subList(0, 50))
                  .entities(ids.subList(0, 30))
                  .build());
      assertThat(m.get("o", kept.id()).orElseThrow().metadata()).hasSize(40);
    }
  }

  @Test
  void aLongTextOfManyDistinctWords_isWrittenAndRecalled() {
    // past 1,024 distinct words the text query once failed (Lucene's clause limit): 500 on
    // remember (the same-fact check) and on recall
    StringBuilder text = new StringBuilder();
    for (int i = 0; text.length() < 7_900; i++) text.append("w").append(i).append(' ');
    try (Mnemo m = open(true, null, null)) {
      MemoryRecord r = m.remember(NewMemory.builder("o", text.toString().trim()).build());
      MemoryRecord r2 = m.remember(NewMemory.builder("o", text.toString().trim() + " w0").build());
      assertThat(r2.id()).isNotNull();
      // answers (the gate may select nothing of such a text; what matters is no store failure)
      assertThat(m.recall(RecallRequest.builder("o", text.toString().trim()).k(5).build()).ids())
          .isSubsetOf(r.id(), r2.id());
    }
  }

  @Test
  void aTextQueryOfManyClauses_isBoundedPerField_keepingTheMostFrequentTerms() {
    StringBuilder text = new StringBuilder("zeta zeta zeta ");
    for (int i = 0; i < 2_000; i++) text.append("w").append(i).append(' ');
    var qb =
        new LexicalSearch.BoundedQueryBuilder(
            new org.apache.lucene.analysis.standard.StandardAnalyzer());
    var bounded =
        (org.apache.lucene.search.BooleanQuery)
            qb.createBooleanQuery(
                "text", text.toString(), org.apache.lucene.search.BooleanClause.Occur.SHOULD);
    assertThat(bounded.clauses()).hasSize(LexicalSearch.MAX_TEXT_CLAUSES);
    // the repeated term first, boosted by its count, then the earliest of the rest
    assertThat(bounded.clauses().get(0).query().toString()).isEqualTo("(text:zeta)^3.0");
    assertThat(bounded.clauses().get(1).query().toString()).isEqualTo("text:w0");
    // a short text is built as Lucene builds it (repeated words as repeated clauses)
    assertThat(
            qb.createBooleanQuery(
                    "text", "zeta zeta beta", org.apache.lucene.search.BooleanClause.Occur.SHOULD)
                .toString())
        .isEqualTo("text:zeta text:zeta text:beta");
  }

  @Test
  void anUnsafeOwnerWrittenBeforeTheRule_staysErasable() {
    String legacy = "zero\u200Bwidth";
    try (LuceneMemoryStore store = LuceneMemoryStore.open(dir.resolve("index"))) {
      store.apply(
          List.of(record(legacy, "r1", Map.of()), record(legacy, "r2", Map.of())), List.of());
    }
    try (Mnemo m = open(true, null, null)) {
      assertThat(m.forget(legacy, "r1")).isEqualTo(1);
      assertThat(m.forget(legacy)).isEqualTo(1);
      // once nothing is stored under it, the owner is refused like on every other call
      assertThat(refused(() -> m.forget(legacy)).field()).isEqualTo("owner");
    }
  }

  @Test
  void aRecordTheIndexCannotHold_failsAlone_andTheStoreStaysWritable() {
    try (LuceneMemoryStore store = LuceneMemoryStore.open(dir.resolve("raw"))) {
      MemoryRecord good = record("good", Map.of());
      MemoryRecord huge = record("huge", Map.of("k", "v".repeat(40_000)));
      assertThatThrownBy(() -> store.apply(List.of(good, huge), List.of()))
          .isInstanceOf(MnemoException.class)
          .hasMessageContaining("meta")
          .hasMessageContaining("nothing was written");
      assertThat(store.get("o", "good")).isEmpty(); // the batch is atomic
      store.apply(List.of(good), List.of());
      assertThat(store.get("o", "good")).isPresent();
    }
  }

  private static MemoryRecord record(String id, Map<String, String> meta) {
    return record("o", id, meta);
  }

  private static MemoryRecord record(String owner, String id, Map<String, String> meta) {
    Instant t = Instant.parse("2026-01-01T00:00:00Z");
    return new MemoryRecord(
        id,
        owner,
        null,
        dev.mnemo.Category.SEMANTIC,
        "text " + id,
        null,
        List.of(),
        null,
        -1,
        t,
        null,
        t,
        null,
        null,
        0,
        null,
        0.5,
        dev.mnemo.Authority.EXPLICIT,
        dev.mnemo.ConflictPolicy.SUPERSEDE,
        List.of(),
        0,
        null,
        null,
        null,
        meta,
        java.util.List.of());
  }

  @Test
  void acceptThenForget_beforeExtraction_leavesNoPhantomQueueSlot() throws Exception {
    CountDownLatch inside = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    OfflineExtractor offline = new OfflineExtractor();
    Extractor blockingForOthers =
        new Extractor() {
          @Override
          public String id() {
            return "blocking";
          }

          @Override
          public List<NewMemory> extract(Batch batch) {
            if (batch.owner().equals("other")) {
              inside.countDown();
              try {
                release.await(20, TimeUnit.SECONDS);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            }
            return offline.extract(batch);
          }
        };
    try (Mnemo m = open(false, blockingForOthers, null)) {
      Turn failed =
          new Turn(
              "a1",
              "maya",
              "s1",
              Turn.Role.ASSISTANT,
              "assistant",
              "Your flight to Porto leaves at 7",
              Instant.parse("2026-04-01T10:00:00Z"),
              "turn-9",
              1,
              Turn.Status.FAILED,
              Map.of());
      m.ingest(List.of(failed));
      m.ingest(
          List.of(
              Turn.of(
                  "other",
                  "o1",
                  Turn.Role.USER,
                  "Other",
                  "I grow tomatoes in my garden every summer",
                  Instant.parse("2026-04-01T10:00:00Z"))));
      assertThat(inside.await(20, TimeUnit.SECONDS))
          .isTrue(); // the worker is busy with the other owner
      m.accept("maya", "a1");
      m.forget("maya"); // deletes the pending turn before the worker sees it
      release.countDown();
      assertThat(m.awaitIngested(Duration.ofSeconds(10))).isTrue();
      assertThat(m.ingestProgress().pending()).isZero();
    }
  }

  @Test
  void aPoisonTurn_goesToTheDeadLetterList_afterItsRetries_andItsBatchmatesAreExtracted() {
    RuleConsolidator rules = new RuleConsolidator();
    Consolidator poisoned =
        new Consolidator() {
          @Override
          public String id() {
            return "poisoned";
          }

          @Override
          public Decision decide(NewMemory candidate, List<MemoryRecord> similar) {
            if (candidate.text().contains("poison"))
              throw new IllegalStateException("cannot consolidate this one");
            return rules.decide(candidate, similar);
          }
        };
    try (Mnemo m = open(false, null, poisoned)) {
      m.ingest(
          List.of(
              Turn.of(
                  "maya",
                  "t1",
                  Turn.Role.USER,
                  "Maya",
                  "I keep my bees in the poison ivy corner of the garden",
                  Instant.parse("2026-04-01T10:00:00Z")),
              Turn.of(
                  "maya",
                  "t2",
                  Turn.Role.USER,
                  "Maya",
                  "My sister Ana moved to Lisbon last spring",
                  Instant.parse("2026-04-01T10:01:00Z"))));
      assertThat(m.awaitIngested(Duration.ofSeconds(30))).isTrue();

      var progress = m.ingestProgress();
      assertThat(progress.deadLettered()).isEqualTo(1);
      assertThat(progress.deadLetters())
          .singleElement()
          .asString()
          .startsWith("maya/t1: dead letter after");
      assertThat(m.maintenance().orElseThrow().turn("maya", "t1").orElseThrow().state())
          .isEqualTo(StoredTurn.State.ERROR);
      assertThat(m.maintenance().orElseThrow().turn("maya", "t2").orElseThrow().state())
          .isEqualTo(StoredTurn.State.EXTRACTED);
      MemoryRecord ok =
          m.remember(NewMemory.builder("maya", "The store still takes writes.").build());
      assertThat(m.get("maya", ok.id())).isPresent();
    }
  }
}
