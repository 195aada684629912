package dev.mnemo.store.solr;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.solr.client.solrj.request.UpdateRequest;
import org.apache.solr.cloud.MiniSolrCloudCluster;

/**
 * A real SolrCloud for tests: embedded ZooKeeper and Jetty nodes on random ports, started from a
 * plain JUnit test (no randomized-runner base class). {@link #shared()} is one 2-node cluster with
 * a 2-shard, replication-factor-2 collection per dimension, started once per test JVM and stopped
 * at its exit; tests that kill nodes start their own with {@link #start(int)}.
 */
final class TestCluster implements AutoCloseable {
  private static TestCluster shared;

  final MiniSolrCloudCluster cluster;
  private final Path dir;

  private TestCluster(MiniSolrCloudCluster cluster, Path dir) {
    this.cluster = cluster;
    this.dir = dir;
  }

  static synchronized TestCluster shared() {
    if (shared == null) {
      shared = start(2);
      Runtime.getRuntime().addShutdownHook(new Thread(shared::close));
    }
    return shared;
  }

  static TestCluster start(int nodes) {
    try {
      Path dir = Files.createTempDirectory("mnemo-solr-");
      MiniSolrCloudCluster c =
          new MiniSolrCloudCluster.Builder(nodes, dir).withMetrics(false).build();
      return new TestCluster(c, dir);
    } catch (Exception e) {
      throw new IllegalStateException("cannot start the test SolrCloud: " + e.getMessage(), e);
    }
  }

  /** The ZooKeeper address of the cluster, as {@code mnemo serve --zk} takes it. */
  String zk() {
    return cluster.getZkServer().getZkAddress();
  }

  /**
   * The collection most tests share (2 shards x 2 replicas, 64 dimensions), created on first use.
   */
  static final String SHARED = "shared";

  private final java.util.Set<String> created = java.util.concurrent.ConcurrentHashMap.newKeySet();

  /** The shared cluster's {@link #SHARED} collection, created once. */
  static TestCluster sharedCollection() {
    TestCluster c = shared();
    c.createCollection(SHARED, 2, 2, 64);
    return c;
  }

  /**
   * Creates {@code name} with Mnemo's configset, {@code shards} x {@code replicas}; a second call
   * for the same name does nothing (collections are created once per cluster, a few seconds each).
   */
  synchronized void createCollection(String name, int shards, int replicas, int dimension) {
    if (!created.add(name)) return;
    try (var client = SolrStoreProvider.client(Map.of("zk", zk()))) {
      SolrCollections.create(client, name, shards, replicas, dimension);
    } catch (java.io.IOException e) {
      throw new IllegalStateException(e);
    }
    cluster.waitForActiveCollection(name, 60, TimeUnit.SECONDS, shards, shards * replicas);
  }

  /** A store on {@code collection} with its own client. */
  SolrMemoryStore store(String collection) {
    return (SolrMemoryStore)
        new SolrStoreProvider().open(Map.of("zk", zk(), "collection", collection));
  }

  /** A store on {@code collection} with its own client and another exact-scan limit. */
  SolrMemoryStore store(String collection, int exactScanMax) {
    return new SolrMemoryStore(
        SolrStoreProvider.client(Map.of("zk", zk())),
        true,
        collection,
        SolrMemoryStore.DEFAULT_TENANT,
        exactScanMax);
  }

  /**
   * Bytes of index files on disk under the cores of {@code collection} (every replica, every node):
   * what the capacity model in docs/solr.md scales from.
   */
  long indexBytes(String collection) {
    try (var files = Files.walk(dir)) {
      return files
          .filter(Files::isRegularFile)
          .filter(
              p -> {
                String s = p.toString();
                return s.contains("/" + collection + "_shard") && s.contains("/data/index");
              })
          .mapToLong(p -> p.toFile().length())
          .sum();
    } catch (java.io.IOException | java.io.UncheckedIOException e) {
      return -1;
    }
  }

  /** Removes every document of {@code collection} (Solr drops whole segments for {@code *:*}). */
  void wipe(String collection) {
    try (var client = SolrStoreProvider.client(Map.of("zk", zk()))) {
      new UpdateRequest()
          .deleteByQuery("*:*")
          .setAction(UpdateRequest.ACTION.COMMIT, true, true)
          .process(client, collection);
    } catch (Exception e) {
      throw new IllegalStateException("cannot wipe " + collection + ": " + e.getMessage(), e);
    }
  }

  @Override
  public void close() {
    try {
      cluster.shutdown();
    } catch (Exception e) {
      // shutting down a test cluster: nothing left to protect
    }
    try (var files = Files.walk(dir)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (java.io.IOException e) {
      // temp dir: best effort
    }
  }
}
