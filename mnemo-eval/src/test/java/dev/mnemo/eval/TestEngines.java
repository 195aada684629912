package dev.mnemo.eval;

import dev.mnemo.Mnemo;
import dev.mnemo.spi.Embedder;
import dev.mnemo.store.lucene.LuceneMemoryStore;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;

/** Engine factories for tests: the Lucene store in the given directory with one shared embedder. */
final class TestEngines {
  private TestEngines() {}

  /** Fresh engines on Lucene with {@code embedder}, which closing an engine leaves open. */
  static Function<Path, Mnemo> lucene(Embedder embedder) {
    return dir -> Mnemo.builder().store(LuceneMemoryStore.open(dir)).embedder(new Unclosed(embedder)).build();
  }

  /** Delegates without closing: one model serves many short-lived engines. */
  private record Unclosed(Embedder e) implements Embedder {
    @Override public String modelId() { return e.modelId(); }
    @Override public int dimension() { return e.dimension(); }
    @Override public float[] embedQuery(String text) { return e.embedQuery(text); }
    @Override public List<float[]> embedPassages(List<String> texts) { return e.embedPassages(texts); }
    @Override public double unrelatedSimilarity() { return e.unrelatedSimilarity(); }
    @Override public void close() {}
  }
}
