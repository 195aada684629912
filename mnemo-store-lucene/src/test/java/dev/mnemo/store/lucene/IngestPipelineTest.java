package dev.mnemo.store.lucene;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.Category;
import dev.mnemo.IngestReceipt;
import dev.mnemo.MemoryRecord;
import dev.mnemo.Mnemo;
import dev.mnemo.NewMemory;
import dev.mnemo.RecallRequest;
import dev.mnemo.RecallResult;
import dev.mnemo.StoredTurn;
import dev.mnemo.TemporalMode;
import dev.mnemo.Turn;
import dev.mnemo.spi.Extractor;
import dev.mnemo.testkit.HashingEmbedder;
import dev.mnemo.testkit.MutableClock;
import dev.mnemo.write.OfflineExtractor;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The write path for turns, end to end on the Lucene store: turn log, offline extraction, rule
 * consolidation.
 */
class IngestPipelineTest {
  @TempDir Path dir;
  final MutableClock clock = MutableClock.at("2026-05-01T12:00:00Z");

  private Mnemo open(boolean synchronous, Extractor extractor) {
    return Mnemo.builder()
        .store(LuceneMemoryStore.open(dir.resolve("index")))
        .embedder(new HashingEmbedder())
        .clock(clock)
        .synchronousIngest(synchronous)
        .extractor(extractor)
        .build();
  }

  private static Turn user(String id, String text, String at) {
    return Turn.of("maya", id, Turn.Role.USER, "Maya", text, Instant.parse(at));
  }

  private static List<MemoryRecord> all(Mnemo m, String owner) {
    List<MemoryRecord> out = new ArrayList<>();
    m.export(owner, out::add);
    return out;
  }

  private static RecallResult ask(Mnemo m, String query) {
    return m.recall(
        RecallRequest.builder("maya", query)
            .k(20)
            .threshold(0)
            .relativeThreshold(0)
            .minRelevance(0.0)
            .build());
  }

  @Test
  void toolResults_andSystemMessages_neverAppearInRecall_butAreKeptAsTurns() {
    try (Mnemo m = open(true, null)) {
      Turn call =
          new Turn(
              "t1",
              "maya",
              "s1",
              Turn.Role.TOOL_CALL,
              "agent",
              "weather_lookup(city=Lisbon)",
              Instant.parse("2026-04-01T10:00:00Z"),
              null,
              1,
              null,
              Map.of());
      Turn result =
          new Turn(
              "t2",
              "maya",
              "s1",
              Turn.Role.TOOL_RESULT,
              "weather",
              "Lisbon sunny 24 degrees humidity low",
              Instant.parse("2026-04-01T10:00:01Z"),
              null,
              1,
              null,
              Map.of());
      Turn system =
          new Turn(
              "t3",
              "maya",
              "s1",
              Turn.Role.SYSTEM,
              null,
              "You are a helpful travel assistant for Lisbon trips",
              Instant.parse("2026-04-01T10:00:02Z"),
              null,
              1,
              null,
              Map.of());
      IngestReceipt r =
          m.ingest(
              List.of(
                  call,
                  result,
                  system,
                  user(
                      "t4",
                      "I am planning a trip to Lisbon in June with my sister",
                      "2026-04-01T10:01:00Z")));

      assertThat(r.accepted()).containsExactly("t1", "t2", "t3", "t4");
      assertThat(all(m, "maya")).extracting(MemoryRecord::sources).containsExactly(List.of("t4"));
      assertThat(ask(m, "Lisbon sunny weather humidity").sourceIds())
          .doesNotContain("t1", "t2", "t3");
      assertThat(m.maintenance().orElseThrow().turn("maya", "t2"))
          .get()
          .extracting(StoredTurn::state)
          .isEqualTo(StoredTurn.State.KEPT);
    }
  }

