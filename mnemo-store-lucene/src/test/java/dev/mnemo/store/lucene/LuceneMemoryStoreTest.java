package dev.mnemo.store.lucene;

import dev.mnemo.spi.MemoryStore;
import dev.mnemo.testkit.MemoryStoreContract;
import java.nio.file.Path;

class LuceneMemoryStoreTest extends MemoryStoreContract {
  @Override
  protected MemoryStore openStore(Path dir) {
    return LuceneMemoryStore.open(dir.resolve("index"));
  }
}
