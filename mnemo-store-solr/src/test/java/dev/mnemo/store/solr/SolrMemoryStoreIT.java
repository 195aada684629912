package dev.mnemo.store.solr;

import dev.mnemo.spi.MemoryStore;
import dev.mnemo.testkit.MemoryStoreContract;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;

/**
 * The store contract on a real 2-node SolrCloud, 2 shards x 2 replicas. Every test starts from an
 * empty collection (a fresh {@code dir} wipes it); a reopen with the same {@code dir} is a new
 * client on the same collection: the restart test is a client reconnect.
 */
class SolrMemoryStoreIT extends MemoryStoreContract {
  static final String COLLECTION = TestCluster.SHARED;
  private static Path lastDir;

  @BeforeAll
  static void collection() {
    TestCluster.sharedCollection();
  }

  @Override
  protected MemoryStore openStore(Path dir) {
    TestCluster c = TestCluster.shared();
    if (!dir.equals(lastDir)) {
      c.wipe(COLLECTION);
      lastDir = dir;
    }
    return c.store(COLLECTION);
  }

  /** The fact keys' versions come with the candidates (a JSON facet names the shared keys). */
  @Override
  protected boolean versionsWithCandidates() {
    return true;
  }
}
