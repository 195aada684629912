package dev.mnemo.cli;

import dev.mnemo.Mnemo;
import dev.mnemo.mcp.McpEndpoint;
import dev.mnemo.mcp.MemoryAccess;
import dev.mnemo.server.EngineFactory;
import dev.mnemo.server.MnemoServer;
import dev.mnemo.server.ServerConfig;
import dev.mnemo.server.StoreHealth;
import dev.mnemo.spi.Embedder;
import dev.mnemo.spi.MemoryStore;
import dev.mnemo.store.lucene.LuceneMemoryStore;
import dev.mnemo.store.solr.SolrCollections;
import dev.mnemo.store.solr.SolrMemoryStore;
import dev.mnemo.store.solr.SolrStoreProvider;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.solr.client.solrj.SolrClient;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;

/**
 * {@code mnemo serve}: Mnemo as a service. Wires the server to one Lucene store per tenant under
 * {@code DATA/tenants/}, or with {@code --store solr} to one SolrCloud collection that every tenant
 * shares (the tenant a filter of every query, through one client), sharing one embedder (the local
 * e5 model by default) and tokenizer. Settings: defaults, then {@code --config FILE} (YAML), then
 * {@code MNEMO_*} variables, then flags (see {@link ServerConfig}). Runs until the process is
 * stopped; SIGTERM commits what is queued and closes the stores.
 */
@Command(
    name = "serve",
    mixinStandardHelpOptions = true,
    description = {
      "Serve the REST API (/v1, OpenAPI at /v1/openapi.json), health (/health/live, /health/ready) and "
          + "Prometheus metrics (/metrics). Tenants get API keys from the admin key: "
          + "POST /v1/tenants/{tenant}/keys with 'Authorization: Bearer ADMIN_KEY'.",
      "The admin key comes from $MNEMO_ADMIN_KEY; without it one is generated on the first start, printed once "
          + "and stored hashed in DATA/keys.json."
    })
final class ServeCommand implements Callable<Integer> {

  @Mixin EngineOptions engine;

  @Option(
      names = "--port",
      paramLabel = "PORT",
      description = "TCP port (default 8080, or $MNEMO_PORT; 0 picks a free one).")
  Integer port;

  @Option(
      names = "--host",
      paramLabel = "ADDRESS",
      description =
          "Address to bind (default 127.0.0.1, or $MNEMO_HOST; 0.0.0.0 for every interface).")
  String host;

