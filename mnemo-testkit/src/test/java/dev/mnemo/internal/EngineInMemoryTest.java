package dev.mnemo.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mnemo.IngestReceipt;
import dev.mnemo.MemoryRecord;
import dev.mnemo.Mnemo;
import dev.mnemo.MnemoException;
import dev.mnemo.NewMemory;
import dev.mnemo.Outcome;
import dev.mnemo.RecallRequest;
import dev.mnemo.RecallResult;
import dev.mnemo.StoredTurn;
import dev.mnemo.TemporalMode;
import dev.mnemo.Turn;
import dev.mnemo.spi.Extractor;
import dev.mnemo.testkit.CityFactExtractor;
import dev.mnemo.testkit.HashingEmbedder;
import dev.mnemo.testkit.InMemoryMemoryStore;
import dev.mnemo.testkit.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * mnemo-core's engine, read path, write path and ingest pipeline on the in-memory reference store
 * and turn log: no disk, no index, no model, so they run in well under a second each. These tests
 * live in mnemo-testkit (in core's package, for its package-private parts) because the reference
 * store is here and core may not depend on the testkit (the testkit depends on core).
 */
class EngineInMemoryTest {
  private final MutableClock clock = MutableClock.at("2026-05-01T12:00:00Z");
  private final List<Mnemo> opened = new ArrayList<>();

  @AfterEach
  void close() {
    opened.forEach(Mnemo::close);
  }

  private Mnemo open(Mnemo.Builder b) {
    Mnemo m = b.build();
    opened.add(m);
    return m;
  }

  private Mnemo.Builder builder() {
    return Mnemo.builder()
        .store(new InMemoryMemoryStore())
        .embedder(new HashingEmbedder())
        .clock(clock);
  }

  private static Turn user(String id, String text, String at) {
    return Turn.of("maya", id, Turn.Role.USER, "Maya", text, Instant.parse(at));
  }

  private static RecallResult ask(Mnemo m, String query) {
    return m.recall(
        RecallRequest.builder("maya", query)
            .k(5)
            .threshold(0)
            .relativeThreshold(0)
            .minRelevance(0.0)
            .explain(true)
            .build());
  }

  @Test
  void readPath_selectsTheRecordThatAnswers_andTracesEveryCandidate() {
    Mnemo m = open(builder());
    m.remember(NewMemory.builder("maya", "Maya's sister Ana lives in Porto.").source("a").build());
    m.remember(NewMemory.builder("maya", "Maya plays the cello on Sundays.").source("b").build());
    m.remember(NewMemory.builder("someone-else", "Ana lives in Porto.").source("x").build());

    RecallResult r =
        m.recall(
            RecallRequest.builder("maya", "Where does Ana live?")
                .k(1)
                .threshold(0)
                .relativeThreshold(0)
                .minRelevance(0.0)
                .explain(true)
                .build());

    assertThat(r.sourceIds()).containsExactly("a");
    assertThat(r.rendered()).contains("Porto");
    assertThat(r.trace().candidates()).extracting(c -> c.sources().get(0)).doesNotContain("x");
    assertThat(r.trace().candidates())
        .anySatisfy(c -> assertThat(c.outcome()).isEqualTo(Outcome.BEYOND_K));
  }

  @Test
  void writePath_versionsAFactKey_andTheReadPathAnswersEachTime() {
    Mnemo m = open(builder());
    m.remember(
        NewMemory.builder("maya", "Maya lives in Porto.")
            .factKey("city")
            .source("p")
            .recordedAt(Instant.parse("2026-01-01T00:00:00Z"))
            .build());
    MemoryRecord lisbon =
        m.remember(
            NewMemory.builder("maya", "Maya lives in Lisbon.")
                .factKey("city")
                .source("l")
                .recordedAt(Instant.parse("2026-03-01T00:00:00Z"))
                .build());

    assertThat(lisbon.version()).isEqualTo(2);
    assertThat(m.history("maya", "city"))
        .hasSize(3); // the original, its clipped copy, the new version
    assertThat(ask(m, "Where does Maya live?").sourceIds()).containsExactly("l");
    assertThat(
            m.recall(
                    RecallRequest.builder("maya", "Where does Maya live?")
                        .threshold(0)
                        .relativeThreshold(0)
                        .minRelevance(0.0)
                        .mode(TemporalMode.validAt(Instant.parse("2026-02-01T00:00:00Z")))
                        .build())
                .sourceIds())
        .containsExactly("p");
  }

  @Test
  void synchronousIngest_extractsConsolidatesAndCommits_insideTheCall() {
    Mnemo m = open(builder().extractor(new CityFactExtractor()).synchronousIngest(true));

    IngestReceipt first = m.ingest(List.of(user("t1", "I live in Porto", "2026-04-01T10:00:00Z")));
    IngestReceipt moved =
        m.ingest(List.of(user("t2", "I moved to Lisbon", "2026-04-20T10:00:00Z")));

    assertThat(first.accepted()).containsExactly("t1");
    assertThat(first.records())
        .extracting(MemoryRecord::text)
        .containsExactly("The user's home city is Porto.");
    assertThat(moved.records()).extracting(MemoryRecord::factKey).containsOnly("city");
    assertThat(ask(m, "Which city does the user live in?").rendered())
        .contains("Lisbon")
        .doesNotContain("Porto");
    assertThat(m.sources("maya", moved.records().get(0).id()))
        .extracting(Turn::id)
        .containsExactly("t2");
    assertThat(m.ingestProgress().extracted()).isEqualTo(2);
  }

  @Test
  void ingest_isIdempotentByTurnId_andToolTurnsAreOnlyKept() {
    Mnemo m = open(builder().extractor(new CityFactExtractor()).synchronousIngest(true));
    Turn tool =
        new Turn(
            "t2",
            "maya",
            null,
            Turn.Role.TOOL_RESULT,
            "weather",
            "Sunny in Lisbon",
            Instant.parse("2026-04-01T10:00:01Z"),
            "t2",
            1,
            Turn.Status.COMPLETE,
            java.util.Map.of());

    m.ingest(List.of(user("t1", "I live in Porto", "2026-04-01T10:00:00Z"), tool));
    IngestReceipt again = m.ingest(List.of(user("t1", "I live in Porto", "2026-04-01T10:00:00Z")));

    assertThat(again.accepted()).isEmpty();
    assertThat(again.duplicates()).containsExactly("t1");
    assertThat(m.maintenance().orElseThrow().turn("maya", "t2"))
        .get()
        .extracting(StoredTurn::state)
        .isEqualTo(StoredTurn.State.KEPT);
    List<MemoryRecord> all = new ArrayList<>();
    m.export("maya", all::add);
    assertThat(all)
        .extracting(MemoryRecord::text)
        .containsExactly("The user's home city is Porto.");
  }

  @Test
  void backgroundIngest_onADurableLog_extractsAfterTheCall_andAwaitSeesItDone() {
    Mnemo m = open(builder().turnLog(new InMemoryTurnLog()).extractor(new CityFactExtractor()));

    IngestReceipt r =
        m.ingest(
            List.of(
                user("t1", "I live in Porto", "2026-04-01T10:00:00Z"),
                user("t2", "We adopted a cat called Miso", "2026-04-01T10:01:00Z")));

    assertThat(r.queued()).isEqualTo(2);
    assertThat(r.records()).isEmpty();
    assertThat(m.awaitIngested(Duration.ofSeconds(20))).isTrue();
    assertThat(m.ingestProgress().pending()).isZero();
    assertThat(m.ingestProgress().recordsWritten()).isEqualTo(2);
    assertThat(ask(m, "What is the cat called?").rendered()).contains("Miso");
  }

  @Test
  void aFullQueue_refusesTheNextIngest_retriably_havingStoredNothing() throws Exception {
    CountDownLatch extracting = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Extractor slow =
        new Extractor() {
          @Override
          public String id() {
            return "slow";
          }

          @Override
          public List<NewMemory> extract(Batch batch) {
            extracting.countDown();
            try {
              release.await(20, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
            return new CityFactExtractor().extract(batch);
          }
        };
    Mnemo m =
        open(
            builder()
                .turnLog(new InMemoryTurnLog())
                .extractor(slow)
                .ingestQueue(1, Duration.ofMillis(50)));

    m.ingest(List.of(user("t1", "I live in Porto", "2026-04-01T10:00:00Z")));
    assertThat(extracting.await(20, TimeUnit.SECONDS)).isTrue();
    assertThatThrownBy(
            () -> m.ingest(List.of(user("t2", "I moved to Lisbon", "2026-04-02T10:00:00Z"))))
        .isInstanceOfSatisfying(MnemoException.class, e -> assertThat(e.retriable()).isTrue())
        .hasMessageContaining("ingest queue full");
    assertThat(m.maintenance().orElseThrow().turn("maya", "t2")).isEmpty();

    release.countDown();
    assertThat(m.awaitIngested(Duration.ofSeconds(20))).isTrue();
    assertThat(
            m.ingest(List.of(user("t2", "I moved to Lisbon", "2026-04-02T10:00:00Z"))).accepted())
        .containsExactly("t2");
  }

  @Test
  void aNonRetriableExtractionFailure_keepsTheTurnsAsErrors_andTheQueueMovesOn() {
    Extractor broken =
        new Extractor() {
          @Override
          public String id() {
            return "broken";
          }

          @Override
          public List<NewMemory> extract(Batch batch) {
            throw new ExtractionException("the model refused", false, null);
          }
        };
    Mnemo m = open(builder().extractor(broken).synchronousIngest(true));

    IngestReceipt r = m.ingest(List.of(user("t1", "I live in Porto", "2026-04-01T10:00:00Z")));

    assertThat(r.records()).isEmpty();
    StoredTurn t = m.maintenance().orElseThrow().turn("maya", "t1").orElseThrow();
    assertThat(t.state()).isEqualTo(StoredTurn.State.ERROR);
    assertThat(t.note()).contains("extraction failed (broken): the model refused");
    assertThat(m.ingestProgress().errors()).isEqualTo(1);
  }

  @Test
  void forget_removesTheOwnersRecordsAndTurns_only() {
    Mnemo m = open(builder().extractor(new CityFactExtractor()).synchronousIngest(true));
    m.ingest(List.of(user("t1", "I live in Porto", "2026-04-01T10:00:00Z")));
    MemoryRecord other = m.remember(NewMemory.builder("sam", "Sam lives in Braga.").build());

    assertThat(m.forget("maya")).isEqualTo(1);

    assertThat(m.maintenance().orElseThrow().turn("maya", "t1")).isEmpty();
    assertThat(ask(m, "Where does the user live?").selected()).isEmpty();
    assertThat(m.get("sam", other.id())).isPresent();
  }

  @Test
  void keptReason_andValidate_areTheIngestRulesForOneTurn() {
    assertThat(IngestPipeline.keptReason(user("t1", "hi", "2026-04-01T10:00:00Z"))).isNull();
    Turn failed =
        new Turn(
            "t2",
            "maya",
            null,
            Turn.Role.ASSISTANT,
            "bot",
            "partial answer",
            Instant.parse("2026-04-01T10:00:00Z"),
            "turn-9",
            2,
            Turn.Status.FAILED,
            java.util.Map.of());
    assertThat(IngestPipeline.keptReason(failed))
        .isEqualTo(
            "failed attempt 2 of turn turn-9: kept as an error artifact; "
                + "a memory only once accepted");
    Turn blank =
        new Turn(
            "",
            "maya",
            null,
            Turn.Role.USER,
            "Maya",
            " ",
            null,
            "x",
            0,
            Turn.Status.COMPLETE,
            java.util.Map.of());
    assertThat(IngestPipeline.validate(blank, "turns[3].", null))
        .extracting(v -> v.field())
        .contains("turns[3].id", "turns[3].text", "turns[3].attempt");
  }

  @Test
  void aStoreWithoutARetrievalLog_hasNoRetrievalLogFacet_andNoFacetIsTheEngine() {
    Mnemo m = open(builder());
    assertThat(m.retrievalLog()).as("the reference store keeps no retrieval log").isEmpty();
    assertThat(m.maintenance()).get().isNotInstanceOf(Mnemo.class);
    assertThat(m.diagnostics()).get().isNotInstanceOf(Mnemo.class);
    assertThat(m.diagnostics().orElseThrow().store()).isInstanceOf(InMemoryMemoryStore.class);
    assertThat(m.diagnostics().orElseThrow().flushRecallLog(Duration.ofSeconds(1))).isTrue();
    assertThat(m.diagnostics().orElseThrow().recallLogBytes()).isZero();
  }

  @Test
  void writesOfDifferentOwners_doNotWaitForEachOther_writesOfOneOwnerDo() throws Exception {
    // owner a's write is held inside its planning (the same-fact look-up reads the store)
    CountDownLatch aPlanning = new CountDownLatch(1);
    CountDownLatch releaseA = new CountDownLatch(1);
    dev.mnemo.spi.MemoryStore store =
        new dev.mnemo.spi.ForwardingMemoryStore(new InMemoryMemoryStore()) {
          @Override
          public dev.mnemo.spi.CandidateSet candidates(dev.mnemo.spi.CandidateQuery q) {
            if (q.eligibility().owner().equals("a") && aPlanning.getCount() > 0) {
              aPlanning.countDown();
              try {
                releaseA.await(1, TimeUnit.MINUTES);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            }
            return super.candidates(q);
          }
        };
    Mnemo m = open(Mnemo.builder().store(store).embedder(new HashingEmbedder()).clock(clock));
    var pool = java.util.concurrent.Executors.newFixedThreadPool(3);
    try {
      var first = pool.submit(() -> m.remember(NewMemory.builder("a", "Ana likes tea.").build()));
      assertThat(aPlanning.await(1, TimeUnit.MINUTES)).isTrue();
      var secondOfA =
          pool.submit(() -> m.remember(NewMemory.builder("a", "Ana reads novels.").build()));
      // b's write completes while a's is held
      MemoryRecord b =
          pool.submit(() -> m.remember(NewMemory.builder("b", "Bo plays chess.").build()))
              .get(1, TimeUnit.MINUTES);
      assertThat(m.get("b", b.id())).isPresent();
      // a's second write waits for the first (it must plan against it)
      assertThatThrownBy(() -> secondOfA.get(200, TimeUnit.MILLISECONDS))
          .isInstanceOf(java.util.concurrent.TimeoutException.class);
      assertThat(first.isDone()).isFalse();
      releaseA.countDown();
      MemoryRecord a1 = first.get(1, TimeUnit.MINUTES);
      MemoryRecord a2 = secondOfA.get(1, TimeUnit.MINUTES);
      assertThat(m.get("a", a1.id())).isPresent();
      assertThat(m.get("a", a2.id())).isPresent();
    } finally {
      releaseA.countDown();
      pool.shutdownNow();
    }
  }
}
