package dev.mnemo.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mnemo.spi.Embedder;
import dev.mnemo.testkit.HashingEmbedder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CachingEmbedderTest {

  /** Counts what reaches the model. */
  static final class Counting implements Embedder {
    final Embedder inner;
    final List<String> passages = new ArrayList<>();
    final List<String> queries = new ArrayList<>();
    boolean closed;

    Counting(Embedder inner) {
      this.inner = inner;
    }

    @Override
    public String modelId() {
      return inner.modelId();
    }

    @Override
    public int dimension() {
      return inner.dimension();
    }

    @Override
    public double unrelatedSimilarity() {
      return 0.25;
    }

    @Override
    public float[] embedQuery(String text) {
      queries.add(text);
      return inner.embedQuery(text);
    }

    @Override
    public List<float[]> embedPassages(List<String> texts) {
      passages.addAll(texts);
      return inner.embedPassages(texts);
    }

    @Override
    public void close() {
      closed = true;
    }
  }

  @Test
  void secondRun_reusesEveryVectorFromDisk_andEmbedsOnlyNewTexts(@TempDir Path dir) {
    HashingEmbedder model = new HashingEmbedder();
    Counting first = new Counting(model);
    List<float[]> v1;
    float[] q1;
    try (CachingEmbedder c = CachingEmbedder.open(first, dir)) {
      v1 = c.embedPassages(List.of("the cat sat", "a dog ran", "the cat sat"));
      q1 = c.embedQuery("where is the cat");
      assertThat(c.misses()).isEqualTo(4);
      assertThat(c.size()).isEqualTo(3);
      assertThat(c.unrelatedSimilarity()).isEqualTo(0.25);
    }
    assertThat(first.closed).isTrue();
    assertThat(first.passages).containsExactly("the cat sat", "a dog ran", "the cat sat");

    Counting second = new Counting(model);
    try (CachingEmbedder c = CachingEmbedder.open(second, dir)) {
      List<float[]> v2 = c.embedPassages(List.of("a dog ran", "a new text", "the cat sat"));
      assertThat(v2.get(0)).containsExactly(v1.get(1));
      assertThat(v2.get(2)).containsExactly(v1.get(0));
      assertThat(v2.get(1)).containsExactly(model.embedPassages(List.of("a new text")).get(0));
      assertThat(c.embedQuery("where is the cat")).containsExactly(q1);
      assertThat(c.hits()).isEqualTo(3);
      assertThat(c.misses()).isEqualTo(1);
    }
    assertThat(second.passages).containsExactly("a new text");
    assertThat(second.queries).isEmpty();
  }

  @Test
  void queryAndPassage_ofOneText_areKeptApart(@TempDir Path dir) {
    Counting model = new Counting(new HashingEmbedder());
    try (CachingEmbedder c = CachingEmbedder.open(model, dir)) {
      c.embedPassages(List.of("same text"));
      c.embedQuery("same text");
    }
    assertThat(model.queries).containsExactly("same text");
  }

  @Test
  void anotherModel_getsItsOwnFile(@TempDir Path dir) {
    try (CachingEmbedder a = CachingEmbedder.open(new HashingEmbedder(64), dir);
        CachingEmbedder b = CachingEmbedder.open(new HashingEmbedder(32), dir)) {
      assertThat(a.file()).isNotEqualTo(b.file());
      a.embedPassages(List.of("x"));
      assertThat(b.embedPassages(List.of("x")).get(0)).hasSize(32);
    }
  }

  @Test
  void aTornLastRecord_isCutOff_andTheRestIsKept(@TempDir Path dir) throws IOException {
    Path file;
    try (CachingEmbedder c = CachingEmbedder.open(new HashingEmbedder(), dir)) {
      c.embedPassages(List.of("one", "two"));
      file = c.file();
    }
    long whole = Files.size(file);
    Files.write(file, new byte[] {1, 2, 3, 4, 5}, StandardOpenOption.APPEND);
    Counting model = new Counting(new HashingEmbedder());
    try (CachingEmbedder c = CachingEmbedder.open(model, dir)) {
      assertThat(c.size()).isEqualTo(2);
      c.embedPassages(List.of("one", "two", "three"));
    }
    assertThat(model.passages).containsExactly("three");
    assertThat(Files.size(file)).isEqualTo(whole + (whole - 16 - "hashing-64".length()) / 2);
  }

  @Test
  void aFileOfAnotherModel_isRefused(@TempDir Path dir) throws IOException {
    Path file;
    try (CachingEmbedder c = CachingEmbedder.open(new HashingEmbedder(), dir)) {
      file = c.file();
    }
    Files.write(file, "not a cache at all, just text".getBytes());
    assertThatThrownBy(() -> CachingEmbedder.open(new HashingEmbedder(), dir))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("is not an embedding cache of hashing-64");
  }
}
