package dev.mnemo.store.solr;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.MemoryRecord;
import dev.mnemo.Mnemo;
import dev.mnemo.NewMemory;
import dev.mnemo.RecallRequest;
import dev.mnemo.spi.CandidateQuery;
import dev.mnemo.spi.Eligibility;
import dev.mnemo.spi.MemoryStore;
import dev.mnemo.testkit.HashingEmbedder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.solr.client.solrj.SolrClient;
import org.junit.jupiter.api.Test;

/**
 * Tenants share one collection (and one client) and never see each other's records, even with the
 * same owner names and the same record ids; forgetting an owner in one tenant leaves the other's.
 */
class TenantIsolationIT {

  @Test
  void tenantsSharingACollection_seeOnlyTheirOwnRecords() throws Exception {
    // tenants of their own in the shared collection: other tests' records are in the default tenant
    TestCluster c = TestCluster.sharedCollection();
    try (SolrClient client = SolrStoreProvider.client(Map.of("zk", c.zk()));
        Mnemo acme =
            engine(
                SolrStoreProvider.open(
                    client, false, Map.of("collection", TestCluster.SHARED, "tenant", "acme")));
        Mnemo globex =
            engine(
                SolrStoreProvider.open(
                    client, false, Map.of("collection", TestCluster.SHARED, "tenant", "globex")))) {
      MemoryRecord a =
          acme.remember(NewMemory.builder("maya", "Maya uses Vim at Acme.").source("a").build());
      globex.remember(NewMemory.builder("maya", "Maya uses Emacs at Globex.").source("g").build());
      // the same record id in both tenants stays two records
      MemoryStore globexStore = globex.diagnostics().orElseThrow().store();
      globexStore.apply(
          List.of(
              new MemoryRecord(
                  a.id(),
                  "maya",
                  null,
                  a.category(),
                  "Globex's copy",
                  null,
                  List.of("g2"),
                  null,
                  -1,
                  a.recordedAt(),
                  null,
                  a.validFrom(),
                  null,
                  null,
                  0,
                  null,
                  0.5,
                  a.authority(),
                  a.conflictPolicy(),
                  List.of(),
                  0,
                  null,
                  null,
                  null,
                  Map.of(),
                  java.util.List.of())),
          List.of());

      assertThat(acme.get("maya", a.id()).orElseThrow().text()).isEqualTo("Maya uses Vim at Acme.");
      assertThat(globex.get("maya", a.id()).orElseThrow().text()).isEqualTo("Globex's copy");
      assertThat(
              acme.recall(
                      RecallRequest.builder("maya", "which editor does Maya use")
                          .threshold(0)
                          .relativeThreshold(0)
                          .minRelevance(0.0)
                          .build())
                  .sourceIds())
          .containsExactly("a");
      MemoryStore acmeStore = acme.diagnostics().orElseThrow().store();
      var unrestricted =
          acmeStore.candidates(
              new CandidateQuery(
                  Eligibility.unrestrictedForEvaluation(),
                  null,
                  "Maya editor Vim Emacs Globex copy",
                  Set.of(),
                  null,
                  50));
      assertThat(unrestricted.candidates())
          .extracting(x -> x.record().sources())
          .containsExactly(List.of("a"));
      assertThat(acmeStore.count()).isEqualTo(1);

      assertThat(globex.forget("maya")).isEqualTo(2);
      assertThat(globexStore.count()).isZero();
      List<MemoryRecord> left = new ArrayList<>();
      acmeStore.export(null, left::add);
      assertThat(left).containsExactly(a);
    }
  }

  private static Mnemo engine(MemoryStore store) {
    return Mnemo.builder().store(store).embedder(new HashingEmbedder()).build();
  }
}
