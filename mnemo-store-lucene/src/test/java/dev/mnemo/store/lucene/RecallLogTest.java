package dev.mnemo.store.lucene;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.LoggedRecall;
import dev.mnemo.Mnemo;
import dev.mnemo.NewMemory;
import dev.mnemo.Outcome;
import dev.mnemo.RecallLogOptions;
import dev.mnemo.RecallLogQuery;
import dev.mnemo.RecallRequest;
import dev.mnemo.RecallResult;
import dev.mnemo.RecallStats;
import dev.mnemo.Replay;
import dev.mnemo.testkit.HashingEmbedder;
import dev.mnemo.testkit.MutableClock;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The retrieval log of the Lucene store, through the engine: logged, searched, replayed, forgotten.
 */
class RecallLogTest {
  @TempDir Path dir;
  MutableClock clock = MutableClock.at("2026-06-01T00:00:00Z");
  Mnemo m;

  @BeforeEach
  void open() {
    m = open(RecallLogOptions.DEFAULT);
  }

  private Mnemo open(RecallLogOptions options) {
    return Mnemo.builder()
        .store(LuceneMemoryStore.open(dir))
        .embedder(new HashingEmbedder())
        .clock(clock)
        .recallLogOptions(options)
        .build();
  }

  @AfterEach
  void close() {
    if (m != null) m.close();
  }

  private void history() {
    m.remember(
        NewMemory.builder("maya", "Maya writes all her code in Vim.").factKey("editor").build());
    clock.advance(Duration.ofDays(1));
    m.remember(
        NewMemory.builder("maya", "Maya switched from Vim to Emacs.").factKey("editor").build());
    m.remember(
        NewMemory.builder("maya", "Maya keeps a zebrafish aquarium beside the espresso machine.")
            .scope("work")
            .build());
    m.remember(NewMemory.builder("maya", "Maya's cat is called Pixel.").build());
    m.remember(NewMemory.builder("tom", "Tom writes his code in Vim too.").build());
    clock.advance(Duration.ofDays(1));
  }

  private LoggedRecall recallLogged(RecallRequest req) {
    RecallResult r = m.recall(req);
    assertThat(m.diagnostics().orElseThrow().flushRecallLog(Duration.ofSeconds(10))).isTrue();
    List<LoggedRecall> all = m.retrievalLog().orElseThrow().recalls(RecallLogQuery.all(1));
    assertThat(all).isNotEmpty();
    assertThat(all.get(0).selected()).isEqualTo(r.ids());
    return all.get(0);
  }

  @Test
  void recall_isLogged_withRequestCandidatesReasonsAndIneligibleCounts_andNoOtherOwnersAnything() {
    history();
    RecallResult r =
        m.recall(
            RecallRequest.builder("maya", "Which editor does Maya use for code?")
                .scope("home")
                .build());
    assertThat(r.trace()).as("the caller did not ask for the trace").isNull();
    m.diagnostics().orElseThrow().flushRecallLog(Duration.ofSeconds(10));
    LoggedRecall e = m.retrievalLog().orElseThrow().recalls(RecallLogQuery.all(10)).get(0);
    assertThat(e.owner()).isEqualTo("maya");
    assertThat(e.request().askedAt()).isEqualTo(clock.instant());
    assertThat(e.request().scope()).isEqualTo("home");
    assertThat(e.selected()).isEqualTo(r.ids()).isNotEmpty();
    assertThat(e.trace().candidates()).isNotEmpty();
    assertThat(e.trace().candidates()).allSatisfy(c -> assertThat(c.outcome()).isNotNull());
    assertThat(e.renderedTokens()).isEqualTo(r.renderedTokens());
    assertThat(e.engine())
        .containsKeys("embedder", "tokenizer", "relevance_model", "mnemo_version");
    assertThat(e.storeState()).startsWith("lucene:");
    // the Vim version is superseded; the aquarium is of another scope; Tom is not counted at all
    assertThat(e.ineligible())
        .containsEntry(LoggedRecall.NOT_KNOWN, 1L)
        .containsEntry(LoggedRecall.OTHER_SCOPE, 1L)
        .containsEntry("eligible", 2L)
        // the clipped copy of the Vim version: believed, but valid only before the switch
        .containsEntry(LoggedRecall.NOT_VALID, 1L);
    assertThat(e.trace().candidates()).noneMatch(c -> c.text().contains("Tom"));
  }

