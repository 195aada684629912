package dev.mnemo.store.lucene;

import dev.mnemo.spi.MemoryStore;
import dev.mnemo.testkit.EngineProperties;
import java.nio.file.Path;

/**
 * The engine's invariants ({@link EngineProperties}: owner isolation, eligibility, bitemporal
 * versions, the budget) on the real Lucene store, on disk. The fast tier runs the same properties
 * on the reference store ({@code InMemoryEngineProperties} in mnemo-testkit).
 */
class EnginePropertiesIT extends EngineProperties {
  @Override
  protected MemoryStore openStore(Path dir) {
    return LuceneMemoryStore.open(dir);
  }
}
