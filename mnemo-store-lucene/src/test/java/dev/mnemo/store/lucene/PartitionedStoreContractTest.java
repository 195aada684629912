package dev.mnemo.store.lucene;

import dev.mnemo.spi.MemoryStore;
import dev.mnemo.testkit.MemoryStoreContract;
import java.nio.file.Path;

/**
 * The store contract with owners moved to partitions of their own early (above 3 records) and at
 * most 2 of them open at once, so that moves, routing, merged reads for no owner and closing idle
 * partitions all happen under the contract's scenarios.
 */
class PartitionedStoreContractTest extends MemoryStoreContract {
  @Override
  protected boolean versionsWithCandidates() {
    return true;
  }

  @Override
  protected MemoryStore openStore(Path dir) {
    return LuceneMemoryStore.open(dir.resolve("index"), new LuceneMemoryStore.Layout(3, 2));
  }
}
