package dev.mnemo.store.solr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mnemo.InvalidRequestException;
import dev.mnemo.spi.MemoryStore;
import dev.mnemo.spi.Providers;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The store is found by name, and bad settings are refused with the key, the value and the fix. */
class SolrStoreProviderIT {

  @Test
  void solr_isFoundByName_andOpensOnTheCollection() {
    TestCluster c = TestCluster.sharedCollection();
    try (MemoryStore store =
        Providers.store(
            "solr",
            Map.of("zk", c.zk(), "collection", TestCluster.SHARED, "tenant", "provider-test"))) {
      assertThat(store).isInstanceOf(SolrMemoryStore.class);
      assertThat(store.count()).isZero();
    }
  }

  @Test
  void neitherOrBothConnections_areRefused() {
    assertThatThrownBy(() -> Providers.store("solr", Map.of()))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("needs exactly one of 'zk' (host:port[/chroot]) or 'solr_urls'");
    assertThatThrownBy(
            () -> SolrStoreProvider.client(Map.of("zk", "h:1", "solr_urls", "http://h:8983/solr")))
        .isInstanceOf(InvalidRequestException.class);
  }

  @Test
  void badExactScanLimit_isRefusedWithTheValue() {
    assertThatThrownBy(() -> SolrStoreProvider.open(null, false, Map.of("exact_scan_max", "lots")))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessage("exact_scan_max must be a whole number >= 0, was 'lots'");
  }

  @Test
  void configset_hasTheDimensionFilledIn() throws Exception {
    byte[] zip = SolrCollections.configsetZip(384);
    try (var in = new java.util.zip.ZipInputStream(new java.io.ByteArrayInputStream(zip))) {
      String schema = null;
      for (var e = in.getNextEntry(); e != null; e = in.getNextEntry()) {
        if (e.getName().equals("schema.xml"))
          schema = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
      }
      assertThat(schema).contains("vectorDimension=\"384\"").doesNotContain("@DIMENSION@");
    }
    assertThatThrownBy(() -> SolrCollections.configsetZip(0))
        .hasMessage("dimension must be >= 1, was 0");
  }
}
