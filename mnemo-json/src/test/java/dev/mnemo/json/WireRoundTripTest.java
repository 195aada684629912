package dev.mnemo.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mnemo.Authority;
import dev.mnemo.CandidateTrace;
import dev.mnemo.Category;
import dev.mnemo.ConflictPolicy;
import dev.mnemo.Fusion;
import dev.mnemo.MemoryRecord;
import dev.mnemo.NewMemory;
import dev.mnemo.Outcome;
import dev.mnemo.Packing;
import dev.mnemo.RecallRequest;
import dev.mnemo.RecallResult;
import dev.mnemo.RecallTrace;
import dev.mnemo.Recalled;
import dev.mnemo.Signals;
import dev.mnemo.TemporalMode;
import dev.mnemo.TimeFilter;
import dev.mnemo.Weights;
import dev.mnemo.time.TimeRange;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The inverse forms: what a client writes is what the server reads, and what it reads back is what
 * was sent.
 */
class WireRoundTripTest {
  static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");

  static MemoryRecord record(String id, float[] embedding) {
    return new MemoryRecord(
        id,
        "maya",
        "work",
        Category.SEMANTIC,
        "Maya switched from Vim to Emacs.",
        "ctx",
        List.of("e1", "e2"),
        "chat-1",
        3,
        T0,
        T0.plusSeconds(60),
        T0.minusSeconds(3600),
        T0.plusSeconds(86_400),
        "editor",
        2,
        "r0",
        0.75,
        Authority.VERIFIED,
        ConflictPolicy.values()[ConflictPolicy.values().length - 1],
        List.of("maya", "emacs"),
        4,
        T0.plusSeconds(5),
        embedding,
        embedding == null ? null : "hash-8",
        Map.of("lang", "en", "a", "b"),
        java.util.List.of());
  }

  @Test
  void storedRecord_readsBackEveryComponent() {
    MemoryRecord full = record("r1", new float[] {0.1f, -0.25f, 1e-7f});
    assertThat(RecordJson.readAnswer(RecordJson.write(full, true))).isEqualTo(full);
    MemoryRecord bare =
        new MemoryRecord(
            "r2",
            "maya",
            null,
            Category.EPISODIC,
            "hi",
            null,
            List.of(),
            null,
            -1,
            T0,
            null,
            T0,
            null,
            null,
            0,
            null,
            0.5,
            Authority.EXPLICIT,
            ConflictPolicy.values()[0],
            List.of(),
            0,
            null,
            null,
            null,
            Map.of(),
            java.util.List.of());
    assertThat(RecordJson.readAnswer(RecordJson.write(bare, false))).isEqualTo(bare);
  }

  @Test
  void storedRecord_withoutEmbeddingOnTheWire_hasNoVector() {
    assertThat(
            RecordJson.readAnswer(RecordJson.write(record("r1", new float[] {1f}), false))
                .embedding())
        .isNull();
  }

  @Test
  void storedRecord_ignoresFieldsItDoesNotKnow_andNamesMissingOnes() {
    var o = RecordJson.write(record("r1", null), false);
    o.put("added_by_a_newer_server", true);
    assertThat(RecordJson.readAnswer(o).id()).isEqualTo("r1");
    o.remove("text");
    o.put("recorded_at", "yesterday");
    assertThatThrownBy(() -> RecordJson.readAnswer(o))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("record.text is required")
        .hasMessageContaining("record.recorded_at");
  }

  @Test
  void memory_encodedIsReadBackEqual() {
    NewMemory m =
        NewMemory.builder("maya", "Maya lives in Lisbon.")
            .scope("home")
            .category(Category.SEMANTIC)
            .context("ctx")
            .sources(List.of("t1"))
            .episode("chat-9", 4)
            .recordedAt(T0)
            .validFrom(T0.minusSeconds(10))
            .validTo(T0.plusSeconds(10))
            .factKey("city")
            .importance(0.9)
            .authority(Authority.VERIFIED)
            .conflictPolicy(ConflictPolicy.values()[ConflictPolicy.values().length - 1])
            .entities(List.of("lisbon"))
            .metadata(Map.of("k", "v"))
            .build();
    assertThat(MemoryJson.read(MemoryJson.write(m), "")).isEqualTo(m);
    NewMemory minimal = NewMemory.builder("maya", "hi").build();
    assertThat(MemoryJson.read(MemoryJson.write(minimal), "")).isEqualTo(minimal);
  }

