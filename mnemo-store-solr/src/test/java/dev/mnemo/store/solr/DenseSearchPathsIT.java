package dev.mnemo.store.solr;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.Mnemo;
import dev.mnemo.NewMemory;
import dev.mnemo.spi.CandidateQuery;
import dev.mnemo.spi.CandidateSet;
import dev.mnemo.spi.Eligibility;
import dev.mnemo.testkit.HashingEmbedder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Both dense paths on SolrCloud (the {@code knn} parser's filtered HNSW search and the exact scan
 * by function query) return eligible records only, also when the owner is a small minority of the
 * collection (a {@code knn} clause that is not pre-filtered would find almost none of them), and
 * nearly the same neighbours.
 */
class DenseSearchPathsIT {
  static final String COLLECTION = "dense";
  static final Instant AT = Instant.parse("2026-06-01T00:00:00Z");
  private static final String[] WORDS = {
    "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet",
    "kilo", "lima"
  };
  static final HashingEmbedder EMBEDDER = new HashingEmbedder();

  @BeforeAll
  static void fill() {
    TestCluster c = TestCluster.shared();
    c.createCollection(COLLECTION, 2, 2, 64);
    List<NewMemory> batch = new ArrayList<>();
    for (int i = 0; i < 600; i++) {
      String text =
          WORDS[i % 12] + " " + WORDS[(i / 12) % 12] + " " + WORDS[(i * 7) % 12] + " note " + i;
      // "rare" holds 12 records of 600; "owner" a third
      String owner = i % 50 == 0 ? "rare" : i % 3 == 0 ? "other" : "owner";
      batch.add(
          NewMemory.builder(owner, text)
              .source("s" + i)
              .recordedAt(Instant.parse("2026-01-01T00:00:00Z"))
              .build());
    }
    try (Mnemo m = Mnemo.builder().store(c.store(COLLECTION)).embedder(EMBEDDER).build()) {
      m.rememberAll(batch);
    }
  }

  private static CandidateSet dense(int exactScanMax, String owner, int k) {
    try (SolrMemoryStore store = TestCluster.shared().store(COLLECTION, exactScanMax)) {
      return store.candidates(
          new CandidateQuery(
              Eligibility.current(owner, AT),
              EMBEDDER.embedQuery("alpha delta kilo"),
              null,
              Set.of(),
              null,
              k));
    }
  }

  @Test
  void hnsw_isPreFilteredByEligibility_soARareOwnerGetsAllItsRecords() {
    CandidateSet found = dense(0, "rare", 20);
    assertThat(found.candidates())
        .hasSize(12)
        .allSatisfy(
            c -> {
              assertThat(c.record().owner()).isEqualTo("rare");
              assertThat(c.denseRank()).isPositive();
            });
  }

  @Test
  void graphAndExactScan_returnTheSameEligibleNeighbours() {
    List<List<Long>> results = new ArrayList<>();
    for (int limit : new int[] {0, Integer.MAX_VALUE}) {
      CandidateSet found = dense(limit, "owner", 20);
      assertThat(found.candidates())
          .hasSize(20)
          .allSatisfy(c -> assertThat(c.record().owner()).isEqualTo("owner"));
      results.add(
          found.candidates().stream()
              .sorted(Comparator.comparingInt(c -> c.denseRank()))
              .map(c -> Math.round(c.cosine() * 1e5))
              .toList());
    }
    List<Long> graph = results.get(0);
    List<Long> exact = results.get(1);
    assertThat(graph.subList(0, 5)).isEqualTo(exact.subList(0, 5));
    List<Long> common = new ArrayList<>(exact);
    common.retainAll(graph);
    assertThat(common.size()).isGreaterThanOrEqualTo(18);
  }
}
