package dev.mnemo.eval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.LoggedRecall;
import dev.mnemo.Mnemo;
import dev.mnemo.NewMemory;
import dev.mnemo.RecallLogQuery;
import dev.mnemo.RecallRequest;
import dev.mnemo.json.JsonCodec;
import dev.mnemo.store.lucene.LuceneMemoryStore;
import dev.mnemo.testkit.HashingEmbedder;
import dev.mnemo.testkit.MutableClock;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogScenariosTest {
  @TempDir Path dir;

  @Test
  void aLoggedRecall_becomesAScenarioTheReaderAccepts_expectingWhatWasSelected() throws Exception {
    MutableClock clock = MutableClock.at("2026-06-01T00:00:00Z");
    try (Mnemo m =
        Mnemo.builder()
            .store(LuceneMemoryStore.open(dir))
            .embedder(new HashingEmbedder())
            .clock(clock)
            .build()) {
      m.remember(
          NewMemory.builder("maya", "Maya writes all her code in Vim.")
              .factKey("editor")
              .sources(java.util.List.of("e1"))
              .build());
      clock.advance(Duration.ofDays(1));
      m.remember(
          NewMemory.builder("maya", "Maya switched from Vim to Emacs.")
              .factKey("editor")
              .scope("work")
              .sources(java.util.List.of("e2"))
              .build());
      m.remember(NewMemory.builder("maya", "Maya's cat is called Pixel.").build());
      m.recall(
          RecallRequest.builder("maya", "Did Maya switch her editor from Vim to Emacs?").build());
      m.recall(RecallRequest.builder("maya", "quantum chromodynamics").build());
      m.diagnostics().orElseThrow().flushRecallLog(Duration.ofSeconds(10));
      var entries = m.retrievalLog().orElseThrow().recalls(RecallLogQuery.all(10));
      assertThat(entries).hasSize(2);
      LoggedRecall editor = entries.get(1);
      String line =
          JsonCodec.WRITER.writeValueAsString(
              LogScenarios.scenario(editor, id -> m.get("maya", id)));
      Scenario s = ScenarioReader.parse(line, "log");
      assertThat(s.queries()).hasSize(1);
      assertThat(s.queries().get(0).expect()).containsExactly("e2");
      assertThat(s.writes())
          .extracting(NewMemory::text)
          .contains("Maya switched from Vim to Emacs.");
      assertThat(s.writes())
          .filteredOn(w -> w.text().contains("Emacs"))
          .first()
          .satisfies(w -> assertThat(w.scope()).isEqualTo("work"));
      Scenario none =
          ScenarioReader.parse(
              JsonCodec.WRITER.writeValueAsString(
                  LogScenarios.scenario(entries.get(0), id -> m.get("maya", id))),
              "log");
      assertThat(none.queries().get(0).expectNone()).isTrue();
    }
  }
}
