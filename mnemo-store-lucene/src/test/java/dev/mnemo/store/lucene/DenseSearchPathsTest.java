package dev.mnemo.store.lucene;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.Mnemo;
import dev.mnemo.NewMemory;
import dev.mnemo.spi.CandidateQuery;
import dev.mnemo.spi.Eligibility;
import dev.mnemo.testkit.HashingEmbedder;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dense search has two paths: an exact scan of the eligible vectors (few eligible records) and
 * Lucene's filtered HNSW search (many). Both must return eligible records only and, on a small
 * store, nearly the same neighbours (HNSW is approximate).
 */
class DenseSearchPathsTest {
  private static final String[] WORDS = {
    "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet",
    "kilo", "lima"
  };

  @Test
  void graphAndExactScan_returnTheSameEligibleNeighbours(@TempDir Path dir) {
    List<String> texts = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      texts.add(
          WORDS[i % 12] + " " + WORDS[(i / 12) % 12] + " " + WORDS[(i * 7) % 12] + " note " + i);
    }
    HashingEmbedder embedder = new HashingEmbedder();
    for (int limit : new int[] {0, Integer.MAX_VALUE}) {
      Path d = dir.resolve("limit-" + limit);
      try (Mnemo m =
          Mnemo.builder().store(LuceneMemoryStore.open(d, limit)).embedder(embedder).build()) {
        List<NewMemory> batch = new ArrayList<>();
        for (int i = 0; i < texts.size(); i++) {
          batch.add(
              NewMemory.builder(i % 3 == 0 ? "other" : "owner", texts.get(i))
                  .source("s" + i)
                  .recordedAt(Instant.parse("2026-01-01T00:00:00Z"))
                  .build());
        }
        m.rememberAll(batch);
      }
    }
    // compared by score at each rank: the hashing embedder makes exact ties, which the two paths
    // may break differently at the last rank
    List<List<Long>> results = new ArrayList<>();
    for (int limit : new int[] {0, Integer.MAX_VALUE}) {
      try (LuceneMemoryStore store = LuceneMemoryStore.open(dir.resolve("limit-" + limit), limit)) {
        var found =
            store.candidates(
                new CandidateQuery(
                    Eligibility.current("owner", Instant.parse("2026-06-01T00:00:00Z")),
                    embedder.embedQuery("alpha delta kilo"),
                    null,
                    Set.of(),
                    null,
                    20));
        assertThat(found.candidates())
            .isNotEmpty()
            .allSatisfy(c -> assertThat(c.record().owner()).isEqualTo("owner"));
        results.add(
            found.candidates().stream()
                .filter(c -> c.denseRank() > 0)
                .sorted(java.util.Comparator.comparingInt(c -> c.denseRank()))
                .map(c -> Math.round(c.cosine() * 1e5))
                .toList());
      }
    }
    // HNSW is approximate: its top 20 must hold the exact scan's best and overlap it almost wholly
    List<Long> graph = results.get(0);
    List<Long> exact = results.get(1);
    assertThat(graph).hasSize(20);
    assertThat(graph.subList(0, 5)).isEqualTo(exact.subList(0, 5));
    List<Long> common = new ArrayList<>(exact);
    common.retainAll(graph);
    assertThat(common.size()).isGreaterThanOrEqualTo(18);
  }
}
