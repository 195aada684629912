package dev.mnemo.store.solr;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.MemoryRecord;
import dev.mnemo.Mnemo;
import dev.mnemo.MnemoException;
import dev.mnemo.NewMemory;
import dev.mnemo.RecallRequest;
import dev.mnemo.testkit.HashingEmbedder;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.solr.embedded.JettySolrRunner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A node of a 2-node SolrCloud (2 shards x 2 replicas, so each node holds a replica of every shard)
 * is stopped in the middle of a write and read load: no acknowledged write is lost, and reads keep
 * working on the surviving node. Writes that fail while leaders move are not acknowledged; the
 * writers retry them as a client would. A recall may fail only inside {@link #RETRY_WINDOW_MS}
 * after the stop or the restart (the client learns of the dead node from ZooKeeper's live nodes,
 * and a request sent to it meanwhile fails over to the other replica or fails as retriable);
 * recalls go on while the node restarts and recovers.
 */
class NodeFailureIT {
  static final String COLLECTION = "failover";
  static final int BATCH = 32;
  static final int APPLIES_PER_PHASE = 15; // x2 phases x BATCH records: ~1,000 records
  static final int READS_AFTER_STOP = 5;

  /**
   * How long after a node stops or starts a recall may fail (docs/solr.md): the ZooKeeper session
   * of a stopped node ends within the test cluster's session timeout, leaders move, and retriable
   * errors are possible until then.
   */
  static final long RETRY_WINDOW_MS = 30_000;

  static TestCluster cluster;

  @BeforeAll
  static void start() {
    cluster = TestCluster.start(2);
    cluster.createCollection(COLLECTION, 2, 2, 64);
  }

  @AfterAll
  static void stop() {
    if (cluster != null) cluster.close();
  }

  @Test
  void stoppingANode_underLoad_losesNoAcknowledgedWrite_andReadsKeepWorking() throws Exception {
    Set<String> acknowledged = ConcurrentHashMap.newKeySet();
    AtomicInteger applies = new AtomicInteger();
    AtomicInteger appliesAfterStop = new AtomicInteger();
    AtomicInteger failedWrites = new AtomicInteger();
    AtomicInteger reads = new AtomicInteger();
    AtomicInteger readsAfterStop = new AtomicInteger();
    AtomicInteger failedReads = new AtomicInteger();
    AtomicBoolean stopped = new AtomicBoolean();
    java.util.concurrent.atomic.AtomicLong stoppedAt = new java.util.concurrent.atomic.AtomicLong();
    List<Long> failedReadAfterStopMs = java.util.Collections.synchronizedList(new ArrayList<>());
    AtomicBoolean done = new AtomicBoolean();
    CountDownLatch halfway = new CountDownLatch(1);
    HashingEmbedder embedder = new HashingEmbedder();
    JettySolrRunner victim;
    long start = System.nanoTime();

    try (Mnemo mnemo =
        Mnemo.builder().store(cluster.store(COLLECTION)).embedder(embedder).build()) {
      List<Thread> threads = new ArrayList<>();
      for (int w = 0; w < 2; w++) {
        int writer = w;
        threads.add(
            Thread.ofPlatform()
                .start(
                    () -> {
                      for (int n = 0; !done.get(); n++) {
                        String owner = "owner-" + writer + "-" + (n % 16);
                        List<NewMemory> batch = new ArrayList<>();
                        for (int i = 0; i < BATCH; i++) {
                          batch.add(
                              NewMemory.builder(
                                      owner,
                                      "Writer "
                                          + writer
                                          + " note "
                                          + n
                                          + "."
                                          + i
                                          + " about the garden")
                                  .build());
                        }
                        try {
                          for (MemoryRecord r : mnemo.rememberAll(batch))
                            acknowledged.add(r.owner() + "/" + r.id());
                          if (applies.incrementAndGet() == APPLIES_PER_PHASE) halfway.countDown();
                          // the second phase: as many acknowledged applies again once the node is
                          // down, and some reads
                          if (stopped.get()
                              && appliesAfterStop.incrementAndGet() >= APPLIES_PER_PHASE
                              && readsAfterStop.get() >= READS_AFTER_STOP) {
                            done.set(true);
                          }
                        } catch (MnemoException e) {
                          failedWrites
                              .incrementAndGet(); // not acknowledged: the next iteration writes on
                        }
                      }
                    }));
      }
      threads.add(
          Thread.ofPlatform()
              .start(
                  () -> {
                    for (int n = 0; !done.get(); n++) {
                      try {
                        mnemo.recall(
                            RecallRequest.builder("owner-0-" + (n % 16), "garden note").build());
                        reads.incrementAndGet();
                        if (stopped.get()) readsAfterStop.incrementAndGet();
                      } catch (MnemoException e) {
                        failedReads.incrementAndGet();
                        failedReadAfterStopMs.add(
                            stopped.get()
                                ? (System.nanoTime() - stoppedAt.get()) / 1_000_000
                                : -1L);
                      }
                    }
                  }));

      assertThat(halfway.await(120, TimeUnit.SECONDS)).as("first half of the writes").isTrue();
      assertThat(awaitHealth("serving").complete()).isTrue();
      victim = cluster.cluster.getJettySolrRunner(1);
      stoppedAt.set(System.nanoTime());
      stopped.set(true);
      cluster.cluster.stopJettySolrRunner(victim);
      cluster.cluster.waitForJettyToStop(victim);
      // mnemo solr health and /health/ready: every shard keeps a leader on the surviving node
      SolrCollections.Health degraded = awaitHealth("degraded");
      assertThat(degraded.serving()).isTrue();
      assertThat(degraded.liveNodes()).isEqualTo(1);
      assertThat(degraded.shards().values())
          .allSatisfy(r -> assertThat(r).containsExactly(1, 2, 1));
      for (Thread t : threads) t.join(TimeUnit.SECONDS.toMillis(180));
      assertThat(done.get()).as("the load finished").isTrue();

      System.out.printf("node failure: load took %.1f s%n", (System.nanoTime() - start) / 1e9);
      System.out.printf(
          "node failure: %d applies acknowledged (%d after the stop; %d records), %d failed and retried; "
              + "%d reads (%d after the stop), %d failed%n",
          applies.get(),
          appliesAfterStop.get(),
          acknowledged.size(),
          failedWrites.get(),
          reads.get(),
          readsAfterStop.get(),
          failedReads.get());
      System.out.printf(
          "node failure: failed reads at %s ms after the stop (-1: before it)%n",
          failedReadAfterStopMs);
      assertThat(failedReadAfterStopMs)
          .as("recalls failed only inside the retry window after the stop")
          .allSatisfy(ms -> assertThat(ms).isBetween(0L, RETRY_WINDOW_MS));
      assertThat(appliesAfterStop.get())
          .as("writes acknowledged with one node down")
          .isGreaterThanOrEqualTo(APPLIES_PER_PHASE);
      assertThat(readsAfterStop.get())
          .as("reads served by the surviving node")
          .isGreaterThanOrEqualTo(READS_AFTER_STOP);
      assertThat(
              mnemo
                  .recall(
                      RecallRequest.builder("owner-1-3", "garden note")
                          .threshold(0)
                          .relativeThreshold(0)
                          .minRelevance(0.0)
                          .build())
                  .selected())
          .isNotEmpty();
    }

    // every acknowledged record is there, read through a new client: first with one node down...
    assertEveryAcknowledgedRecordIsThere(acknowledged);
    // ...and again once the stopped node is back and has recovered its replicas
    // recalls go on while the node restarts and recovers its replicas
    long t0 = System.nanoTime();
    AtomicBoolean recovered = new AtomicBoolean();
    AtomicInteger readsDuringRecovery = new AtomicInteger();
    List<Long> failedDuringRecoveryMs = java.util.Collections.synchronizedList(new ArrayList<>());
    try (Mnemo mnemo =
        Mnemo.builder().store(cluster.store(COLLECTION)).embedder(embedder).build()) {
      Thread reader =
          Thread.ofPlatform()
              .start(
                  () -> {
                    for (int n = 0; !recovered.get(); n++) {
                      try {
                        mnemo.recall(
                            RecallRequest.builder("owner-1-" + (n % 16), "garden note").build());
                        readsDuringRecovery.incrementAndGet();
                      } catch (MnemoException e) {
                        failedDuringRecoveryMs.add((System.nanoTime() - t0) / 1_000_000);
                      }
                    }
                  });
      cluster.cluster.startJettySolrRunner(victim);
      cluster.cluster.waitForActiveCollection(COLLECTION, 120, TimeUnit.SECONDS, 2, 4);
      recovered.set(true);
      reader.join(TimeUnit.SECONDS.toMillis(60));
    }
    assertThat(awaitHealth("serving").liveNodes()).isEqualTo(2);
    System.out.printf(
        "node failure: restart and recovery took %.1f s; %d reads meanwhile, failed at %s ms%n",
        (System.nanoTime() - t0) / 1e9, readsDuringRecovery.get(), failedDuringRecoveryMs);
    assertThat(readsDuringRecovery.get()).as("recalls while the node recovers").isPositive();
    assertThat(failedDuringRecoveryMs)
        .as("recalls failed only inside the retry window after the restart")
        .allSatisfy(ms -> assertThat(ms).isBetween(0L, RETRY_WINDOW_MS));
    assertEveryAcknowledgedRecordIsThere(acknowledged);
  }

  /**
   * The collection's health once it says {@code status}, read through a new client as {@code mnemo
   * solr health} does (the cluster state follows ZooKeeper's session timeout, hence the wait).
   */
  private static SolrCollections.Health awaitHealth(String status) throws InterruptedException {
    try (var client = SolrStoreProvider.client(java.util.Map.of("zk", cluster.zk()))) {
      long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(RETRY_WINDOW_MS);
      SolrCollections.Health h = SolrCollections.health(client, COLLECTION);
      while (!h.status().equals(status) && System.nanoTime() < deadline) {
        Thread.sleep(200);
        h = SolrCollections.health(client, COLLECTION);
      }
      assertThat(h.status()).as(h.json()).isEqualTo(status);
      return h;
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static void assertEveryAcknowledgedRecordIsThere(Set<String> acknowledged) {
    try (SolrMemoryStore store = cluster.store(COLLECTION)) {
      List<String> missing = new ArrayList<>();
      for (String key : acknowledged) {
        int slash = key.indexOf('/');
        if (store.get(key.substring(0, slash), key.substring(slash + 1)).isEmpty())
          missing.add(key);
      }
      assertThat(missing).as("acknowledged records missing").isEmpty();
      assertThat(store.count()).isGreaterThanOrEqualTo(acknowledged.size());
    }
  }
}