  @Test
  void failedAttempt_neverBecomesAMemory_untilAccepted_andItsRetryLinksToIt() {
    try (Mnemo m = open(true, null)) {
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
      Turn retry =
          new Turn(
              "a2",
              "maya",
              "s1",
              Turn.Role.ASSISTANT,
              "assistant",
              "Your flight to Porto departs at 9:15",
              Instant.parse("2026-04-01T10:00:05Z"),
              "turn-9",
              2,
              Turn.Status.COMPLETE,
              Map.of());
      m.ingest(List.of(failed, retry));

      assertThat(all(m, "maya")).extracting(MemoryRecord::sources).containsExactly(List.of("a2"));
      assertThat(m.maintenance().orElseThrow().turn("maya", "a1").orElseThrow().note())
          .contains("error artifact");

      IngestReceipt accepted = m.accept("maya", "a1");
      assertThat(accepted.records())
          .extracting(MemoryRecord::sources)
          .containsExactly(List.of("a1"));
      assertThat(m.accept("maya", "a1").duplicates()).containsExactly("a1");
    }
  }

  @Test
  void ingest_isIdempotentByTurnId_andSourcesReturnTheOriginals() {
    try (Mnemo m = open(true, null)) {
      Turn t =
          user(
              "u1",
              "I adopted a rescue greyhound named Biscuit last Saturday",
              "2026-04-15T09:00:00Z");
      IngestReceipt first = m.ingest(List.of(t));
      IngestReceipt again = m.ingest(List.of(t));

      assertThat(first.accepted()).containsExactly("u1");
      assertThat(again.duplicates()).containsExactly("u1");
      List<MemoryRecord> records = all(m, "maya");
      assertThat(records).hasSize(1);
      MemoryRecord r = records.get(0);
      assertThat(m.sources("maya", r.id())).containsExactly(t);
      // "last Saturday" against Wednesday 2026-04-15 is Saturday 2026-04-11
      assertThat(r.validFrom()).isEqualTo(Instant.parse("2026-04-11T00:00:00Z"));
      assertThat(r.entities()).contains("biscuit", "maya");
    }
  }

  @Test
  void theSameFactFiveTimes_isOneRecordWithFiveSources() {
    try (Mnemo m = open(true, null)) {
      for (int i = 0; i < 5; i++) {
        String text =
            i % 2 == 0 ? "I really love hiking in the Alps" : "I really love hiking in the Alps!";
        m.ingest(List.of(user("h" + i, text, "2026-04-0" + (i + 1) + "T10:00:00Z")));
      }
      List<MemoryRecord> records = all(m, "maya");
      assertThat(records).hasSize(1);
      assertThat(records.get(0).sources()).containsExactly("h0", "h1", "h2", "h3", "h4");
      assertThat(m.ingestProgress().duplicatesMerged()).isEqualTo(4);
    }
  }

  @Test
  void aCorrection_isANewVersion_theOldOneExpired_andStillAnswerableForValidAt() {
    try (Mnemo m = open(true, null)) {
      m.ingest(
          List.of(
              user(
                  "e1", "My favourite editor is Vim, I use it every day", "2026-01-10T10:00:00Z")));
      clock.set(Instant.parse("2026-03-01T10:00:00Z"));
      m.ingest(
          List.of(
              user(
                  "e2",
                  "My favourite editor is Emacs now, I switched last month",
                  "2026-03-01T10:00:00Z")));

      // "last month" dates the switch to February: Vim stays true for [Jan 10, Feb 1) as a clipped
      // copy
      List<MemoryRecord> history = m.history("maya", "maya/favorite editor");
      assertThat(history)
          .extracting(MemoryRecord::sources)
          .containsExactly(List.of("e1"), List.of("e1"), List.of("e2"));
      assertThat(history.get(0).expiredAt()).isEqualTo(Instant.parse("2026-03-01T10:00:00Z"));
      assertThat(history.get(2).validFrom()).isEqualTo(Instant.parse("2026-02-01T00:00:00Z"));
      assertThat(history.get(2).expiredAt()).isNull();

      RecallResult now = ask(m, "favourite editor");
      assertThat(now.sourceIds()).contains("e2").doesNotContain("e1");
      RecallResult january =
          m.recall(
              RecallRequest.builder("maya", "favourite editor")
                  .k(20)
                  .threshold(0)
                  .relativeThreshold(0)
                  .minRelevance(0.0)
                  .mode(TemporalMode.validAt(Instant.parse("2026-01-20T00:00:00Z")))
                  .build());
      assertThat(january.sourceIds()).contains("e1").doesNotContain("e2");
    }
  }

