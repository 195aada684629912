package dev.mnemo.store.lucene;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mnemo.Authority;
import dev.mnemo.Category;
import dev.mnemo.ConflictPolicy;
import dev.mnemo.InvalidRequestException;
import dev.mnemo.MemoryRecord;
import dev.mnemo.spi.Candidate;
import dev.mnemo.spi.CandidateQuery;
import dev.mnemo.spi.CandidateSet;
import dev.mnemo.spi.Eligibility;
import dev.mnemo.store.lucene.LuceneMemoryStore.Layout;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Quantized vectors in owners' own indexes: the graph is searched on the quantized copy, the
 * neighbours found are rescored with the float32 vectors (ranks follow exact cosines), and a change
 * of format opens the index as it is and applies to segments written afterwards.
 *
 * <p>An integration test (Failsafe, run by {@code bin/test} and CI, not by {@code bin/test
 * --fast}): owners moved into quantized HNSW indexes and searched, in each direction of a format
 * change (10 s under load).
 */
class QuantizedPartitionsIT {
  private static final int DIM = 48;
  private static final Instant T0 = Instant.parse("2025-01-01T00:00:00Z");

  @ParameterizedTest
  @EnumSource(VectorFormat.class)
  void graphSearch_rescoresWithFloatVectors_andFindsTheExactNeighbours(
      VectorFormat format, @TempDir Path dir) {
    Random random = new Random(7);
    List<MemoryRecord> records = records(random, 0, 1_500);
    // exact-scan limit 0: every dense search goes through the owner's graph
    try (LuceneMemoryStore store =
        LuceneMemoryStore.open(dir, new Layout(100, 4).withPartitionVectors(format), 0)) {
      store.apply(records, List.of());
      store.awaitMoves();
      assertThat(store.ownersWithOwnPartition()).containsExactly("owner-a");
      assertThat(store.vectorFormatsOf("owner-a")).containsOnly(format.luceneFormat().getName());
      double recall = 0;
      int queries = 30;
      for (int q = 0; q < queries; q++) {
        float[] v = unit(random);
        CandidateSet got =
            store.candidates(
                new CandidateQuery(Eligibility.allOf("owner-a"), v, null, Set.of(), null, 20));
        List<Candidate> dense =
            got.candidates().stream()
                .filter(c -> c.denseRank() > 0)
                .sorted(Comparator.comparingInt(Candidate::denseRank))
                .toList();
        assertThat(dense).hasSize(20);
        // ranks follow the exact cosines of the records found, not the quantized estimates
        for (int i = 1; i < dense.size(); i++)
          assertThat(dense.get(i).cosine()).isLessThanOrEqualTo(dense.get(i - 1).cosine());
        Set<String> exact = new HashSet<>(exactTop(records, v, 20));
        recall += dense.stream().filter(c -> exact.contains(c.record().id())).count() / 20.0;
      }
      // 1 bit of 48 random dimensions keeps less of the neighbourhood than a byte does; still most
      assertThat(recall / queries).isGreaterThanOrEqualTo(format == VectorFormat.BBQ ? 0.75 : 0.95);
    }
  }

  @Test
  void aFormatChange_opensTheIndexAsItIs_andAppliesToSegmentsWrittenAfter(@TempDir Path dir) {
    Random random = new Random(3);
    List<MemoryRecord> first = records(random, 0, 300);
    List<MemoryRecord> second = records(random, 300, 100);
    float[] v = unit(random);
    CandidateQuery q =
        new CandidateQuery(Eligibility.allOf("owner-a"), v, null, Set.of(), null, 400);
    List<String> before;
    try (LuceneMemoryStore store = LuceneMemoryStore.open(dir, new Layout(100, 4), 0)) {
      store.apply(first, List.of());
      store.awaitMoves();
      assertThat(store.vectorFormatsOf("owner-a")).containsOnly("Lucene99HnswVectorsFormat");
      before = ids(store.candidates(q));
    }
    Layout int7 = new Layout(100, 4).withPartitionVectors(VectorFormat.INT7);
    try (LuceneMemoryStore store = LuceneMemoryStore.open(dir, int7, 0)) {
      // k above the owner's count: every record found whatever the graph, so the ranks compare
      assertThat(ids(store.candidates(q))).isEqualTo(before);
      store.apply(second, List.of());
      assertThat(store.vectorFormatsOf("owner-a"))
          .containsExactly("Lucene99HnswVectorsFormat", "Lucene99HnswScalarQuantizedVectorsFormat");
      List<String> all = ids(store.candidates(q));
      assertThat(all).hasSize(400);
      List<MemoryRecord> both = new ArrayList<>(first);
      both.addAll(second);
      assertThat(all).isEqualTo(exactTop(both, v, 400));
    }
    // and back: the quantized segment still reads (rescored), new segments are float32 again
    try (LuceneMemoryStore store = LuceneMemoryStore.open(dir, new Layout(100, 4), 0)) {
      assertThat(ids(store.candidates(q))).hasSize(400);
      store.apply(records(random, 400, 10), List.of());
      assertThat(store.vectorFormatsOf("owner-a")).last().isEqualTo("Lucene99HnswVectorsFormat");
    }
  }

  @Test
  void provider_readsPartitionVectors_andRefusesAnUnknownFormat(@TempDir Path dir) {
    LuceneStoreProvider provider = new LuceneStoreProvider();
    provider.open(Map.of("dir", dir.resolve("a").toString(), "partition_vectors", "BBQ")).close();
    assertThatThrownBy(
            () ->
                provider.open(
                    Map.of("dir", dir.resolve("b").toString(), "partition_vectors", "int3")))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("float32, int7, bbq");
  }

  /** Dense ids best first by the exact cosine (the store's order: ties by index order). */
  static List<String> exactTop(List<MemoryRecord> records, float[] v, int k) {
    return records.stream()
        .sorted(Comparator.comparingDouble((MemoryRecord r) -> -dot(v, r.embedding())))
        .limit(k)
        .map(MemoryRecord::id)
        .toList();
  }

  private static List<String> ids(CandidateSet s) {
    return s.candidates().stream()
        .filter(c -> c.denseRank() > 0)
        .sorted(Comparator.comparingInt(Candidate::denseRank))
        .map(c -> c.record().id())
        .toList();
  }

  private static double dot(float[] a, float[] b) {
    return org.apache.lucene.util.VectorUtil.dotProduct(a, b);
  }

  static float[] unit(Random r) {
    float[] v = new float[DIM];
    double norm = 0;
    for (int i = 0; i < DIM; i++) {
      v[i] = (float) r.nextGaussian();
      norm += v[i] * v[i];
    }
    for (int i = 0; i < DIM; i++) v[i] /= (float) Math.sqrt(norm);
    return v;
  }

  static List<MemoryRecord> records(Random r, int from, int n) {
    List<MemoryRecord> out = new ArrayList<>();
    for (int i = from; i < from + n; i++) {
      Instant recorded = T0.plus(Duration.ofHours(i));
      out.add(
          new MemoryRecord(
              "id-" + i,
              "owner-a",
              null,
              Category.EPISODIC,
              "note " + i,
              null,
              List.of("turn-" + i),
              null,
              -1,
              recorded,
              null,
              recorded,
              null,
              null,
              0,
              null,
              0.5,
              Authority.EXPLICIT,
              ConflictPolicy.KEEP_BOTH,
              List.of(),
              0,
              null,
              unit(r),
              "test-model",
              Map.of(),
              List.of()));
    }
    return out;
  }
}
