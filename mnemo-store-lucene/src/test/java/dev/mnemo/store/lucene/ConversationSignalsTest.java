package dev.mnemo.store.lucene;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.CandidateTrace;
import dev.mnemo.Focus;
import dev.mnemo.Mnemo;
import dev.mnemo.NewMemory;
import dev.mnemo.RecallRequest;
import dev.mnemo.RecallResult;
import dev.mnemo.Turn;
import dev.mnemo.Weights;
import dev.mnemo.testkit.HashingEmbedder;
import dev.mnemo.testkit.MutableClock;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The read path's conversation-aware signals (window, speaker, context) and the request's focus.
 */
class ConversationSignalsTest {
  @TempDir Path dir;
  Mnemo mnemo;
  static final Instant T = Instant.parse("2026-05-01T10:00:00Z");

  @BeforeEach
  void open() {
    mnemo =
        Mnemo.builder()
            .store(LuceneMemoryStore.open(dir))
            .embedder(new HashingEmbedder())
            .clock(MutableClock.at("2026-06-01T00:00:00Z"))
            .build();
  }

  @AfterEach
  void close() {
    mnemo.close();
  }

  private static NewMemory turn(
      String episode, int seq, String speaker, String text, String context) {
    return NewMemory.builder("o", speaker + ": " + text)
        .episode(episode, seq)
        .source(episode + ":" + seq)
        .recordedAt(T)
        .validFrom(T)
        .context(context)
        .metadata(Map.of("speaker", speaker))
        .build();
  }

  private RecallResult ask(String q, Weights w) {
    return mnemo.recall(
        RecallRequest.builder("o", q)
            .weights(w)
            .threshold(0)
            .relativeThreshold(0)
            .minRelevance(0.0)
            .k(10)
            .explain(true)
            .build());
  }

  private static CandidateTrace trace(RecallResult r, String source) {
    return r.trace().candidates().stream()
        .filter(c -> c.sources().contains(source))
        .findFirst()
        .orElseThrow();
  }

  @Test
  void window_appliesToEpisodeRecordsOnly_andLiftsAShortReplyNextToTheTopic() {
    mnemo.rememberAll(
        List.of(
            turn("s1", 0, "Ana", "I went to the pottery workshop downtown", null),
            turn("s1", 1, "Ben", "Nice, when was that?", null),
            turn("s1", 2, "Ana", "Last Saturday, it was great", null),
            turn("s1", 3, "Ben", "Did the pottery teacher at the workshop help?", null),
            turn("s1", 4, "Ana", "Yes, I will book another pottery workshop", null),
            NewMemory.builder("o", "Ana bought pottery clay for the workshop")
                .source("loose")
                .build()));
    RecallResult with = ask("pottery workshop", Weights.DEFAULT);
    RecallResult without = ask("pottery workshop", Weights.DEFAULT.withWindow(0));
    // the record without an episode has no window, and its relevance is over the other weights only
    assertThat(trace(with, "loose").signals().window()).isZero();
    assertThat(trace(with, "loose").signals().match())
        .isEqualTo(trace(without, "loose").signals().match());
    // the reply that names no topic word gains from its neighbour
    assertThat(trace(with, "s1:2").signals().window()).isGreaterThan(0);
    assertThat(trace(with, "s1:2").signals().finalScore())
        .isGreaterThan(trace(without, "s1:2").signals().finalScore());
    // the threshold judges the record's own evidence: the window reorders, it does not admit
    assertThat(trace(with, "s1:2").signals().match())
        .isEqualTo(trace(without, "s1:2").signals().match());
  }

  @Test
  void entity_weighsTheNamesOfACasedQuery_notItsCommonWords() {
    // "Many" opens a sentence, so the record side counts it as a name (no lexicon tells it from
    // "Maya")
    mnemo.rememberAll(
        List.of(
            NewMemory.builder("o", "Many museums open late on Fridays.").source("many").build(),
            NewMemory.builder("o", "Ana took her niece to the Lisbon museums.")
                .source("ana")
                .build()));
    RecallResult cased = ask("How many museums did Ana visit?", Weights.DEFAULT);
    assertThat(trace(cased, "many").signals().entity()).isZero();
    assertThat(trace(cased, "ana").signals().entity()).isGreaterThan(0);
    assertThat(cased.trace().queryEntities()).containsExactly("ana");
    // typed all in lower case, any word may be a name
    RecallResult lower = ask("how many museums did ana visit", Weights.DEFAULT);
    assertThat(trace(lower, "many").signals().entity()).isGreaterThan(0);
    assertThat(trace(lower, "ana").signals().entity()).isGreaterThan(0);
  }