  @Test
  void request_encodedIsReadBackEqual() {
    RecallRequest r =
        RecallRequest.builder("maya", "Which editor?")
            .askedAt(T0)
            .mode(TemporalMode.knownAt(T0.minusSeconds(99)))
            .scope("work")
            .categories(Set.of(Category.SEMANTIC, Category.EPISODIC))
            .metadata(Map.of("lang", "en"))
            .k(7)
            .budgetTokens(123)
            .threshold(0.2)
            .relativeThreshold(0.3)
            .fusion(Fusion.of("rrf"))
            .packing(Packing.COVERAGE)
            .timeFilter(TimeFilter.values()[TimeFilter.values().length - 1])
            .weights(
                Weights.DEFAULT.withDense(0.7).withWindow(0.2).withSpeaker(0.1).withContext(0.4))
            .halfLives(Map.of(Category.EPISODIC, Duration.ofDays(3)))
            .mmrLambda(0.4)
            .duplicateSimilarity(0.8)
            .candidates(77)
            .explain(true)
            .focus(
                new dev.mnemo.Focus(
                    "Which editor?", "set up the laptop", "an install script", List.of("Maya")))
            .build();
    assertThat(RequestJson.read(RequestJson.write(r), "")).isEqualTo(r);
    RecallRequest plain = RecallRequest.builder("maya", "q").mode(TemporalMode.validAt(T0)).build();
    assertThat(RequestJson.read(RequestJson.write(plain), "")).isEqualTo(plain);
  }

  /** A result with a trace of every kind of candidate. */
  static RecallResult result() {
    Signals s =
        new Signals(
            0.5,
            0.25,
            0.375,
            3.5,
            0.75,
            Double.NaN,
            0.6,
            Double.NaN,
            0.9,
            0.75,
            0.5,
            1.0,
            0.0,
            1.0,
            0.8125);
    CandidateTrace selected =
        new CandidateTrace(
            "r1",
            List.of("e1"),
            "Maya switched from Vim to Emacs.",
            "editor",
            T0,
            null,
            T0,
            new LinkedHashSet<>(List.of("dense", "bm25")),
            s,
            Outcome.SELECTED,
            null,
            9,
            List.of("r0"));
    CandidateTrace omitted =
        new CandidateTrace(
            "r0",
            List.of(),
            "Maya uses Vim.",
            "editor",
            T0.minusSeconds(5),
            T0,
            T0,
            new LinkedHashSet<>(List.of("bm25")),
            s,
            Outcome.BELOW_THRESHOLD,
            "relevance 0.041 < threshold 0.060",
            5,
            List.of());
    CandidateTrace unranked =
        new CandidateTrace(
            "r9", List.of(), "x", null, T0, null, T0, Set.of(), s, null, null, 1, List.of());
    RecallTrace trace =
        new RecallTrace(
            "maya",
            "Which editor in March?",
            T0,
            "valid_at",
            T0,
            T0,
            new TimeRange(T0.minusSeconds(86_400), T0, "in March"),
            List.of("maya"),
            Double.NaN,
            "weighted",
            "greedy",
            5,
            400,
            0.06,
            Weights.DEFAULT,
            "cl100k_base",
            null,
            List.of(selected, omitted, unranked),
            9,
            14,
            Map.of("embed", 1_500_000L, "pack", 0L));
    return new RecallResult(
        List.of(new Recalled(record("r1", null), 0.8125, 0.6, 0.4375, 9, List.of("r0"))),
        "- [since 2026-03-01] Maya switched from Vim to Emacs.",
        9,
        14,
        new RecallResult.Withheld(true, 2, 0.0212, 0.03),
        trace);
  }

  @Test
  void result_andTrace_readBackAsWritten() {
    RecallResult result = result();
    RecallTrace trace = result.trace();
    JsonNode wire = ResultJson.write(result);
    RecallResult back = ResultJson.read(wire);
    assertThat(ResultJson.write(back)).isEqualTo(wire);
    assertThat(back.selected()).isEqualTo(result.selected());
    assertThat(back.withheld()).isEqualTo(result.withheld());
    assertThat(back.trace()).isEqualTo(trace);
    assertThat(back.trace().candidates().get(2).outcome()).isNull();
    assertThat(
            ResultJson.write(
                    new RecallResult(List.of(), "", 0, 0, RecallResult.Withheld.NONE, null))
                .has("trace"))
        .isFalse();
    assertThat(
            ResultJson.read(
                    ResultJson.write(
                        new RecallResult(List.of(), "", 0, 0, RecallResult.Withheld.NONE, null)))
                .trace())
        .isNull();
  }

  @Test
  void result_inTheRestShape_readsBackEqual() {
    var rest = ResultJson.write(result(), ResultJson.Shape.REST);
    assertThat(rest.fieldNames())
        .toIterable()
        .containsExactly("records", "block", "tokens_used", "block_tokens", "withheld", "trace");
    RecallResult back = ResultJson.read(rest, ResultJson.Shape.REST);
    assertThat(back.selected()).isEqualTo(result().selected());
    assertThat(back.trace()).isEqualTo(result().trace());
    assertThat(back.rendered()).isEqualTo(result().rendered());
    assertThat(back.renderedTokens()).isEqualTo(14);
  }
}
