package dev.mnemo.llm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.MemoryRecord;
import dev.mnemo.NewMemory;
import dev.mnemo.spi.Consolidator;
import dev.mnemo.spi.Consolidator.Action;
import dev.mnemo.testkit.ScriptedChatModel;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LlmConsolidatorTest {

  /** A stand-in rule consolidator: always CONFLICT with the first similar record. */
  static final Consolidator RULES =
      new Consolidator() {
        @Override
        public String id() {
          return "rules";
        }

        @Override
        public Decision decide(NewMemory candidate, List<MemoryRecord> similar) {
          return new Decision(Action.CONFLICT, similar.get(0).id(), "negation cue");
        }
      };

  static MemoryRecord record(String id, String text) {
    Instant t = Instant.parse("2026-01-01T00:00:00Z");
    return new MemoryRecord(
        id,
        "maya",
        null,
        dev.mnemo.Category.SEMANTIC,
        text,
        null,
        List.of("e1"),
        null,
        0,
        t,
        null,
        t,
        null,
        "home_city",
        1,
        "explicit",
        0.5,
        dev.mnemo.Authority.EXPLICIT,
        dev.mnemo.ConflictPolicy.SUPERSEDE,
        List.of(),
        0,
        null,
        null,
        null,
        Map.of(),
        java.util.List.of());
  }

  final NewMemory candidate =
      NewMemory.builder("maya", "Maya moved to Lisbon.").factKey("home_city").build();
  final List<MemoryRecord> similar =
      List.of(record("r1", "Maya lives in Berlin."), record("r2", "Maya likes tea."));

  LlmConsolidator consolidator(ScriptedChatModel m) {
    return new LlmConsolidator(
        new JsonChat(new RetryingChatModel(m, 1, Duration.ZERO, d -> {})), RULES);
  }

  @Test
  void decide_modelSaysUpdate_targetsTheRecordItNamed() {
    ScriptedChatModel m =
        new ScriptedChatModel()
            .reply("{\"action\": \"UPDATE\", \"target\": \"r1\", \"reason\": \"moved\"}");
    Consolidator.Decision d = consolidator(m).decide(candidate, similar);
    assertThat(d).isEqualTo(new Consolidator.Decision(Action.UPDATE, "r1", "llm: moved"));
    assertThat(m.calls().get(0).user())
        .contains("Maya moved to Lisbon.")
        .contains("[r1] Maya lives in Berlin.")
        .contains("[fact_key home_city]");
  }

  @Test
  void decide_noSimilarRecord_isAddWithoutACall() {
    ScriptedChatModel m = new ScriptedChatModel();
    assertThat(consolidator(m).decide(candidate, List.of()).action()).isEqualTo(Action.ADD);
    assertThat(m.calls()).isEmpty();
  }

  @Test
  void decide_unknownTargetThenValid_isAskedAgainOnce() {
    ScriptedChatModel m =
        new ScriptedChatModel()
            .reply("{\"action\": \"NOOP\", \"target\": \"r7\", \"reason\": \"same\"}")
            .reply("{\"action\": \"ADD\", \"target\": null, \"reason\": \"new\"}");
    assertThat(consolidator(m).decide(candidate, similar))
        .isEqualTo(Consolidator.Decision.add("llm: new"));
    assertThat(m.calls().get(1).user())
        .contains("must be the id of a record shown [r1, r2], was 'r7'");
  }

  @Test
  void decide_invalidTwice_fallsBackToTheRules() {
    ScriptedChatModel m =
        new ScriptedChatModel()
            .reply("{\"action\": \"MERGE\", \"target\": \"r1\", \"reason\": \"x\"}")
            .reply("{\"action\": \"ADD\", \"target\": \"r1\", \"reason\": \"x\"}");
    Consolidator.Decision d = consolidator(m).decide(candidate, similar);
    assertThat(d.action()).isEqualTo(Action.CONFLICT);
    assertThat(d.target()).isEqualTo("r1");
    assertThat(d.reason())
        .startsWith("llm failed (")
        .contains("target must be null for ADD")
        .endsWith("rules: negation cue");
  }

  @Test
  void decide_rateLimitedPastTheRetries_fallsBackToTheRules() {
    ScriptedChatModel m = new ScriptedChatModel().rateLimited().rateLimited();
    Consolidator.Decision d = consolidator(m).decide(candidate, similar);
    assertThat(d.action()).isEqualTo(Action.CONFLICT);
    assertThat(d.reason()).contains("still failing after 2 attempts");
  }
}
