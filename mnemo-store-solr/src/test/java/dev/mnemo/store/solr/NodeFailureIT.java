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
 * writers retry them as a client would.
 */
class NodeFailureIT {
  static final String COLLECTION = "failover";
  static final int BATCH = 32;
  static final int APPLIES_PER_PHASE = 15; // x2 phases x BATCH records: ~1,000 records
  static final int READS_AFTER_STOP = 5;
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
                      }
                    }
                  }));

      assertThat(halfway.await(120, TimeUnit.SECONDS)).as("first half of the writes").isTrue();
      victim = cluster.cluster.getJettySolrRunner(1);
      cluster.cluster.stopJettySolrRunner(victim);
      cluster.cluster.waitForJettyToStop(victim);
      stopped.set(true);
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
    long t0 = System.nanoTime();
    cluster.cluster.startJettySolrRunner(victim);
    cluster.cluster.waitForActiveCollection(COLLECTION, 120, TimeUnit.SECONDS, 2, 4);
    assertEveryAcknowledgedRecordIsThere(acknowledged);
    System.out.printf(
        "node failure: restart and recovery took %.1f s%n", (System.nanoTime() - t0) / 1e9);
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
