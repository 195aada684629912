package dev.mnemo.eval;

import dev.mnemo.Mnemo;
import dev.mnemo.spi.Embedder;
import dev.mnemo.store.lucene.LuceneMemoryStore;
import java.nio.file.Path;
import java.util.function.Function;

/** Engine factories for tests: the Lucene store in the given directory with one shared embedder. */
final class TestEngines {
  private TestEngines() {}

  /**
   * Fresh engines on Lucene with {@code embedder}, which closing an engine leaves open; no
   * retrieval log (the stores are temporary).
   */
  static Function<Path, Mnemo> lucene(Embedder embedder) {
    return dir ->
        Mnemo.builder()
            .store(LuceneMemoryStore.open(dir))
            .embedder(Embedder.shared(embedder))
            .recallLogOptions(dev.mnemo.RecallLogOptions.OFF)
            .build();
  }
}