  @Test
  void smallTalk_thatSkipsRetrieval_isLoggedToo_withTheGatesReason() {
    history();
    LoggedRecall e =
        recallLogged(RecallRequest.builder("maya", "Thanks, that was helpful!").build());
    assertThat(e.owner()).isEqualTo("maya");
    assertThat(e.selected()).isEmpty();
    assertThat(e.trace().gate().fetch()).isEqualTo("skip");
    assertThat(e.trace().candidates()).isEmpty();
  }

  @Test
  void search_byOwnerTextRecordOutcomeAndTime() {
    history();
    Instant t0 = clock.instant();
    LoggedRecall editor =
        recallLogged(RecallRequest.builder("maya", "Which editor does Maya use?").build());
    clock.advance(Duration.ofHours(1));
    LoggedRecall nothing =
        recallLogged(RecallRequest.builder("maya", "quantum chromodynamics lattice").build());
    recallLogged(RecallRequest.builder("tom", "What does Tom write code in?").build());
    String emacs = editor.selected().get(0);

    assertThat(m.retrievalLog().orElseThrow().recalls(RecallLogQuery.all(10))).hasSize(3);
    assertThat(m.retrievalLog().orElseThrow().recalls(RecallLogQuery.all(10).withOwner("maya")))
        .extracting(LoggedRecall::id)
        .containsExactly(nothing.id(), editor.id()); // newest first
    assertThat(
            m.retrievalLog()
                .orElseThrow()
                .recalls(new RecallLogQuery(null, null, null, null, "editor", null, 0, 10)))
        .extracting(LoggedRecall::id)
        .containsExactly(editor.id());
    assertThat(
            m.retrievalLog()
                .orElseThrow()
                .recalls(new RecallLogQuery("maya", null, null, "selected", null, emacs, 0, 10)))
        .extracting(LoggedRecall::id)
        .containsExactly(editor.id());
    assertThat(nothing.abstained()).isTrue();
    assertThat(
            m.retrievalLog()
                .orElseThrow()
                .recalls(new RecallLogQuery("maya", null, null, "empty", null, null, 0, 10)))
        .extracting(LoggedRecall::id)
        .containsExactly(nothing.id());
    assertThat(
            m.retrievalLog()
                .orElseThrow()
                .recalls(
                    new RecallLogQuery(
                        null, t0, t0.plus(Duration.ofMinutes(30)), null, null, null, 0, 10)))
        .extracting(LoggedRecall::id)
        .containsExactly(editor.id());
    assertThat(m.retrievalLog().orElseThrow().countRecalls(RecallLogQuery.all(1))).isEqualTo(3);
    assertThat(m.retrievalLog().orElseThrow().loggedRecall(editor.id())).contains(editor);
  }

