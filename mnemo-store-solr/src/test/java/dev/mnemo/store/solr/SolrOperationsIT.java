package dev.mnemo.store.solr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mnemo.MemoryRecord;
import dev.mnemo.Mnemo;
import dev.mnemo.MnemoException;
import dev.mnemo.NewMemory;
import dev.mnemo.testkit.HashingEmbedder;
import java.util.Map;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.request.schema.SchemaRequest;
import org.junit.jupiter.api.Test;

/**
 * The operations behind {@code mnemo solr upgrade}, {@code alias} and {@code health} on a real
 * SolrCloud: a reload with this version's configset keeps the records and the schema's fields; an
 * alias swap moves a store opened on the alias to the new collection at its next request; health
 * reads the cluster state through an alias and names a missing collection as down.
 */
class SolrOperationsIT {
  @Test
  void upgrade_alias_health() throws Exception {
    TestCluster c = TestCluster.shared();
    c.createCollection("ops_a", 1, 2, 64);
    c.createCollection("ops_b", 1, 2, 64);
    HashingEmbedder embedder = new HashingEmbedder();
    MemoryRecord old;
    try (Mnemo a = Mnemo.builder().store(c.store("ops_a")).embedder(embedder).build()) {
      old = a.remember(NewMemory.builder("ada", "Ada keeps bees on the roof.").build());
    }
    try (SolrClient client = SolrStoreProvider.client(Map.of("zk", c.zk()))) {
      SolrCollections.upgradeConfigset(client, "ops_a", 64);
      // the reloaded collection has the configset's fields, the record written before is there
      var fields = new SchemaRequest.Fields().process(client, "ops_a").getFields();
      assertThat(fields).anySatisfy(f -> assertThat(f.get("name")).isEqualTo("vec_b"));
      try (SolrMemoryStore a = c.store("ops_a")) {
        assertThat(a.get("ada", old.id())).isPresent();
      }
      assertThatThrownBy(() -> SolrCollections.upgradeConfigset(client, "no_such_coll", 64))
          .isInstanceOf(MnemoException.class)
          .hasMessageContaining("upgrading the configset of 'no_such_coll'");

      SolrCollections.pointAlias(client, "ops", "ops_a");
      assertThat(SolrCollections.health(client, "ops").complete()).isTrue();
      assertThat(SolrCollections.health(client, "ops").json())
          .contains("\"status\":\"serving\"")
          .contains("\"shard1\":{\"active\":2,\"replicas\":2,\"leader\":true}");
      try (SolrMemoryStore viaAlias = c.store("ops")) {
        assertThat(viaAlias.get("ada", old.id())).isPresent();
        // the swap: the same store reads the new (empty) collection from its next request
        SolrCollections.pointAlias(client, "ops", "ops_b");
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (viaAlias.get("ada", old.id()).isPresent() && System.nanoTime() < deadline)
          Thread.sleep(100);
        assertThat(viaAlias.get("ada", old.id())).as("after the swap").isEmpty();
      }
      try (SolrMemoryStore b = c.store("ops_b")) {
        assertThat(b.count()).isZero();
      }

      SolrCollections.Health missing = SolrCollections.health(client, "no_such_coll");
      assertThat(missing.exists()).isFalse();
      assertThat(missing.serving()).isFalse();
      assertThat(missing.status()).isEqualTo("down");
    }
  }
}
