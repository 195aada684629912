package dev.mnemo.store.solr;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.ConflictPolicy;
import dev.mnemo.Mnemo;
import dev.mnemo.NewMemory;
import dev.mnemo.RecallRequest;
import dev.mnemo.RecallResult;
import dev.mnemo.spi.CandidateQuery;
import dev.mnemo.spi.CandidateSet;
import dev.mnemo.spi.Eligibility;
import dev.mnemo.testkit.HashingEmbedder;
import dev.mnemo.time.TimeRange;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * How many requests one {@code candidates()} call sends to the cluster: one, whatever signals the
 * query asks for (dense, BM25, entity, time), counted by a client that counts every SolrJ request
 * (each one HTTP request to a node) before passing it on.
 */
class RequestCountIT {
  static final String COLLECTION = "requests";
  static final Instant AT = Instant.parse("2026-06-01T00:00:00Z");
  static final HashingEmbedder EMBEDDER = new HashingEmbedder();

  @BeforeAll
  static void fill() {
    TestCluster c = TestCluster.shared();
    c.createCollection(COLLECTION, 2, 2, 64);
    List<NewMemory> batch = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      batch.add(
          NewMemory.builder(
                  i % 4 == 0 ? "other" : "maya",
                  "Maya met Priya in Lisbon to talk about the garden, note " + i)
              .source("s" + i)
              .recordedAt(Instant.parse("2026-01-01T00:00:00Z").plusSeconds(3600L * i))
              .build());
    }
    try (Mnemo m = Mnemo.builder().store(c.store(COLLECTION)).embedder(EMBEDDER).build()) {
      m.rememberAll(batch);
    }
  }

  @Test
  void candidates_everySignal_isOneRequest() {
    CountingSolrClient client =
        new CountingSolrClient(SolrStoreProvider.client(Map.of("zk", TestCluster.shared().zk())));
    try (SolrMemoryStore store =
        new SolrMemoryStore(
            client,
            true,
            COLLECTION,
            SolrMemoryStore.DEFAULT_TENANT,
            SolrMemoryStore.EXACT_SCAN_MAX)) {
      CandidateQuery all =
          new CandidateQuery(
              Eligibility.current("maya", AT),
              EMBEDDER.embedQuery("garden in Lisbon"),
              "What did Maya say about the garden in Lisbon?",
              Set.of("maya", "priya"),
              new TimeRange(
                  Instant.parse("2026-01-01T00:00:00Z"),
                  Instant.parse("2026-01-02T00:00:00Z"),
                  "on the first of January"),
              10);
      for (int i = 0; i < 3; i++) {
        int before = client.requests.get();
        CandidateSet found = store.candidates(all);
        assertThat(client.requests.get() - before).as("requests of one candidates()").isEqualTo(1);
        assertThat(found.candidates())
            .isNotEmpty()
            .allSatisfy(c -> assertThat(c.record().owner()).isEqualTo("maya"));
        assertThat(found.candidates()).anySatisfy(c -> assertThat(c.denseRank()).isPositive());
        assertThat(found.candidates()).anySatisfy(c -> assertThat(c.bm25Rank()).isPositive());
        assertThat(found.candidates()).anySatisfy(c -> assertThat(c.entityRank()).isPositive());
        assertThat(found.candidates()).anySatisfy(c -> assertThat(c.timeRank()).isPositive());
        assertThat(found.bm25Max()).isPositive();
        assertThat(found.entityFrequencies()).isNotEmpty();
      }
    }
  }

  /**
   * A whole recall through the read path: one request when no selected record's fact key has
   * another eligible version (the candidates' request says which keys do), two when one has (its
   * versions, read for the conflict shown beside it).
   */
  @Test
  void recall_isOneRequest_twoWithAKeptBothConflict() {
    CountingSolrClient client =
        new CountingSolrClient(SolrStoreProvider.client(Map.of("zk", TestCluster.shared().zk())));
    SolrMemoryStore store =
        new SolrMemoryStore(
            client,
            true,
            COLLECTION,
            SolrMemoryStore.DEFAULT_TENANT,
            SolrMemoryStore.EXACT_SCAN_MAX);
    try (Mnemo m = Mnemo.builder().store(store).embedder(EMBEDDER).build()) {
      m.remember(
          NewMemory.builder("kim", "Kim drinks tea in the morning.").factKey("drink").build());
      m.remember(NewMemory.builder("kim", "Kim walks to work.").factKey("commute").build());
      RecallRequest ask =
          RecallRequest.builder("kim", "What does Kim drink in the morning?")
              .k(1)
              .threshold(0)
              .relativeThreshold(0)
              .minRelevance(0.0)
              .build();
      for (int i = 0; i < 3; i++) {
        int before = client.requests.get();
        RecallResult r = m.recall(ask);
        assertThat(client.requests.get() - before).as("requests of one recall").isEqualTo(1);
        assertThat(r.selected()).isNotEmpty();
      }

      m.remember(
          NewMemory.builder("kim", "Kim drinks coffee in the morning.")
              .factKey("drink")
              .conflictPolicy(ConflictPolicy.KEEP_BOTH)
              .build());
      int before = client.requests.get();
      RecallResult r = m.recall(ask);
      assertThat(client.requests.get() - before)
          .as("requests of a recall with a conflict")
          .isEqualTo(2);
      assertThat(r.selected()).hasSize(2).allSatisfy(s -> assertThat(s.conflictsWith()).hasSize(1));
    }
  }
}