  /**
   * A logged recall's trace, built for the log though the caller did not ask for it, is the trace
   * of the same recall explained: every candidate's outcome, signals, features, probability and
   * contributions, those the gate never needed to score too; conflicting versions the packing
   * brought along stay out of the features.
   */
  @Test
  void aLoggedTrace_isTheTraceOfTheSameRecallExplained() {
    m.close();
    LuceneMemoryStore lucene = LuceneMemoryStore.open(dir);
    // a store whose candidates leave out the rooibos record, which then comes along only as a
    // conflicting version of the selected sencha one (as in a large store, where a version need
    // not be among the candidates)
    m =
        Mnemo.builder()
            .store(
                new dev.mnemo.spi.ForwardingMemoryStore(lucene) {
                  @Override
                  public dev.mnemo.spi.CandidateSet candidates(dev.mnemo.spi.CandidateQuery q) {
                    return withoutRooibos(super.candidates(q));
                  }

                  @Override
                  public dev.mnemo.spi.CandidateSet candidates(
                      dev.mnemo.spi.CandidateQuery q, java.util.function.Supplier<float[]> v) {
                    return withoutRooibos(super.candidates(q, v));
                  }
                })
            .embedder(new HashingEmbedder())
            .clock(clock)
            .build();
    history();
    m.remember(NewMemory.builder("maya", "Maya's favourite tea is sencha.").factKey("tea").build());
    m.remember(
        NewMemory.builder("maya", "Maya's favourite tea is rooibos.")
            .factKey("tea")
            .conflictPolicy(dev.mnemo.ConflictPolicy.KEEP_BOTH)
            .build());
    int outOfTheRunning = 0;
    int broughtAlong = 0;
    for (String q :
        List.of(
            "Which editor does Maya use?",
            "What is Maya's cat called?",
            "zebrafish espresso",
            "Which tea is Maya's favourite, sencha?")) {
      LoggedRecall plain = recallLogged(RecallRequest.builder("maya", q).build());
      LoggedRecall explained = recallLogged(RecallRequest.builder("maya", q).explain(true).build());
      assertThat(candidates(plain)).as(q).isEqualTo(candidates(explained)).isNotEmpty();
      // the log keeps the plain recall's features but not its contributions: the engine computed
      // them from the features as it read the entry back, and they are the explained recall's
      var stored = lucene.recallLog().orElseThrow().get(plain.id()).orElseThrow();
      assertThat(stored.trace().candidates())
          .filteredOn(c -> c.relevance() != null)
          .isNotEmpty()
          .allSatisfy(c -> assertThat(c.relevance().contributions()).isEmpty())
          .allSatisfy(c -> assertThat(c.relevance().features()).isNotEmpty());
      assertThat(plain.trace().candidates())
          .filteredOn(c -> c.relevance() != null)
          .allSatisfy(c -> assertThat(c.relevance().contributions()).containsKey("bias"));
      assertThat(plain.trace().queryEntities()).isEqualTo(explained.trace().queryEntities());
      outOfTheRunning +=
          (int)
              plain.trace().candidates().stream()
                  .filter(c -> c.relevance() != null && c.outcome() == Outcome.BELOW_THRESHOLD)
                  .filter(c -> !c.reason().contains("relevance probability"))
                  .count();
      broughtAlong +=
          (int)
              plain.trace().candidates().stream()
                  .filter(c -> c.foundBy().contains("conflict"))
                  .count();
    }
    assertThat(outOfTheRunning).as("candidates left out before the gate scored them").isPositive();
    assertThat(broughtAlong).as("versions brought along by the packing").isPositive();
  }

  private static dev.mnemo.spi.CandidateSet withoutRooibos(dev.mnemo.spi.CandidateSet s) {
    return new dev.mnemo.spi.CandidateSet(
        s.candidates().stream().filter(c -> !c.record().text().contains("rooibos")).toList(),
        s.bm25Max(),
        s.eligibleCount(),
        s.entityFrequencies(),
        s.versions());
  }

  /**
   * A trace's candidates as text: id, outcome, reason, signals, probability, features,
   * contributions.
   */
  private static List<String> candidates(LoggedRecall e) {
    return e.trace().candidates().stream()
        .map(
            c ->
                String.join(
                    " | ",
                    c.id(),
                    String.valueOf(c.outcome()),
                    String.valueOf(c.reason()),
                    String.valueOf(c.signals()),
                    String.valueOf(c.conflictsWith()),
                    c.relevance() == null
                        ? "-"
                        : c.relevance().probability()
                            + " "
                            + new java.util.TreeMap<>(c.relevance().features())
                            + " "
                            + new java.util.TreeMap<>(c.relevance().contributions())))
        .toList();
  }

