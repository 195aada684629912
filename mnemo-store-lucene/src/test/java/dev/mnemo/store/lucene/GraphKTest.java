package dev.mnemo.store.lucene;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the graph of an owner's own index is asked for follows its segments and its size ({@link
 * LuceneMemoryStore#graphK}): one segment gets the whole reach, equal segments a share each, uneven
 * ones what their effective number of segments gives, a smaller index a share in proportion to its
 * size, and never less than k plus the rescoring margin. The indexes here are small, so the whole
 * reach is given from {@link #FULL} documents on.
 */
class GraphKTest {
  private static final int K = 50;
  private static final int REACH = LuceneMemoryStore.GRAPH_REACH;
  private static final int FULL = 1_000;

  @Test
  void theAsk_followsTheEffectiveNumberOfSegments(@TempDir Path dir) throws IOException {
    assertThat(askFor(dir.resolve("empty"))).isEqualTo(K + DenseSearch.RESCORE_MARGIN);
    assertThat(askFor(dir.resolve("one"), 1_000)).isEqualTo(K * REACH);
    assertThat(askFor(dir.resolve("four"), 250, 250, 250, 250)).isEqualTo(K * REACH / 4);
    // 0.8² + 0.2² = 0.68 of the reach
    assertThat(askFor(dir.resolve("uneven"), 800, 200))
        .isEqualTo((int) Math.ceil(K * REACH * 0.68));
    // many small segments: the floor
    int[] twenty = new int[20];
    java.util.Arrays.fill(twenty, 50);
    assertThat(askFor(dir.resolve("twenty"), twenty))
        .isEqualTo(Math.max(K + DenseSearch.RESCORE_MARGIN, K * REACH / 20));
  }

  @Test
  void aSmallerIndex_asksInProportionToItsSize(@TempDir Path dir) throws IOException {
    assertThat(askFor(dir.resolve("half"), 500)).isEqualTo(K * REACH / 2);
    assertThat(askFor(dir.resolve("half-in-two"), 250, 250)).isEqualTo(K * REACH / 4);
    // beyond the full size the reach stays whole
    assertThat(askFor(dir.resolve("double"), 2_000)).isEqualTo(K * REACH);
    // below the smallest share (a fifth: an index of the exact-scan limit), asked as at that share
    assertThat(askFor(dir.resolve("tenth"), 100)).isEqualTo(K * REACH / 5);
    // the store's own full size: an index of 500 documents is far below it, so a fifth
    try (Directory d = FSDirectory.open(dir.resolve("half"));
        DirectoryReader reader = DirectoryReader.open(d)) {
      assertThat(LuceneMemoryStore.graphK(reader, K, REACH)).isEqualTo(K * REACH / 5);
    }
  }

  @Test
  void moreSegments_neverAskMoreThanOne(@TempDir Path dir) throws IOException {
    int one = askFor(dir.resolve("a"), 1_200);
    int two = askFor(dir.resolve("b"), 600, 600);
    int skewed = askFor(dir.resolve("c"), 1_000, 100, 100);
    assertThat(two).isLessThan(skewed).isLessThan(one);
  }

  /** The ask for k = 50 on an index of segments of these sizes, kept apart. */
  private static int askFor(Path path, int... segments) throws IOException {
    IndexWriterConfig cfg = new IndexWriterConfig().setMergePolicy(NoMergePolicy.INSTANCE);
    try (Directory d = FSDirectory.open(path);
        IndexWriter w = new IndexWriter(d, cfg)) {
      int n = 0;
      for (int size : segments) {
        for (int i = 0; i < size; i++) {
          Document doc = new Document();
          doc.add(new StoredField("n", n++));
          w.addDocument(doc);
        }
        w.flush();
      }
      w.commit();
      try (DirectoryReader reader = DirectoryReader.open(d)) {
        assertThat(reader.leaves()).hasSize(segments.length);
        return DenseSearch.graphK(reader, K, REACH, FULL);
      }
    }
  }
}
