package dev.mnemo.store.solr;

import dev.mnemo.InvalidRequestException;
import dev.mnemo.spi.MemoryStore;
import dev.mnemo.spi.StoreProvider;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.impl.CloudLegacySolrClient;

/**
 * Provides the SolrCloud store under the name {@code solr}. Config keys: {@code zk} ({@code
 * host:port[,host:port...][/chroot]}) or {@code solr_urls} (comma-separated base URLs, e.g. {@code
 * http://solr1:8983/solr}), exactly one of them; {@code collection} (default {@value
 * #DEFAULT_COLLECTION}); {@code tenant} (default {@value SolrMemoryStore#DEFAULT_TENANT}); {@code
 * exact_scan_max} (default {@value SolrMemoryStore#EXACT_SCAN_MAX}); {@code turn_log} (the turn
 * log's collection, usually {@link SolrCollections#turnLogName}; default none: the engine keeps
 * ingested turns in memory and extracts inside the request).
 */
public final class SolrStoreProvider implements StoreProvider {
  public static final String DEFAULT_COLLECTION = "mnemo";

  @Override
  public String name() {
    return "solr";
  }

  @Override
  public MemoryStore open(Map<String, String> config) {
    return open(client(config), true, config);
  }

  /**
   * A store with {@code config}'s collection, tenant and exact-scan limit on {@code client} (which
   * it closes when {@code ownsClient}); a server opens one per tenant on one shared client.
   */
  public static SolrMemoryStore open(
      SolrClient client, boolean ownsClient, Map<String, String> config) {
    String collection = config.getOrDefault("collection", DEFAULT_COLLECTION);
    if (collection == null || collection.isBlank()) {
      throw new InvalidRequestException(
          "collection",
          collection,
          "the solr store needs a collection name, was '" + collection + "'");
    }
    String tenant = config.getOrDefault("tenant", SolrMemoryStore.DEFAULT_TENANT);
    int exact = SolrMemoryStore.EXACT_SCAN_MAX;
    String e = config.get("exact_scan_max");
    if (e != null) {
      try {
        exact = Integer.parseInt(e.trim());
      } catch (NumberFormatException ex) {
        exact = -1;
      }
      if (exact < 0) {
        throw new InvalidRequestException(
            "exact_scan_max", e, "exact_scan_max must be a whole number >= 0, was '" + e + "'");
      }
    }
    String turnLog = config.get("turn_log");
    if (turnLog != null && turnLog.isBlank()) {
      throw new InvalidRequestException(
          "turn_log", turnLog, "turn_log must name a collection, was blank");
    }
    return new SolrMemoryStore(client, ownsClient, collection, tenant, exact, turnLog);
  }

  /**
   * A cloud client from {@code zk} or {@code solr_urls}. The Apache-HttpClient client, so that the
   * store needs no Jetty client (the REST server runs another Jetty on the same class path). {@code
   * CloudLegacySolrClient} is deprecated in SolrJ 9 in favour of the Jetty-based {@code
   * CloudHttp2SolrClient}; for that reason the deprecation warning is accepted here.
   */
  @SuppressWarnings("deprecation") // CloudLegacySolrClient on purpose, see above
  public static SolrClient client(Map<String, String> config) {
    String zk = config.get("zk");
    String urls = config.get("solr_urls");
    if ((zk == null || zk.isBlank()) == (urls == null || urls.isBlank())) {
      throw new InvalidRequestException(
          "zk",
          zk,
          "the solr store needs exactly one of 'zk' (host:port[/chroot]) or 'solr_urls' (http://host:8983/solr,...), was zk="
              + zk
              + ", solr_urls="
              + urls);
    }
    if (zk != null && !zk.isBlank()) {
      String hosts = zk.trim();
      Optional<String> chroot = Optional.empty();
      int slash = hosts.indexOf('/');
      if (slash >= 0) {
        chroot = Optional.of(hosts.substring(slash));
        hosts = hosts.substring(0, slash);
      }
      return new CloudLegacySolrClient.Builder(split(hosts), chroot).build();
    }
    return new CloudLegacySolrClient.Builder(split(urls)).build();
  }

  private static List<String> split(String s) {
    return Arrays.stream(s.split(",")).map(String::trim).filter(x -> !x.isEmpty()).toList();
  }
}
