package dev.mnemo.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mnemo.Authority;
import dev.mnemo.Category;
import dev.mnemo.NewMemory;
import dev.mnemo.Turn;
import dev.mnemo.spi.Extractor;
import dev.mnemo.testkit.ScriptedChatModel;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LlmExtractorTest {
  static final Instant T = Instant.parse("2026-03-10T09:00:00Z");

  static Turn turn(String id, String text) {
    return Turn.of("maya", id, Turn.Role.USER, "Maya", text, T);
  }

  static Extractor.Batch batch(Turn... turns) {
    return new Extractor.Batch("maya", List.of(), List.of(turns), ZoneOffset.UTC);
  }

  static String item(String text, String source, String validFrom) {
    return "{\"text\": \""
        + text
        + "\", \"kind\": \"decision\", \"category\": \"semantic\", \"importance\": 0.9, "
        + "\"fact_key\": \"home_city\", \"valid_from\": "
        + (validFrom == null ? "null" : "\"" + validFrom + "\"")
        + ", \"entities\": [\"Berlin\"], \"sources\": [\""
        + source
        + "\"]}";
  }

  static LlmExtractor extractor(ScriptedChatModel m, int perCall) {
    return new LlmExtractor(
        new JsonChat(new RetryingChatModel(m, 2, Duration.ZERO, d -> {})), perCall);
  }

  @Test
  void extract_validReply_givesCandidatesWithSourcesAndResolvedValidTime() {
    ScriptedChatModel m =
        new ScriptedChatModel()
            .reply(
                "{\"memories\": ["
                    + item("Maya moved to Berlin.", "t2", "2025-05-01")
                    + ", "
                    + item("Maya decided to stay in Berlin.", "t2", null)
                        .replace("\"home_city\"", "null")
                    + "]}");
    List<NewMemory> out =
        extractor(m, 30)
            .extract(batch(turn("t1", "hi!"), turn("t2", "I moved to Berlin last May.")));
    assertThat(out).hasSize(2);
    NewMemory first = out.get(0);
    assertThat(first.owner()).isEqualTo("maya");
    assertThat(first.sources()).containsExactly("t2");
    assertThat(first.validFrom()).isEqualTo(Instant.parse("2025-05-01T00:00:00Z"));
    assertThat(first.recordedAt()).isEqualTo(T);
    assertThat(first.factKey()).isEqualTo("home_city");
    assertThat(first.importance()).isEqualTo(0.9);
    assertThat(first.category()).isEqualTo(Category.SEMANTIC);
    assertThat(first.authority()).isEqualTo(Authority.DERIVED);
    assertThat(first.entities()).containsExactly("Berlin");
    assertThat(first.metadata())
        .containsEntry("kind", "decision")
        .containsEntry("extractor", "llm")
        .containsEntry("role", "user")
        .containsEntry("speaker", "Maya");
    assertThat(out.get(1).validFrom()).as("no date said: the turn's time").isEqualTo(T);
    assertThat(out.get(1).factKey()).isNull();
    assertThat(m.calls().get(0).user())
        .contains("[t1]")
        .contains("[t2] (2026-03-10T09:00:00Z) user Maya: I moved");
    assertThat(m.calls().get(0).system()).contains("small talk").contains("did not volunteer");
  }

  @Test
  void extract_recordedSession_rateLimitThenProseThenFencedJson_givesTheMemories() {
    ScriptedChatModel m =
        new ScriptedChatModel()
            .recording(
                java.nio.file.Path.of("src/test/resources/recordings/extractor-session.jsonl"));
    List<NewMemory> out =
        extractor(m, 30)
            .extract(
                batch(
                    turn(
                        "t1",
                        "I've been vegetarian since 2024, and I want to finally learn the cello this year.")));
    assertThat(out)
        .extracting(NewMemory::text)
        .containsExactly("Maya decided to learn the cello.", "Maya is vegetarian.");
    assertThat(out.get(0).category()).isEqualTo(Category.TASK);
    assertThat(out.get(1).validFrom()).isEqualTo(Instant.parse("2024-01-01T00:00:00Z"));
    assertThat(m.calls()).hasSize(3);
    assertThat(m.remaining()).isZero();
  }

  @Test
  void extract_emptyList_isAValidAnswer() {
    assertThat(
            extractor(new ScriptedChatModel().reply("{\"memories\": []}"), 30)
                .extract(batch(turn("t1", "thanks!"))))
        .isEmpty();
  }

  @Test
  void extract_sourceOutsideTheBatch_isAskedAgainOnce() {
    ScriptedChatModel m =
        new ScriptedChatModel()
            .reply("{\"memories\": [" + item("Maya moved to Berlin.", "t9", null) + "]}")
            .reply("{\"memories\": [" + item("Maya moved to Berlin.", "t1", null) + "]}");
    assertThat(extractor(m, 30).extract(batch(turn("t1", "I moved to Berlin")))).hasSize(1);
    assertThat(m.calls().get(1).user())
        .contains("sources must be ids of the turns")
        .contains("'t9'");
  }

  @Test
  void extract_invalidTwice_isANonRetriableExtractionException() {
    String outOfRange =
        "{\"memories\": [" + item("Maya moved to Berlin.", "t1", null).replace("0.9", "1.5") + "]}";
    ScriptedChatModel m =
        new ScriptedChatModel().reply(outOfRange).reply("{\"memories\": [{\"text\": \"x\"}]}");
    assertThatThrownBy(() -> extractor(m, 30).extract(batch(turn("t1", "I moved to Berlin"))))
        .isInstanceOfSatisfying(
            Extractor.ExtractionException.class, e -> assertThat(e.retriable()).isFalse())
        .hasMessageContaining("importance must be in [0, 1], was 1.5");
  }

  @Test
  void extract_badFieldsOfEveryKind_areRejected() {
    java.util.Map<String, Turn> turns = java.util.Map.of("t1", turn("t1", "x"));
    for (String[] bad :
        new String[][] {
          {"\"kind\": \"decision\"", "\"kind\": \"gossip\"", "kind must be one of"},
          {"\"category\": \"semantic\"", "\"category\": \"rumour\"", "category"},
          {"\"home_city\"", "\"Home City\"", "fact_key"},
          {"\"valid_from\": null", "\"valid_from\": \"last May\"", "valid_from must be YYYY-MM-DD"},
          {"\"sources\": [\"t1\"]", "\"sources\": []", "sources must name at least one"},
          {
            "\"entities\": [\"Berlin\"]",
            "\"entities\": [\"\"]",
            "entities must not hold an empty name"
          }
        }) {
      String json =
          "{\"memories\": [" + item("Maya moved.", "t1", null).replace(bad[0], bad[1]) + "]}";
      assertThatThrownBy(
              () -> LlmExtractor.check(JsonChat.parse(json, LlmExtractor.Reply.class), turns))
          .as(bad[1])
          .hasMessageContaining(bad[2]);
    }
  }

  @Test
  void extract_memoryRestingOnlyOnTheAssistant_isRejected() {
    java.util.Map<String, Turn> turns =
        java.util.Map.of(
            "t1",
            turn("t1", "Which editor?"),
            "a1",
            Turn.of(
                "maya", "a1", Turn.Role.ASSISTANT, "assistant", "You probably prefer Emacs.", T));
    String json = "{\"memories\": [" + item("Maya prefers Emacs.", "a1", null) + "]}";
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> LlmExtractor.check(JsonChat.parse(json, LlmExtractor.Reply.class), turns))
        .hasMessageContaining("not only the assistant's");
    LlmExtractor.check(
        JsonChat.parse(json.replace("[\"a1\"]", "[\"t1\", \"a1\"]"), LlmExtractor.Reply.class),
        turns);
  }

  @Test
  void extract_manyTurns_areBatchedIntoFewCallsWithThePreviousChunkAsContext() {
    ScriptedChatModel m = new ScriptedChatModel().responder(c -> "{\"memories\": []}");
    List<Turn> turns = new ArrayList<>();
    for (int i = 0; i < 70; i++) turns.add(turn("t" + i, "turn " + i));
    extractor(m, 30).extract(new Extractor.Batch("maya", List.of(), turns, ZoneOffset.UTC));
    assertThat(m.calls()).hasSize(3);
    String second = m.calls().get(1).user();
    assertThat(second)
        .contains("Context turns")
        .contains("[t29]")
        .contains("[t30]")
        .contains("[t59]")
        .doesNotContain("[t60]");
  }

  @Test
  void extract_laterChunkFails_returnsNothingOfTheBatch() {
    ScriptedChatModel m =
        new ScriptedChatModel()
            .reply("{\"memories\": [" + item("Maya moved to Berlin.", "t0", null) + "]}")
            .timeout()
            .timeout()
            .timeout();
    List<Turn> turns = List.of(turn("t0", "I moved to Berlin"), turn("t1", "and I love it"));
    assertThatThrownBy(
            () ->
                extractor(m, 1)
                    .extract(new Extractor.Batch("maya", List.of(), turns, ZoneOffset.UTC)))
        .isInstanceOfSatisfying(
            Extractor.ExtractionException.class, e -> assertThat(e.retriable()).isTrue())
        .hasMessageContaining("first t1");
  }
}
