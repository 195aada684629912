package dev.mnemo.store.solr;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.IngestReceipt;
import dev.mnemo.Mnemo;
import dev.mnemo.RecallRequest;
import dev.mnemo.StoredTurn;
import dev.mnemo.StoredTurn.State;
import dev.mnemo.Turn;
import dev.mnemo.spi.Extractor;
import dev.mnemo.testkit.HashingEmbedder;
import dev.mnemo.write.OfflineExtractor;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.solr.client.solrj.SolrClient;
import org.junit.jupiter.api.Test;

/**
 * The Solr turn log on a real SolrCloud: the {@link dev.mnemo.spi.TurnLog} contract, tenants apart,
 * durable across a new client (a restarted server), a tenant purged at once; and an engine over a
 * Solr store with it extracts in the background, not inside {@code ingest}.
 */
class SolrTurnLogIT {
  private static final String TURNS = SolrCollections.turnLogName(TestCluster.SHARED);
  private static final Instant T0 = Instant.parse("2026-01-05T10:00:00Z");

  private static TestCluster cluster() {
    TestCluster c = TestCluster.sharedCollection();
    try (SolrClient client = SolrStoreProvider.client(Map.of("zk", c.zk()))) {
      SolrCollections.ensureTurnLog(client, TURNS, 2);
      c.cluster.waitForActiveCollection(TURNS, 60, TimeUnit.SECONDS, 1, 2);
    } catch (java.io.IOException e) {
      throw new IllegalStateException(e);
    }
    return c;
  }

  private static StoredTurn pending(
      String owner, String id, String turnId, int attempt, String text) {
    Turn t =
        new Turn(
            id,
            owner,
            "ep1",
            Turn.Role.USER,
            "Ann",
            text,
            T0,
            turnId,
            attempt,
            Turn.Status.COMPLETE,
            Map.of("channel", "chat"));
    return new StoredTurn(t, State.PENDING, 0, null);
  }

  @Test
  void theTurnLogContract_tenantsApart_andDurableAcrossANewClient() throws Exception {
    TestCluster c = cluster();
    try (SolrClient client = SolrStoreProvider.client(Map.of("zk", c.zk()))) {
      SolrTurnLog log = new SolrTurnLog(client, TURNS, "contract");
      SolrTurnLog other = new SolrTurnLog(client, TURNS, "contract-other");
      log.deleteAll();
      other.deleteAll();

      List<StoredTurn> first =
          log.append(
              List.of(
                  pending("ann", "e1", "t1", 0, "I moved to Porto."),
                  pending("ann", "e1", "t1", 0, "duplicate in the same call"),
                  pending("ann", "e2", "t1", 1, "retry of t1"),
                  pending("bob", "e1", "tb", 0, "Bob's turn, same event id as Ann's")));
      assertThat(first).extracting(StoredTurn::seq).containsExactly(1L, 2L, 3L);
      assertThat(
              log.append(
                  List.of(
                      pending("ann", "e1", "t1", 0, "again"),
                      pending("ann", "e3", "t3", 0, "Ann likes tea."))))
          .extracting(s -> s.turn().id(), StoredTurn::seq)
          .containsExactly(org.assertj.core.groups.Tuple.tuple("e3", 4L));
      other.append(List.of(pending("ann", "e1", "t1", 0, "another tenant's Ann")));

      StoredTurn e1 = log.get("ann", "e1").orElseThrow();
      assertThat(e1.turn().text()).isEqualTo("I moved to Porto.");
      assertThat(e1.turn().metadata()).containsEntry("channel", "chat");
      assertThat(e1.turn().at()).isEqualTo(T0);
      assertThat(e1.turn().speaker()).isEqualTo("Ann");
      assertThat(log.getAll("ann", List.of("e3", "nope", "e1")))
          .extracting(s -> s.turn().id())
          .containsExactly("e1", "e3");
      assertThat(log.attempts("ann", "t1"))
          .extracting(s -> s.turn().id())
          .containsExactly("e1", "e2");
      assertThat(log.pending(2)).extracting(StoredTurn::seq).containsExactly(1L, 2L);

      log.update(
          List.of(
              e1.with(State.EXTRACTED, "2 records"),
              pending("ann", "missing", "t9", 0, "not stored")));
      assertThat(log.get("ann", "e1").orElseThrow().state()).isEqualTo(State.EXTRACTED);
      assertThat(log.get("ann", "e1").orElseThrow().note()).isEqualTo("2 records");
      assertThat(log.counts()).containsEntry(State.PENDING, 3L).containsEntry(State.EXTRACTED, 1L);
      List<String> all = new ArrayList<>();
      log.export(null, s -> all.add(s.turn().owner() + "/" + s.turn().id()));
      assertThat(all).containsExactly("ann/e1", "ann/e2", "bob/e1", "ann/e3");
      List<String> bobs = new ArrayList<>();
      log.export("bob", s -> bobs.add(s.turn().text()));
      assertThat(bobs).containsExactly("Bob's turn, same event id as Ann's");
      assertThat(other.get("ann", "e1").orElseThrow().turn().text())
          .isEqualTo("another tenant's Ann");

      // a new client (a restarted server) finds every entry and continues the sequence
      try (SolrClient again = SolrStoreProvider.client(Map.of("zk", c.zk()))) {
        SolrTurnLog reopened = new SolrTurnLog(again, TURNS, "contract");
        assertThat(reopened.get("ann", "e1").orElseThrow().state()).isEqualTo(State.EXTRACTED);
        assertThat(reopened.append(List.of(pending("cy", "e1", "tc", 0, "Cy's turn"))))
            .extracting(StoredTurn::seq)
            .containsExactly(5L);
        assertThat(reopened.delete("ann", List.of("e2", "nope"))).isEqualTo(1);
        assertThat(reopened.deleteOwner("ann")).isEqualTo(2);
        assertThat(reopened.get("ann", "e1")).isEmpty();
        assertThat(reopened.get("bob", "e1")).isPresent();
        assertThat(reopened.deleteAll()).isEqualTo(2);
        assertThat(reopened.counts().values()).allMatch(n -> n == 0);
      }
      assertThat(other.get("ann", "e1")).as("the other tenant's turns stay").isPresent();
    }
  }