  @Test
  void replay_ofAnUnchangedEngine_isIdentical_evenAfterLaterWrites_andAChangeOfWeightsShowsADiff() {
    history();
    LoggedRecall e =
        recallLogged(RecallRequest.builder("maya", "Which editor does Maya use?").k(3).build());
    clock.advance(Duration.ofDays(2));
    m.remember(
        NewMemory.builder("maya", "Maya now uses Zed as her editor.").factKey("editor").build());
    Replay same = m.retrievalLog().orElseThrow().replay(e.id(), null).orElseThrow();
    assertThat(same.identical()).isTrue();
    assertThat(same.selectedNow()).isEqualTo(e.selected());
    // later writes move BM25's corpus statistics, so scores may drift a little; no outcome changes
    assertThat(same.changes())
        .allSatisfy(c -> assertThat(c.outcomeNow()).isEqualTo(c.outcomeThen()));
    assertThat(same.engineChanges()).isEmpty();

    Replay changed =
        m.retrievalLog().orElseThrow().replay(e.id(), b -> b.threshold(1.0)).orElseThrow();
    assertThat(changed.identical()).isFalse();
    assertThat(changed.removed()).isEqualTo(e.selected());
    assertThat(changed.changes())
        .anySatisfy(
            c -> {
              assertThat(c.outcomeThen()).isEqualTo("selected");
              assertThat(c.outcomeNow()).isEqualTo(Outcome.BELOW_THRESHOLD.code());
            });
    assertThat(m.retrievalLog().orElseThrow().replay("no-such-entry", null)).isEmpty();
    assertThat(m.retrievalLog().orElseThrow().countRecalls(RecallLogQuery.all(1)))
        .as("replays are not logged")
        .isEqualTo(1);
  }

  @Test
  void forgetOwner_andForgetRecord_leaveNothingInTheLogsFiles() throws IOException {
    history();
    m.remember(NewMemory.builder("ana", "Ana hides the key under the marigold pot.").build());
    LoggedRecall ana =
        recallLogged(RecallRequest.builder("ana", "Where is the key, marigold?").build());
    LoggedRecall maya =
        recallLogged(RecallRequest.builder("maya", "Maya's zebrafish aquarium?").build());
    String fish =
        maya.trace().candidates().stream()
            .filter(c -> c.text().contains("zebrafish"))
            .findFirst()
            .orElseThrow()
            .id();
    Path log = dir.resolve(LuceneMemoryStore.RECALLS_DIR);
    // The log's stored fields are compressed (DEFLATE), so its files never show a text as such:
    // the check reads every stored document the files hold, deleted ones included.
    assertThat(storedContains(log, "marigold pot")).as("the check sees logged texts").isTrue();
    assertThat(storedContains(log, "beside the espresso machine")).isTrue();

    m.forget("ana");
    assertThat(m.retrievalLog().orElseThrow().loggedRecall(ana.id())).isEmpty();
    assertThat(storedContains(log, "marigold")).isFalse();
    assertThat(filesContain(log, "marigold")).isFalse();

    m.forget("maya", fish);
    LoggedRecall redacted = m.retrievalLog().orElseThrow().loggedRecall(maya.id()).orElseThrow();
    assertThat(redacted.trace().candidates()).extracting(c -> c.id()).doesNotContain(fish);
    assertThat(redacted.selected()).doesNotContain(fish);
    assertThat(
            m.retrievalLog()
                .orElseThrow()
                .recalls(new RecallLogQuery(null, null, null, null, null, fish, 0, 10)))
        .isEmpty();
    assertThat(storedContains(log, "espresso machine")).isFalse();
    assertThat(filesContain(log, "espresso machine")).isFalse();
  }

  @Test
  void usageFeedback_andRates() {
    history();
    LoggedRecall e =
        recallLogged(RecallRequest.builder("maya", "Which editor does Maya use?").k(2).build());
    recallLogged(RecallRequest.builder("maya", "quantum chromodynamics lattice").build());
    m.markUsed("maya", List.of(e.selected().get(0)));
    m.diagnostics().orElseThrow().flushRecallLog(Duration.ofSeconds(10));
    assertThat(m.retrievalLog().orElseThrow().loggedRecall(e.id()).orElseThrow().used())
        .containsExactly(e.selected().get(0));
    RecallStats s = m.retrievalLog().orElseThrow().recallStats(RecallLogQuery.all(1));
    assertThat(s.recalls()).isEqualTo(2);
    assertThat(s.fetchRate()).isEqualTo(0.5);
    assertThat(s.abstentionRate()).isEqualTo(0.5);
    assertThat(s.meanInjectedTokens()).isEqualTo(e.renderedTokens());
    assertThat(s.useRate()).isEqualTo(1.0 / e.selected().size());
  }

