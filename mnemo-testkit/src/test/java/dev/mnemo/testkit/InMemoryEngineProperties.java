package dev.mnemo.testkit;

import dev.mnemo.spi.MemoryStore;
import java.nio.file.Path;

/**
 * The engine's invariants ({@link EngineProperties}: owner isolation, eligibility, bitemporal
 * versions, the budget) on the in-memory reference store, in the fast tier; the Lucene store runs
 * the same properties in the integration tier ({@code EnginePropertiesIT}).
 */
class InMemoryEngineProperties extends EngineProperties {
  @Override
  protected MemoryStore openStore(Path dir) {
    return new InMemoryMemoryStore();
  }
}