  @Test
  void anEngineOverTheSolrStore_extractsInTheBackground_andADeletedTenantIsPurgedAtOnce()
      throws Exception {
    TestCluster c = cluster();
    CountDownLatch release = new CountDownLatch(1);
    List<String> extractedOn = java.util.Collections.synchronizedList(new ArrayList<>());
    Extractor blocking =
        new Extractor() {
          final OfflineExtractor offline = new OfflineExtractor();

          @Override
          public String id() {
            return offline.id();
          }

          @Override
          public List<dev.mnemo.NewMemory> extract(Batch batch) {
            extractedOn.add(Thread.currentThread().getName());
            try {
              release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
            return offline.extract(batch);
          }
        };
    try (SolrClient client = SolrStoreProvider.client(Map.of("zk", c.zk()))) {
      SolrMemoryStore store =
          SolrStoreProvider.open(
              client,
              false,
              Map.of("collection", TestCluster.SHARED, "tenant", "ingest-bg", "turn_log", TURNS));
      store.deleteAll();
      assertThat(store.turnLog()).isPresent();
      try (Mnemo mnemo =
          Mnemo.builder()
              .store(store)
              .embedder(new HashingEmbedder())
              .extractor(blocking)
              .clock(() -> T0.plusSeconds(60))
              .build()) {
        IngestReceipt r =
            mnemo.ingest(
                List.of(Turn.of("dana", "d1", Turn.Role.USER, "Dana", "I live in Lisbon.", T0)));
        // ingest returned while the extractor is still blocked: it runs off the caller's thread
        assertThat(r.accepted()).containsExactly("d1");
        assertThat(r.queued()).isEqualTo(1);
        assertThat(mnemo.maintenance().orElseThrow().turn("dana", "d1").orElseThrow().state())
            .isEqualTo(State.PENDING);
        release.countDown();
        assertThat(mnemo.awaitIngested(Duration.ofSeconds(60))).isTrue();
        assertThat(extractedOn)
            .isNotEmpty()
            .noneMatch(n -> n.equals(Thread.currentThread().getName()));
        assertThat(mnemo.maintenance().orElseThrow().turn("dana", "d1").orElseThrow().state())
            .isEqualTo(State.EXTRACTED);
        assertThat(
                mnemo
                    .recall(
                        RecallRequest.builder("dana", "Where does Dana live?")
                            .threshold(0)
                            .relativeThreshold(0)
                            .minRelevance(0.0)
                            .build())
                    .rendered())
            .contains("Lisbon");

        // deleting the tenant purges its records and turns at once
        assertThat(store.deleteAll()).isPositive();
        assertThat(store.count()).isZero();
        assertThat(new SolrTurnLog(client, TURNS, "ingest-bg").counts().values())
            .allMatch(n -> n == 0);
      }
    } finally {
      release.countDown();
    }
  }
}