  @Option(
      names = "--config",
      paramLabel = "FILE",
      description = "YAML settings file (default: $MNEMO_CONFIG, or none).")
  Path config;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws InterruptedException {
    Map<String, String> overrides = new HashMap<>();
    ParseResult parsed = spec.commandLine().getParseResult();
    if (port != null) overrides.put("port", port.toString());
    if (host != null) overrides.put("host", host);
    // EngineOptions gives --data a default of its own (the CLI's single store); the server keeps
    // its tenants elsewhere unless --data is given.
    if (parsed.hasMatchedOption("--data")) overrides.put("data", engine.data.toString());
    if (parsed.hasMatchedOption("--embedder")) overrides.put("embedder", engine.embedder);
    if (parsed.hasMatchedOption("--tokenizer")) overrides.put("tokenizer", engine.tokenizer);
    Map<String, String> env = System.getenv();
    Path file =
        config != null
            ? config
            : env.containsKey("MNEMO_CONFIG") ? Path.of(env.get("MNEMO_CONFIG")) : null;
    ServerConfig c = ServerConfig.load(file, env, overrides);
    if (!canListen(c)) { // before anything is opened or written (a first start's admin key)
      spec.commandLine().getErr().println(portInUse(c));
      return 1;
    }
    engine.embedder = c.embedder();
    engine.tokenizer = c.tokenizer();
    engine.recallLogOptions(); // a bad --recall-log* value stops the start, not the first tenant's
    // open
    Embedder shared =
        engine.embedder(); // loaded once, before listening: the first request is not slow
    SolrClient solr = engine.solr() ? SolrStoreProvider.client(engine.solrConfig()) : null;

    if (solr != null) {
      // the turn log's collection beside the records' (created here for a collection made before it
      // existed)
      String turns = SolrCollections.turnLogName(engine.collection);
      if (SolrCollections.ensureTurnLog(solr, turns, replicationFactor(solr, engine.collection))) {
        System.out.println("mnemo: created the Solr turn log collection " + turns);
      }
    }
    // the cluster's health in /health/ready (503 when a shard has no active leader); read from the
    // client's cluster state, which ZooKeeper's watches keep current, so a check sends no request
    java.util.function.Supplier<StoreHealth> storeHealth =
        solr == null ? null : () -> storeHealth(SolrCollections.health(solr, engine.collection));
    MnemoServer server =
        server(
            c,
            storeHealth,
            new EngineFactory() {
              @Override
              public Mnemo open(String tenant, Path dir, int maxTextChars) {
                return ServeCommand.this.open(tenant, dir, solr, shared, maxTextChars);
              }

              @Override
              public void purge(String tenant, Path dir) {
                if (solr == null) return; // a Lucene store lives in dir, which the server deletes
                SolrMemoryStore store = SolrStoreProvider.open(solr, false, solrConfig(tenant));
                try {
                  store.deleteAll(); // records and turns, merged away
                } finally {
                  store.close();
                }
              }
            });
    // The key is generated (and stored hashed) when the server is built: show it before binding, so
    // a start that still fails to bind (a port taken since the check above) does not lose it.
    adminKeyNotice(server.generatedAdminKey().orElse(null), c).ifPresent(System.out::println);
    System.out.flush();
    try {
      server.start();
    } catch (RuntimeException e) {
      server.close();
      engine.closeEmbedder();
      closeQuietly(solr);
      if (!bindFailure(e)) throw e;
      spec.commandLine().getErr().println(portInUse(c));
      return 1;
    }
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  server.close();
                  engine.closeEmbedder();
                  closeQuietly(solr);
                },
                "mnemo-shutdown"));
    System.out.println(
        "mnemo: serving on http://"
            + c.host()
            + ":"
            + server.port()
            + " (REST /v1, MCP /mcp; data "
            + c.data().toAbsolutePath()
            + ", embedder "
            + c.embedder()
            + (solr == null ? "" : ", store solr collection " + engine.collection)
            + ")");
    System.out.println(
        "mnemo: inspector at http://"
            + c.host()
            + ":"
            + server.port()
            + "/inspector (paste a tenant's key)");
    System.out.flush();
    new CountDownLatch(1).await(); // until the process is stopped
    return 0;
  }

  /**
   * The server that {@code mnemo serve} runs, built but not started: the REST API, and MCP over
   * streamable HTTP at {@value McpEndpoint#PATH} on the same port behind the same Bearer keys. The
   * server's auth filter puts the key's tenant in {@link MnemoServer#TENANT_ATTRIBUTE}, which is
   * the attribute {@link McpEndpoint} reads; each tool call then works on that tenant's memory (its
   * own store, its writes through the tenant's group commit), exactly as a REST call with the same
   * key does. Tests build the server through this method, so they cover this wiring.
   */
  static MnemoServer server(ServerConfig config, EngineFactory engines) {
    return server(config, null, engines);
  }

  /** As {@link #server(ServerConfig, EngineFactory)}, with the store cluster's health (or null). */
  static MnemoServer server(
      ServerConfig config,
      java.util.function.Supplier<StoreHealth> storeHealth,
      EngineFactory engines) {
    // The servlet is built before the server it is mounted on; it reaches the server through this.
    AtomicReference<MnemoServer> self = new AtomicReference<>();
    MnemoServer.Builder b =
        MnemoServer.builder(config, engines)
            .mount(
                McpEndpoint.PATH,
                McpEndpoint.servlet(tenant -> MemoryAccess.of(self.get().memory(tenant))));
    if (storeHealth != null) b.storeHealth(storeHealth);
    MnemoServer server = b.build();
    self.set(server);
    return server;
  }

  /**
   * A SolrCloud collection's health as {@code /health/ready} reports it: serving while every shard
   * has an active leader (a replica down is {@code degraded}, still ready), with the live nodes and
   * per shard the active replicas.
   */
  static StoreHealth storeHealth(SolrCollections.Health h) {
    Map<String, Object> shards = new java.util.TreeMap<>();
    h.shards()
        .forEach(
            (name, s) ->
                shards.put(name, Map.of("active", s[0], "replicas", s[1], "leader", s[2] == 1)));
    return new StoreHealth(
        h.serving(),
        h.status(),
        Map.of(
            "collection",
            h.collection(),
            "exists",
            h.exists(),
            "live_nodes",
            h.liveNodes(),
            "shards",
            shards));
  }

  private Mnemo open(String tenant, Path dir, SolrClient solr, Embedder shared, int maxTextChars) {
    Mnemo.Builder b =
        engine
            .writePath(Mnemo.builder())
            .store(store(tenant, dir, solr))
            .tokenizer(engine.tokenizer())
            .maxTextChars(maxTextChars)
            .recallLogOptions(engine.recallLogOptions());
    if (shared == null) b.withoutEmbedder();
    else b.embedder(Embedder.shared(shared));
    return b.build();
  }

  /** The Solr store's settings for {@code tenant}: the collection and its turn log's collection. */
  private Map<String, String> solrConfig(String tenant) {
    Map<String, String> cfg = new HashMap<>(Map.of("tenant", tenant));
    cfg.put("collection", engine.collection);
    cfg.put("turn_log", SolrCollections.turnLogName(engine.collection));
    return cfg;
  }

  /** The records collection's replicas per shard (the turn log gets as many), 1 when unknown. */
  private static int replicationFactor(SolrClient solr, String collection) {
    try {
      if (solr instanceof org.apache.solr.client.solrj.impl.CloudSolrClient cloud) {
        Integer rf =
            cloud.getClusterStateProvider().getCollection(collection).getReplicationFactor();
        if (rf != null && rf > 0) return rf;
      }
    } catch (RuntimeException | java.io.IOException e) {
      // no cluster state (the collection is missing): the store's first request says so
    }
    return 1;
  }

  /**
   * The tenant's store. On Solr the tenant's directory holds no data but marks the tenant as
   * existing (the server finds tenants by directory); deleting a tenant purges its records and
   * turns at once ({@link EngineFactory#purge}); a tenant without a directory is new (or its
   * deletion was cut short), and anything the collections still hold under its name is removed
   * before it is used.
   */
  private MemoryStore store(String tenant, Path dir, SolrClient solr) {
    if (solr == null) return LuceneMemoryStore.open(dir);
    SolrMemoryStore store = SolrStoreProvider.open(solr, false, solrConfig(tenant));
    try {
      if (!Files.isDirectory(dir)) {
        store.deleteAll();
        Files.createDirectories(dir);
      }
    } catch (java.io.IOException e) {
      throw new dev.mnemo.MnemoException(
          "cannot create the tenant directory " + dir + ": " + e.getMessage(), false, e);
    }
    return store;
  }

  /**
   * The help of {@code serve}'s {@code --data}: the shared option's text names the single store of
   * the other commands ({@code .mnemo/data}), while the server keeps keys and tenants elsewhere.
   */
  static void describeDataOption(CommandLine serve) {
    CommandSpec spec = serve.getCommandSpec();
    OptionSpec data = spec.findOption("--data");
    spec.remove(data);
    spec.addOption(
        OptionSpec.builder(data)
            .description(
                "Data directory: keys.json and one store per tenant in tenants/NAME/ (default .mnemo/server, or $MNEMO_DATA).")
            .build());
  }

  /** Whether the configured address can be bound now (port 0 always can). */
  static boolean canListen(ServerConfig c) {
    if (c.port() == 0) return true;
    try (java.net.ServerSocket probe = new java.net.ServerSocket()) {
      probe.setReuseAddress(true); // as Jetty does: a port in TIME_WAIT is free for the server too
      probe.bind(new java.net.InetSocketAddress(c.host(), c.port()));
      return true;
    } catch (java.io.IOException e) {
      return false;
    }
  }

  static String portInUse(ServerConfig c) {
    return "error: cannot listen on "
        + c.host()
        + ":"
        + c.port()
        + " (the port is in use, perhaps by another mnemo serve): "
        + "choose another with --port N (0 picks a free one)";
  }

  /**
   * The line about the admin key: the key generated at this start (its only showing), or, when the
   * admin key is a stored generated one, where it came from and how to replace a lost one; nothing
   * when {@code MNEMO_ADMIN_KEY} is set.
   */
  static java.util.Optional<String> adminKeyNotice(String generated, ServerConfig c) {
    if (generated != null) {
      return java.util.Optional.of(
          "mnemo: admin key (shown once, stored hashed; set MNEMO_ADMIN_KEY to use your own): "
              + generated);
    }
    if (c.adminKey() != null) return java.util.Optional.empty();
    return java.util.Optional.of(
        "mnemo: admin key: the one printed at the first start (only its hash is in "
            + c.data().resolve("keys.json")
            + "); lost it? start with MNEMO_ADMIN_KEY set to a key of your own, which replaces it");
  }

  /**
   * Whether a start failed because the address could not be bound (Javalin wraps Jetty's
   * BindException).
   */
  static boolean bindFailure(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof java.net.BindException) return true;
      if (t.getClass().getSimpleName().equals("JavalinBindException")) return true;
    }
    return false;
  }

  private static void closeQuietly(SolrClient c) {
    if (c == null) return;
    try {
      c.close();
    } catch (java.io.IOException e) {
      // shutting down
    }
  }
}