  @Test
  void speaker_boostsRecordsSaidInTheRoleTheQuestionsPersonPointsAt() {
    NewMemory user =
        NewMemory.builder("o", "I bought a new blender for smoothies")
            .episode("s1", 0)
            .source("user")
            .recordedAt(T)
            .validFrom(T)
            .metadata(Map.of("role", "user"))
            .build();
    NewMemory assistant =
        NewMemory.builder("o", "A new blender makes smoothies easy")
            .episode("s1", 1)
            .source("assistant")
            .recordedAt(T)
            .validFrom(T)
            .metadata(Map.of("role", "assistant"))
            .build();
    mnemo.rememberAll(List.of(user, assistant));
    RecallResult mine = ask("Which blender did I buy?", Weights.DEFAULT);
    assertThat(trace(mine, "user").signals().speaker()).isEqualTo(1);
    assertThat(trace(mine, "assistant").signals().speaker()).isZero();
    RecallResult yours = ask("Which blender did you recommend?", Weights.DEFAULT);
    assertThat(trace(yours, "user").signals().speaker()).isZero();
    assertThat(trace(yours, "assistant").signals().speaker()).isEqualTo(1);
    // both persons: no role is preferred; the weight switches the signal's effect off
    RecallResult both = ask("Remind me which blender you suggested", Weights.DEFAULT);
    assertThat(trace(both, "user").signals().speaker()).isZero();
    assertThat(trace(both, "assistant").signals().speaker()).isZero();
    RecallResult off = ask("Which blender did I buy?", Weights.DEFAULT.withSpeaker(0));
    assertThat(trace(off, "user").signals().finalScore())
        .isLessThan(trace(mine, "user").signals().finalScore());
  }

  @Test
  void speaker_boostsRecordsSaidByThePersonTheQueryNames() {
    mnemo.rememberAll(
        List.of(
            turn("s1", 0, "Ana", "I adopted a cat called Miso", null),
            turn("s1", 1, "Ben", "I adopted a cat called Tofu", null)));
    RecallResult r = ask("Which cat did Ben adopt?", Weights.DEFAULT.withWindow(0));
    assertThat(trace(r, "s1:1").signals().speaker()).isEqualTo(1.0);
    assertThat(trace(r, "s1:0").signals().speaker()).isZero();
    assertThat(r.selected().get(0).record().sources()).containsExactly("s1:1");
    RecallResult off =
        ask("Which cat did Ben adopt?", Weights.DEFAULT.withWindow(0).withSpeaker(0));
    assertThat(trace(off, "s1:1").signals().speaker()).isEqualTo(1.0); // still reported, weight 0
    assertThat(trace(off, "s1:1").signals().finalScore())
        .isLessThan(trace(r, "s1:1").signals().finalScore());
  }

  @Test
  void context_weightZeroSearchesTheTextAlone() {
    mnemo.rememberAll(
        List.of(turn("s1", 0, "Ana", "Yes, absolutely", "Ben: do you still play the cello?")));
    assertThat(ask("cello", Weights.DEFAULT.withDense(0).withWindow(0)).selected()).hasSize(1);
    assertThat(ask("cello", Weights.DEFAULT.withDense(0).withWindow(0).withContext(0)).selected())
        .isEmpty();
  }

  @Test
  void focus_retrievesWithTheQuestionNotTheChatter() {
    mnemo.rememberAll(
        List.of(
            NewMemory.builder("o", "Maya uses Emacs for all her code").source("editor").build(),
            NewMemory.builder("o", "The coffee machine at the office was repaired")
                .source("coffee")
                .build()));
    String message =
        "Ugh, the coffee machine at the office was repaired and broke again, no coffee at the office, "
            + "office coffee is the worst. Which editor does Maya use?";
    RecallRequest.Builder b =
        RecallRequest.builder("o", message)
            .k(1)
            .threshold(0)
            .relativeThreshold(0)
            .minRelevance(0.0)
            .weights(Weights.DEFAULT.withDense(0).withWindow(0))
            .explain(true);
    RecallResult plain = mnemo.recall(b.build());
    assertThat(trace(plain, "coffee").signals().bm25())
        .isGreaterThan(0.3); // the chatter's words match
    Focus rule = Focus.fromMessage(message);
    assertThat(rule.question()).isEqualTo("Which editor does Maya use?");
    assertThat(rule.entities()).contains("maya");
    RecallResult focused = mnemo.recall(b.focus(rule).build());
    assertThat(focused.selected().get(0).record().sources()).containsExactly("editor");
    assertThat(focused.trace().candidates())
        .noneMatch(c -> c.sources().contains("coffee") && c.signals().bm25() > 0);
    assertThat(focused.trace().query()).isEqualTo(message); // the message stays the request's query
  }

  @Test
  void focus_fromAMessageThatAsksNothingIsNone_andEntitiesAloneKeepTheMessage() {
    assertThat(Focus.fromMessage("Thanks, that was helpful.")).isEqualTo(Focus.NONE);
    RecallRequest r =
        RecallRequest.builder("o", "hello there")
            .focus(new Focus(null, null, null, List.of("Maya")))
            .build();
    assertThat(r.retrievalText()).isEqualTo("hello there");
    assertThat(r.focus().entityKeys()).containsExactly("maya");
  }

  @Test
  void ingest_recordsWhoSaidATurn() {
    mnemo.ingest(List.of(Turn.of("o", "t1", Turn.Role.USER, "Ana", "I moved to Lisbon", T)));
    assertThat(mnemo.awaitIngested(java.time.Duration.ofSeconds(30))).isTrue();
    assertThat(ask("Where did Ana move?", Weights.DEFAULT).selected().get(0).record().metadata())
        .containsEntry("speaker", "Ana");
  }
}
