package dev.mnemo.cli;

import dev.mnemo.store.solr.SolrCollections;
import dev.mnemo.store.solr.SolrStoreProvider;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.solr.client.solrj.SolrClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code mnemo solr}: administration of the SolrCloud store. */
@Command(
    name = "solr",
    mixinStandardHelpOptions = true,
    description = "Administer the SolrCloud store.",
    subcommands = SolrCommand.Init.class)
final class SolrCommand implements Runnable {
  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** {@code mnemo solr init}: uploads the configset and creates the owner-routed collection. */
  @Command(
      name = "init",
      mixinStandardHelpOptions = true,
      description = {
        "Upload Mnemo's configset (schema, solrconfig) and create the collection: compositeId routing, "
            + "so each owner's records share one shard; N shards of R replicas each.",
        "Then: mnemo serve --store solr --zk HOST:PORT[/CHROOT] [--collection NAME]"
      })
  static final class Init implements Callable<Integer> {
    @Option(
        names = "--zk",
        paramLabel = "HOST:PORT[/CHROOT]",
        description = "ZooKeeper of the cluster.")
    String zk;

    @Option(
        names = "--solr-urls",
        paramLabel = "URL[,URL...]",
        description = "Solr base URLs (instead of --zk).")
    String urls;

    @Option(
        names = "--collection",
        defaultValue = "mnemo",
        description = "Collection name (default ${DEFAULT-VALUE}).")
    String collection;

    @Option(
        names = "--shards",
        defaultValue = "2",
        description = "Number of shards (default ${DEFAULT-VALUE}).")
    int shards;

    @Option(
        names = "--replicas",
        defaultValue = "2",
        description = "Replicas per shard (default ${DEFAULT-VALUE}).")
    int replicas;

    @Option(names = "--json", description = "Print the outcome as one JSON object.")
    boolean json;

    @Option(
        names = "--dimension",
        defaultValue = "384",
        description = "Vector size of the embedder (default ${DEFAULT-VALUE}, e5-small-v2).")
    int dimension;

    @Override
    public Integer call() throws Exception {
      Map<String, String> cfg = new HashMap<>();
      if (zk != null) cfg.put("zk", zk);
      if (urls != null) cfg.put("solr_urls", urls);
      try (SolrClient client = SolrStoreProvider.client(cfg)) {
        SolrCollections.create(client, collection, shards, replicas, dimension);
      }
      if (json) {
        System.out.printf(
            Locale.ROOT,
            "{\"collection\":\"%s\",\"shards\":%d,\"replicas\":%d,\"configset\":\"%s\"}%n",
            collection,
            shards,
            replicas,
            SolrCollections.configName(dimension));
        return 0;
      }
      System.out.printf(
          Locale.ROOT,
          "mnemo: created collection %s (%d shards x %d replicas, configset %s)%n",
          collection,
          shards,
          replicas,
          SolrCollections.configName(dimension));
      return 0;
    }
  }
}
