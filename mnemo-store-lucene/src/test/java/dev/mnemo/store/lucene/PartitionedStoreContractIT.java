package dev.mnemo.store.lucene;

import dev.mnemo.spi.MemoryStore;
import dev.mnemo.testkit.MemoryStoreContract;
import java.nio.file.Path;

/**
 * The store contract with owners moved to partitions of their own early (above 3 records) and at
 * most 2 of them open at once, so that moves, routing, merged reads for no owner and closing idle
 * partitions all happen under the contract's scenarios.
 *
 * <p>An integration test (Failsafe, run by {@code bin/test} and CI, not by {@code bin/test
 * --fast}): the whole store contract again with owners moved to their own indexes in the
 * background; the fast tier runs it on the one-index layout (LuceneMemoryStoreTest) and on the
 * reference store.
 */
class PartitionedStoreContractIT extends MemoryStoreContract {
  @Override
  protected boolean versionsWithCandidates() {
    return true;
  }

  @Override
  protected MemoryStore openStore(Path dir) {
    return LuceneMemoryStore.open(dir.resolve("index"), new LuceneMemoryStore.Layout(3, 2));
  }
}