  @Test
  void aContradictionOfUnclearOrder_keepsBoth_flagged() {
    try (Mnemo m = open(true, null)) {
      m.ingest(
          List.of(
              user("p1", "I am allergic to peanuts and carry an epipen", "2026-04-01T10:00:00Z"),
              user(
                  "p2",
                  "I am not allergic to peanuts and carry an epipen",
                  "2026-04-01T10:00:00Z")));

      List<MemoryRecord> records = all(m, "maya");
      assertThat(records).hasSize(2).allMatch(r -> r.expiredAt() == null);
      assertThat(records).extracting(MemoryRecord::factKey).containsOnly("maya/allergy peanuts");
      RecallResult r = ask(m, "peanut allergy");
      assertThat(r.selected()).hasSize(2).allMatch(x -> !x.conflictsWith().isEmpty());
      assertThat(m.ingestProgress().conflicts()).isEqualTo(1);
    }
  }

  @Test
  void greetingsAndFiller_becomeNoMemory() {
    try (Mnemo m = open(true, null)) {
      m.ingest(
          List.of(
              user("g1", "Hey Mel, how are you doing today?", "2026-04-01T10:00:00Z"),
              user("g2", "Thanks so much, that sounds great!", "2026-04-01T10:00:01Z"),
              user("g3", "I finished my first marathon in Berlin", "2026-04-01T10:00:02Z")));
      assertThat(all(m, "maya")).extracting(MemoryRecord::sources).containsExactly(List.of("g3"));
      assertThat(m.maintenance().orElseThrow().turn("maya", "g1").orElseThrow().state())
          .isEqualTo(StoredTurn.State.EXTRACTED);
    }
  }

