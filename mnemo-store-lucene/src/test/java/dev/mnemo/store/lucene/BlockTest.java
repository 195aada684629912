package dev.mnemo.store.lucene;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.MemoryRecord;
import dev.mnemo.Mnemo;
import dev.mnemo.NewMemory;
import dev.mnemo.Packing;
import dev.mnemo.RecallRequest;
import dev.mnemo.RecallResult;
import dev.mnemo.Recalled;
import dev.mnemo.Weights;
import dev.mnemo.testkit.HashingEmbedder;
import dev.mnemo.testkit.MutableClock;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The block says how to use it: coverage packing weighs each record's token cost when the budget
 * binds, and the block can carry each line's relevance and a usage note, all within the budget.
 */
class BlockTest {
  @TempDir Path dir;
  private Mnemo mnemo;
  private MemoryRecord longOne;

  @BeforeEach
  void open() {
    mnemo =
        Mnemo.builder()
            .store(LuceneMemoryStore.open(dir))
            .embedder(new HashingEmbedder())
            .clock(MutableClock.at("2026-06-01T00:00:00Z"))
            .recallLogOptions(dev.mnemo.RecallLogOptions.OFF)
            .build();
    longOne =
        mnemo.remember(
            NewMemory.builder(
                    "maya",
                    "Maya's garden: she grows tomatoes, basil, peppers, zucchini, "
                        + "beans, lettuce, carrots, onions, garlic, strawberries and raspberries in raised beds behind the house.")
                .importance(1.0)
                .build());
    mnemo.remember(NewMemory.builder("maya", "Maya's garden has a pond.").importance(0.1).build());
    mnemo.remember(
        NewMemory.builder("maya", "Maya's garden gets morning sun.").importance(0.1).build());
  }

  @AfterEach
  void close() {
    mnemo.close();
  }

  private RecallRequest.Builder question(int budget) {
    return RecallRequest.builder("maya", "Maya's garden")
        .threshold(0)
        .relativeThreshold(0)
        .minRelevance(0.0)
        .weights(Weights.DEFAULT.withImportance(5.0))
        .budgetTokens(budget)
        .explain(true);
  }

  private static List<String> texts(RecallResult r) {
    return r.selected().stream().map(Recalled::record).map(MemoryRecord::text).toList();
  }

  @Test
  void
      coveragePacking_whenTheBudgetBinds_prefersTwoShortRecordsToOneLongOne_greedyTakesTheBestScore() {
    int budget =
        mnemo.diagnostics().orElseThrow().blockTokens(longOne, true)
            + 2; // the long one alone fits; so do the two short ones
    RecallResult greedy = mnemo.recall(question(budget).packing(Packing.GREEDY).build());
    RecallResult coverage = mnemo.recall(question(budget).packing(Packing.COVERAGE).build());

    assertThat(greedy.selected().get(0).record().id()).isEqualTo(longOne.id());
    assertThat(texts(greedy)).hasSize(1);
    assertThat(texts(coverage))
        .containsExactlyInAnyOrder("Maya's garden has a pond.", "Maya's garden gets morning sun.");
    assertThat(coverage.trace().candidates())
        .filteredOn(c -> c.outcome() == dev.mnemo.Outcome.SELECTED)
        .allSatisfy(c -> assertThat(c.reason()).contains("gain per token"));
    assertThat(coverage.renderedTokens()).isLessThanOrEqualTo(budget);

    // when the budget does not bind, coverage is plain MMR: the best record first, all three fit
    RecallResult roomy = mnemo.recall(question(400).packing(Packing.COVERAGE).build());
    assertThat(roomy.selected().get(0).record().id()).isEqualTo(longOne.id());
    assertThat(texts(roomy)).hasSize(3);
  }

  @Test
  void block_carriesEachLinesRelevanceAndAUsageNote_countedInTheBudget() {
    RecallResult r =
        mnemo.recall(
            question(400).blockRelevance(true).usageNote(RecallRequest.USAGE_NOTE).build());
    List<String> lines = r.rendered().lines().toList();
    assertThat(lines.get(0)).isEqualTo("Relevant memories (newest first):");
    assertThat(lines.get(1)).isEqualTo(RecallRequest.USAGE_NOTE);
    assertThat(lines.subList(2, lines.size()))
        .hasSize(3)
        .allSatisfy(l -> assertThat(l).matches("- \\[.*\\(relevance 0\\.\\d\\d\\)"));
    for (Recalled s : r.selected()) {
      assertThat(r.rendered())
          .contains(
              s.record().text()
                  + String.format(
                      java.util.Locale.ROOT,
                      " (relevance %.2f)",
                      // no relevance model fits this test's embedder: the block shows the match
                      Double.isNaN(s.relevance()) ? s.match() : s.relevance()));
    }
    assertThat(r.renderedTokens()).isEqualTo(JTokkit.count(r.rendered()));

    // the extras count: a budget the plain block of three fits leaves a record out once they are on
    int plain = mnemo.recall(question(400).build()).renderedTokens();
    RecallResult tight =
        mnemo.recall(
            question(plain).blockRelevance(true).usageNote(RecallRequest.USAGE_NOTE).build());
    assertThat(tight.renderedTokens()).isLessThanOrEqualTo(plain);
    assertThat(tight.selected()).hasSizeLessThan(3);
  }

  /** The engine's tokenizer. */
  private static final class JTokkit {
    static int count(String s) {
      return dev.mnemo.text.JTokkitTokenizer.cl100k().count(s);
    }
  }
}
