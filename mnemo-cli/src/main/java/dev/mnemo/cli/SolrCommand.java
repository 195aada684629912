package dev.mnemo.cli;

import dev.mnemo.json.JsonCodec;
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
    subcommands = {
      SolrCommand.Init.class,
      SolrCommand.Upgrade.class,
      SolrCommand.Alias.class,
      SolrCommand.Health.class
    })
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
    @picocli.CommandLine.Mixin Connection connection;

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
      try (SolrClient client = connection.client()) {
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

  /** The cluster's address, shared by every subcommand. */
  static final class Connection {
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

    SolrClient client() {
      Map<String, String> cfg = new HashMap<>();
      if (zk != null) cfg.put("zk", zk);
      if (urls != null) cfg.put("solr_urls", urls);
      return SolrStoreProvider.client(cfg);
    }
  }

  /** {@code mnemo solr upgrade}: uploads this version's configset and reloads the collection. */
  @Command(
      name = "upgrade",
      mixinStandardHelpOptions = true,
      description = {
        "Upload this version's configset over the collection's and reload it, so a collection created by "
            + "an earlier version gets the fields added since (fields are only ever added).",
        "Records written before keep what they had; to fill new fields for them, import an export into a "
            + "new collection and point an alias at it (mnemo solr alias)."
      })
  static final class Upgrade implements Callable<Integer> {
    @picocli.CommandLine.Mixin Connection connection;

    @Option(
        names = "--collection",
        defaultValue = "mnemo",
        description = "Collection (or alias) to reload (default ${DEFAULT-VALUE}).")
    String collection;

    @Option(
        names = "--dimension",
        defaultValue = "384",
        description = "Vector size the collection was created with (default ${DEFAULT-VALUE}).")
    int dimension;

    @Option(names = "--json", description = "Print the outcome as one JSON object.")
    boolean json;

    @Override
    public Integer call() throws Exception {
      try (SolrClient client = connection.client()) {
        SolrCollections.upgradeConfigset(client, collection, dimension);
      }
      if (json) {
        System.out.println(
            JsonCodec.object()
                .put("collection", collection)
                .put("configset", SolrCollections.configName(dimension))
                .put("reloaded", true));
        return 0;
      }
      System.out.printf(
          Locale.ROOT,
          "mnemo: uploaded configset %s and reloaded %s%n",
          SolrCollections.configName(dimension),
          collection);
      return 0;
    }
  }

  /** {@code mnemo solr alias}: points an alias at a collection (a reindex's swap). */
  @Command(
      name = "alias",
      mixinStandardHelpOptions = true,
      description = {
        "Point ALIAS at COLLECTION (create or move it). Servers started with --collection ALIAS use the new "
            + "collection from their next request: reindex into a new collection (mnemo solr init, then "
            + "mnemo import of an export), then swap."
      })
  static final class Alias implements Callable<Integer> {
    @picocli.CommandLine.Mixin Connection connection;

    @Option(names = "--alias", required = true, description = "The alias servers use.")
    String alias;

    @Option(names = "--collection", required = true, description = "The collection it points at.")
    String collection;

    @Option(names = "--json", description = "Print the outcome as one JSON object.")
    boolean json;

    @Override
    public Integer call() throws Exception {
      try (SolrClient client = connection.client()) {
        SolrCollections.pointAlias(client, alias, collection);
      }
      if (json) {
        System.out.println(JsonCodec.object().put("alias", alias).put("collection", collection));
        return 0;
      }
      System.out.printf(Locale.ROOT, "mnemo: alias %s -> %s%n", alias, collection);
      return 0;
    }
  }

  /** {@code mnemo solr health}: the collection's shards and replicas as the cluster state says. */
  @Command(
      name = "health",
      mixinStandardHelpOptions = true,
      description = {
        "Print the collection's health: serving (every replica active), degraded (every shard has an "
            + "active leader, some replica is down) or down; exit code 0, 1 (degraded) or 2 (down)."
      })
  static final class Health implements Callable<Integer> {
    @picocli.CommandLine.Mixin Connection connection;

    @Option(
        names = "--collection",
        defaultValue = "mnemo",
        description = "Collection or alias (default ${DEFAULT-VALUE}).")
    String collection;

    @Option(
        names = "--json",
        description =
            "Print it as one JSON object (status, live_nodes, per shard active, replicas, leader).")
    boolean json;

    @Override
    public Integer call() throws Exception {
      SolrCollections.Health h;
      try (SolrClient client = connection.client()) {
        h = SolrCollections.health(client, collection);
      }
      if (json) {
        System.out.println(h.json());
      } else if (!h.exists()) {
        System.out.printf(
            Locale.ROOT, "mnemo: collection %s: down (no such collection)%n", collection);
      } else {
        StringBuilder line =
            new StringBuilder(
                String.format(
                    Locale.ROOT,
                    "mnemo: collection %s: %s, %d live nodes",
                    collection,
                    h.status(),
                    h.liveNodes()));
        h.shards()
            .forEach(
                (name, r) ->
                    line.append(
                        String.format(
                            Locale.ROOT,
                            "; %s %d/%d active%s",
                            name,
                            r[0],
                            r[1],
                            r[2] == 1 ? "" : " (no leader)")));
        System.out.println(line);
      }
      return h.complete() ? 0 : h.serving() ? 1 : 2;
    }
  }
}