  @Test
  void restartInTheMiddleOfBackgroundExtraction_losesNothing_andDuplicatesNothing()
      throws Exception {
    CountDownLatch inside = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger calls = new AtomicInteger();
    OfflineExtractor offline = new OfflineExtractor();
    Extractor blocking =
        new Extractor() {
          @Override
          public String id() {
            return "blocking";
          }

          @Override
          public List<NewMemory> extract(Batch batch) {
            if (calls.incrementAndGet() == 2) {
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
    List<Turn> turns = new ArrayList<>();
    for (int s = 0; s < 3; s++) {
      for (int i = 0; i < 4; i++) {
        turns.add(
            user(
                    "s" + s + "t" + i,
                    "Session " + s + " detail number " + i + " about gardening tomatoes",
                    "2026-04-0" + (s + 1) + "T10:0" + i + ":00Z")
                .inEpisode("session-" + s));
      }
    }
    Mnemo first = open(false, blocking);
    IngestReceipt receipt = first.ingest(turns);
    assertThat(receipt.accepted()).hasSize(12);
    assertThat(inside.await(20, TimeUnit.SECONDS)).isTrue();
    Thread closer = Thread.ofPlatform().start(first::close);
    while (closer.getState() != Thread.State.TIMED_WAITING
        && closer.getState() != Thread.State.WAITING) {
      Thread.onSpinWait();
    }
    release.countDown(); // the batch in progress finishes after close began: its result must be
    // dropped
    closer.join();

    try (Mnemo second = open(false, null)) {
      assertThat(second.awaitIngested(Duration.ofSeconds(20))).isTrue();
      Map<String, Integer> seen = new HashMap<>();
      for (MemoryRecord r : all(second, "maya"))
        for (String src : r.sources()) seen.merge(src, 1, Integer::sum);
      assertThat(seen.keySet())
          .containsExactlyInAnyOrderElementsOf(turns.stream().map(Turn::id).toList());
      assertThat(seen.values()).containsOnly(1);
      assertThat(second.ingestProgress().pending()).isZero();
      assertThat(second.ingestProgress().extracted()).isEqualTo(12);
    }
  }

  @Test
  void aBatchCommittedButNotMarked_isNotExtractedAgainAfterRestart() {
    List<Turn> turns =
        List.of(
            user("c1", "I bought a cargo bike for the school run", "2026-04-01T10:00:00Z"),
            user("c2", "The cargo bike has an electric motor from Bosch", "2026-04-01T10:01:00Z"));
    try (Mnemo m = open(true, null)) {
      m.ingest(turns);
    }
    // simulate a crash between the records' commit and the turn log's update
    try (LuceneMemoryStore store = LuceneMemoryStore.open(dir.resolve("index"))) {
      var log = store.turnLog().orElseThrow();
      log.update(
          turns.stream().map(t -> new StoredTurn(t, StoredTurn.State.PENDING, 0, null)).toList());
    }
    try (Mnemo m = open(false, null)) {
      assertThat(m.awaitIngested(Duration.ofSeconds(20))).isTrue();
      assertThat(all(m, "maya")).hasSize(2);
      assertThat(m.ingestProgress().pending()).isZero();
    }
  }

  @Test
  void forget_removesEveryRecordAndTurnOfTheOwner_fromTheIndexFiles() throws IOException {
    // markers share no 4 letters: Lucene compresses stored fields with LZ4, where a repeated 4-gram
    // becomes a back-reference and the marker would not appear whole in the bytes
    try (Mnemo m = open(true, null)) {
      m.ingest(
          List.of(
              user("f1", "My locker code is zyxwvuq and I keep it secret", "2026-04-01T10:00:00Z"),
              new Turn(
                  "f2",
                  "maya",
                  null,
                  Turn.Role.TOOL_RESULT,
                  "tool",
                  "vault entry pfjdkbh",
                  Instant.parse("2026-04-01T10:00:01Z"),
                  null,
                  1,
                  null,
                  Map.of()),
              Turn.of(
                  "sam",
                  "k1",
                  Turn.Role.USER,
                  "Sam",
                  "My locker code is gmtlcnr for the gym",
                  Instant.parse("2026-04-01T10:00:02Z"))));
    }
    assertThat(filesContain("zyxwvuq")).isTrue();
    assertThat(filesContain("pfjdkbh")).isTrue();
    try (Mnemo m = open(true, null)) {
      assertThat(m.forget("maya")).isEqualTo(1);
      assertThat(m.maintenance().orElseThrow().turn("maya", "f2")).isEmpty();
    }
    assertThat(filesContain("zyxwvuq")).isFalse();
    assertThat(filesContain("pfjdkbh")).isFalse();
    assertThat(filesContain("gmtlcnr")).isTrue();
  }

  @Test
  void exportedTurns_importIntoAnotherStore_andAreExtractedThere() {
    List<StoredTurn> exported = new ArrayList<>();
    try (Mnemo m = open(true, null)) {
      m.ingest(
          List.of(
              user("x1", "I started learning Portuguese with a tutor", "2026-04-01T10:00:00Z")));
      m.maintenance().orElseThrow().exportTurns("maya", exported::add);
    }
    List<StoredTurn> pending =
        exported.stream().map(t -> t.with(StoredTurn.State.PENDING, null)).toList();
    try (Mnemo other =
        Mnemo.builder()
            .store(LuceneMemoryStore.open(dir.resolve("other")))
            .embedder(new HashingEmbedder())
            .clock(clock)
            .synchronousIngest(true)
            .build()) {
      assertThat(other.maintenance().orElseThrow().importTurns(pending)).isEqualTo(1);
      assertThat(all(other, "maya"))
          .extracting(MemoryRecord::sources, MemoryRecord::category)
          .containsExactly(org.assertj.core.groups.Tuple.tuple(List.of("x1"), Category.EPISODIC));
      assertThat(other.maintenance().orElseThrow().turn("maya", "x1"))
          .get()
          .extracting(StoredTurn::state)
          .isEqualTo(StoredTurn.State.EXTRACTED);
    }
  }

  @Test
  void anEpisodeSummary_inheritsEverySource_andSourcesReturnTheOriginals() {
    try (Mnemo m = open(true, null)) {
      List<Turn> turns =
          List.of(
              user(
                      "s1",
                      "I am planning the garden for spring with raised beds",
                      "2026-04-01T10:00:00Z")
                  .inEpisode("ep"),
              user("s2", "Tomatoes and basil go in the sunny corner", "2026-04-01T10:01:00Z")
                  .inEpisode("ep"),
              user("s3", "Thanks!", "2026-04-01T10:02:00Z").inEpisode("ep"),
              user("s4", "I decided to build the beds from larch wood", "2026-04-01T10:03:00Z")
                  .inEpisode("ep"));
      m.ingest(turns);
      MemoryRecord summary = m.summarize("maya", "ep").orElseThrow();
      assertThat(summary.category()).isEqualTo(Category.SEMANTIC);
      assertThat(summary.sources()).containsExactly("s1", "s2", "s4");
      assertThat(summary.text())
          .startsWith("Summary of ep: Maya: I am planning the garden")
          .contains("larch wood");
      assertThat(m.sources("maya", summary.id()))
          .extracting(Turn::id)
          .containsExactly("s1", "s2", "s4");
      assertThat(m.summarize("maya", "nothing-here")).isEmpty();
      clock.advance(Duration.ofMinutes(1));
      MemoryRecord again = m.summarize("maya", "ep").orElseThrow();
      assertThat(m.history("maya", "summary/ep"))
          .extracting(MemoryRecord::id)
          .containsExactly(summary.id(), again.id());
    }
  }

  @Test
  void movingARecordToAnotherCategory_isARecordedTransformation() {
    try (Mnemo m = open(true, null)) {
      MemoryRecord episodic =
          m.ingest(
                  List.of(
                      user(
                          "r1",
                          "Maya runs five kilometres every morning before work",
                          "2026-04-01T10:00:00Z")))
              .records()
              .get(0);
      clock.set(Instant.parse("2026-04-02T10:00:00Z"));
      MemoryRecord moved = m.recategorize("maya", episodic.id(), Category.PROCEDURAL);
      assertThat(moved.category()).isEqualTo(Category.PROCEDURAL);
      assertThat(moved.sources()).containsExactly("r1");
      assertThat(moved.metadata().get("transformation"))
          .isEqualTo("category episodic -> procedural (from " + episodic.id() + ")");
      List<MemoryRecord> history = m.history("maya", moved.factKey());
      assertThat(history)
          .extracting(MemoryRecord::category)
          .containsExactly(Category.EPISODIC, Category.PROCEDURAL);
      assertThat(history.get(0).expiredAt()).isEqualTo(Instant.parse("2026-04-02T10:00:00Z"));
    }
  }

  @Test
  void retention_expiresByCategoryPolicy_keepsImportantOnes_andDeletesUnnamedOldTurns() {
    try (Mnemo m = open(true, null)) {
      m.ingest(
          List.of(
              user("o1", "We had pasta with friends at the harbour", "2026-01-01T10:00:00Z"),
              user(
                  "o2",
                  "My favourite city is Kyoto and I visit every spring",
                  "2026-01-01T10:01:00Z"),
              user("o3", "Hello!", "2026-01-01T10:02:00Z"),
              user("o4", "Yesterday the train to Porto was late again", "2026-04-20T10:00:00Z")));
      var policies =
          Map.of(
              Category.EPISODIC, new dev.mnemo.RetentionPolicy(Duration.ofDays(60), null, 0, 0.8));
      Instant now = Instant.parse("2026-05-01T00:00:00Z");
      var report = m.maintenance().orElseThrow().retain("maya", policies, Duration.ofDays(30), now);
      assertThat(report.examined()).isEqualTo(3);
      assertThat(report.expired())
          .isEqualTo(1); // o1: episodic, four months old; o2 is semantic; o4 is recent
      assertThat(report.turnsDeleted()).isEqualTo(1); // o3, filler that no record names
      assertThat(m.maintenance().orElseThrow().turn("maya", "o1"))
          .isPresent(); // an expired record still names it
      RecallResult current =
          m.recall(
              RecallRequest.builder("maya", "pasta harbour friends")
                  .askedAt(now)
                  .k(20)
                  .threshold(0)
                  .relativeThreshold(0)
                  .minRelevance(0.0)
                  .build());
      assertThat(current.sourceIds()).doesNotContain("o1");
      assertThat(m.maintenance().orElseThrow().retain("maya", policies, Duration.ofDays(30), now))
          .isEqualTo(new dev.mnemo.RetentionReport(2, 0, 0));
    }
  }

  private boolean filesContain(String marker) throws IOException {
    return RecallLogTest.filesContain(dir, marker);
  }
}
