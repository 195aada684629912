package dev.mnemo.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.mnemo.spi.Embedder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

/**
 * The behaviour every {@link Embedder} must show: vectors of {@link Embedder#dimension()}
 * components, L2-normalized, the same for the same text, in input order, safe to compute from
 * several threads, and (for real models) closer for related texts than for unrelated ones.
 *
 * <p>Extend it and implement {@link #embedder()}; it may return the same instance every time (load
 * a model once per class) and the contract never closes it. Override {@link #semantic()} to return
 * false for a fake or a stub whose vectors carry no meaning, which skips the relatedness check.
 */
public abstract class EmbedderContract {

  /** The embedder under test; the contract never closes it. */
  protected abstract Embedder embedder();

  /** Whether the vectors mean something, so that related texts must score above unrelated ones. */
  protected boolean semantic() {
    return true;
  }

  /** How far a vector's norm may be from 1; float rounding alone stays far below. */
  protected static final double NORM_TOLERANCE = 1e-3;

  private static final List<String> TEXTS =
      List.of(
          "The cat is sleeping on the sofa.",
          "Our flight to Rome leaves at seven in the morning.",
          "She takes her coffee with oat milk and no sugar.",
          "The quarterly report is due next Friday.",
          "Remember to water the tomatoes every evening.");

  @Test
  void everyVectorHasTheDeclaredDimension() {
    Embedder e = embedder();
    assertThat(e.dimension()).isPositive();
    assertThat(e.embedQuery("where does the cat sleep?")).hasSize(e.dimension());
    assertThat(e.embedPassages(TEXTS))
        .hasSize(TEXTS.size())
        .allSatisfy(v -> assertThat(v).hasSize(e.dimension()));
  }

  @Test
  void vectorsAreNormalized() {
    Embedder e = embedder();
    assertThat(norm(e.embedQuery("where does the cat sleep?")))
        .isCloseTo(1.0, Offset.offset(NORM_TOLERANCE));
    for (float[] v : e.embedPassages(TEXTS)) {
      assertThat(norm(v)).isCloseTo(1.0, Offset.offset(NORM_TOLERANCE));
    }
  }

  @Test
  void theSameTextGivesTheSameVector() {
    Embedder e = embedder();
    assertThat(e.embedQuery("when is the report due?"))
        .containsExactly(e.embedQuery("when is the report due?"));
    List<float[]> first = e.embedPassages(TEXTS);
    List<float[]> second = e.embedPassages(TEXTS);
    for (int i = 0; i < TEXTS.size(); i++) {
      assertThat(second.get(i)).as("passage %d", i).containsExactly(first.get(i));
    }
  }

  @Test
  void passagesComeBackInInputOrder() {
    Embedder e = embedder();
    List<float[]> batch = e.embedPassages(TEXTS);
    List<String> reversed = new ArrayList<>(TEXTS.reversed());
    List<float[]> backwards = e.embedPassages(reversed);
    for (int i = 0; i < TEXTS.size(); i++) {
      float[] alone = e.embedPassages(List.of(TEXTS.get(i))).get(0);
      // Nearest, rather than equal, so that an embedder may batch (which can move vectors
      // slightly).
      assertThat(nearest(alone, batch)).as("passage %d in a batch", i).isEqualTo(i);
      assertThat(nearest(alone, backwards))
          .as("passage %d in a reversed batch", i)
          .isEqualTo(TEXTS.size() - 1 - i);
    }
  }

  @Test
  void anEmptyListGivesAnEmptyList() {
    assertThat(embedder().embedPassages(List.of())).isEmpty();
  }

  @Test
  void concurrentCallsGiveTheSameVectorsAsSequentialOnes() throws Exception {
    Embedder e = embedder();
    List<float[]> expected = e.embedPassages(TEXTS);
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<List<float[]>>> passages = new ArrayList<>();
      List<Future<float[]>> queries = new ArrayList<>();
      for (int k = 0; k < 8; k++) {
        passages.add(pool.submit(() -> e.embedPassages(TEXTS)));
        queries.add(pool.submit(() -> e.embedQuery(TEXTS.get(0))));
      }
      float[] query = e.embedQuery(TEXTS.get(0));
      for (Future<List<float[]>> f : passages) {
        List<float[]> got = f.get();
        for (int i = 0; i < TEXTS.size(); i++)
          assertThat(got.get(i)).containsExactly(expected.get(i));
      }
      for (Future<float[]> f : queries) assertThat(f.get()).containsExactly(query);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void relatedTextsScoreAboveUnrelatedOnes() {
    assumeTrue(semantic(), "this embedder's vectors carry no meaning");
    Embedder e = embedder();
    String[][] cases = {
      // query, a related passage (few shared words), an unrelated passage
      {
        "How do I bake bread at home?",
        "Mix flour, water, yeast and salt, let the dough rise, then put the loaf in a hot oven.",
        "The quarterly tax return has to be filed before the end of April."
      },
      {
        "What pets does Anna have?",
        "Anna owns two cats and a small dog that she walks every morning.",
        "The train to the airport leaves every twenty minutes from platform four."
      },
      {
        "Is it going to rain tomorrow?",
        "The forecast says showers and thunderstorms are expected on Saturday.",
        "My grandmother taught me how to knit scarves."
      },
    };
    for (String[] c : cases) {
      float[] q = e.embedQuery(c[0]);
      List<float[]> p = e.embedPassages(List.of(c[1], c[2]));
      assertThat(dot(q, p.get(0)))
          .as("'%s' vs related vs unrelated", c[0])
          .isGreaterThan(dot(q, p.get(1)));
    }
    assertThat(e.unrelatedSimilarity()).isBetween(0.0, 0.99);
  }

  @Test
  void hasAModelId() {
    assertThat(embedder().modelId()).isNotBlank();
  }

  /** The dot product, which is the cosine for normalized vectors. */
  protected static double dot(float[] a, float[] b) {
    double s = 0;
    for (int i = 0; i < a.length; i++) s += (double) a[i] * b[i];
    return s;
  }

  private static double norm(float[] v) {
    return Math.sqrt(dot(v, v));
  }

  private static int nearest(float[] v, List<float[]> candidates) {
    int best = -1;
    double bestScore = Double.NEGATIVE_INFINITY;
    for (int i = 0; i < candidates.size(); i++) {
      double s = dot(v, candidates.get(i));
      if (s > bestScore) {
        bestScore = s;
        best = i;
      }
    }
    return best;
  }
}
