package dev.mnemo.llm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.IngestReceipt;
import dev.mnemo.MemoryRecord;
import dev.mnemo.Mnemo;
import dev.mnemo.Turn;
import dev.mnemo.store.lucene.LuceneMemoryStore;
import dev.mnemo.testkit.ScriptedChatModel;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The LLM extractor behind {@code Mnemo.ingest}: what the model extracts is what gets stored, with
 * its sources.
 */
class LlmWritePathTest {

  @Test
  void ingest_withTheLlmExtractor_storesTheExtractedMemoriesWithTheirSources(@TempDir Path dir) {
    ScriptedChatModel model =
        new ScriptedChatModel()
            .reply(
                """
        {"memories": [{"text": "Maya moved to Berlin.", "kind": "decision", "category": "semantic", "importance": 0.8,
          "fact_key": "home_city", "valid_from": "2026-02-01", "entities": ["Berlin"], "sources": ["t2"]}]}""");
    try (Mnemo mnemo =
        Mnemo.builder()
            .synchronousIngest(true)
            .store(LuceneMemoryStore.open(dir))
            .withoutEmbedder()
            .extractor(new LlmExtractor(new JsonChat(model)))
            .build()) {
      Instant at = Instant.parse("2026-03-10T09:00:00Z");
      IngestReceipt r =
          mnemo.ingest(
              List.of(
                  Turn.of("maya", "t1", Turn.Role.USER, "Maya", "Good morning!", at),
                  Turn.of(
                      "maya",
                      "t2",
                      Turn.Role.USER,
                      "Maya",
                      "We finally moved to Berlin in February.",
                      at),
                  Turn.of(
                      "maya", "t3", Turn.Role.TOOL_RESULT, null, "{\"weather\": \"rain\"}", at)));
      assertThat(r.accepted()).containsExactly("t1", "t2", "t3");
      List<MemoryRecord> history = mnemo.history("maya", "home_city");
      assertThat(history)
          .singleElement()
          .satisfies(
              m -> {
                assertThat(m.text()).isEqualTo("Maya moved to Berlin.");
                assertThat(m.sources()).containsExactly("t2");
                assertThat(m.validFrom()).isEqualTo(Instant.parse("2026-02-01T00:00:00Z"));
              });
      assertThat(model.calls()).hasSize(1);
      assertThat(model.calls().get(0).user())
          .contains("[t1]")
          .contains("[t2]")
          .doesNotContain("weather");
    }
  }
}