  @Test
  void offPerRequest_offByOptions_sampling_andRetention() {
    history();
    m.recall(RecallRequest.builder("maya", "editor?").log(false).build());
    m.diagnostics().orElseThrow().flushRecallLog(Duration.ofSeconds(10));
    assertThat(m.retrievalLog().orElseThrow().countRecalls(RecallLogQuery.all(1))).isZero();

    recallLogged(RecallRequest.builder("maya", "editor?").build());
    m.close();
    m = open(new RecallLogOptions(true, 1.0, Duration.ofDays(7), 100));
    clock.advance(Duration.ofDays(8));
    recallLogged(
        RecallRequest.builder("maya", "cat?").build()); // the writer's first pass applies retention
    assertThat(m.retrievalLog().orElseThrow().recalls(RecallLogQuery.all(10)))
        .extracting(x -> x.request().query())
        .containsExactly("cat?");

    m.close();
    m = open(RecallLogOptions.OFF);
    m.recall(RecallRequest.builder("maya", "editor?").build());
    assertThat(m.retrievalLog().orElseThrow().countRecalls(RecallLogQuery.all(1)))
        .as("still searchable when off")
        .isEqualTo(1);
  }

  @Test
  void aFullQueue_dropsAndCounts_neverBlocksTheRecall() {
    history();
    m.close();
    // the log's writer held in its first append: the queue of one fills, the rest is dropped
    LuceneMemoryStore store = LuceneMemoryStore.open(dir);
    dev.mnemo.spi.RecallLog real = store.recallLog().orElseThrow();
    java.util.concurrent.CountDownLatch gate = new java.util.concurrent.CountDownLatch(1);
    dev.mnemo.spi.RecallLog held =
        (dev.mnemo.spi.RecallLog)
            java.lang.reflect.Proxy.newProxyInstance(
                getClass().getClassLoader(),
                new Class<?>[] {dev.mnemo.spi.RecallLog.class},
                (proxy, method, args) -> {
                  if (method.getName().equals("append"))
                    gate.await(1, java.util.concurrent.TimeUnit.MINUTES);
                  try {
                    return method.invoke(real, args);
                  } catch (java.lang.reflect.InvocationTargetException e) {
                    throw e.getCause();
                  }
                });
    m =
        Mnemo.builder()
            .store(store)
            .embedder(new HashingEmbedder())
            .clock(clock)
            .recallLog(held)
            .recallLogOptions(new RecallLogOptions(true, 1.0, null, 1))
            .build();
    // more than one batch of the writer's (RecallLogger.BATCH, 256, which it may gather from the
    // queue before its first append) and the queue: some must be dropped, however fast the recalls
    int n = 256 + 200;
    for (int i = 0; i < n; i++) m.recall(RecallRequest.builder("maya", "editor " + i).build());
    gate.countDown();
    m.diagnostics().orElseThrow().flushRecallLog(Duration.ofSeconds(30));
    RecallStats s = m.retrievalLog().orElseThrow().recallStats(RecallLogQuery.all(1));
    assertThat(s.recalls() + s.dropped()).isEqualTo(n);
    assertThat(s.dropped()).isPositive();
  }

  /**
   * Whether any document in the index's files, live or deleted (not yet merged away), has a stored
   * value containing {@code marker}: reads the last commit's segments directly, ignoring deletions.
   */
  static boolean storedContains(Path dir, String marker) throws IOException {
    try (var d = org.apache.lucene.store.FSDirectory.open(dir);
        var reader = org.apache.lucene.index.DirectoryReader.open(d)) {
      for (var leaf : reader.leaves()) {
        var fields = leaf.reader().storedFields();
        for (int doc = 0; doc < leaf.reader().maxDoc(); doc++) {
          for (var f : fields.document(doc).getFields()) {
            if (f.stringValue() != null && f.stringValue().contains(marker)) return true;
          }
        }
      }
    }
    return false;
  }

  static boolean filesContain(Path dir, String marker) throws IOException {
    byte[] needle = marker.getBytes(StandardCharsets.UTF_8);
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : files.filter(Files::isRegularFile).toList()) {
        byte[] hay = Files.readAllBytes(p);
        outer:
        for (int i = 0; i + needle.length <= hay.length; i++) {
          for (int j = 0; j < needle.length; j++) if (hay[i + j] != needle[j]) continue outer;
          return true;
        }
      }
    }
    return false;
  }
}
