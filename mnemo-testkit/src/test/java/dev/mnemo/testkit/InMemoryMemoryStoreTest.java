package dev.mnemo.testkit;

import dev.mnemo.spi.MemoryStore;
import java.nio.file.Path;

/** The reference store passes the same contract as the Lucene and Solr stores. */
class InMemoryMemoryStoreTest extends MemoryStoreContract {

  @Override
  protected MemoryStore openStore(Path dir) {
    return new InMemoryMemoryStore();
  }

  @Override
  protected boolean reopenable() {
    return false; // nothing is durable
  }
}
