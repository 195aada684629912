package dev.mnemo.cli;

import dev.mnemo.Mnemo;
import dev.mnemo.InvalidRequestException;
import dev.mnemo.spi.Embedder;
import dev.mnemo.spi.MemoryStore;
import dev.mnemo.spi.Providers;
import dev.mnemo.spi.Tokenizer;
import dev.mnemo.store.lucene.LuceneMemoryStore;
import dev.mnemo.store.solr.SolrMemoryStore;
import dev.mnemo.store.solr.SolrStoreProvider;
import dev.mnemo.text.JTokkitTokenizer;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * The options every command that opens an engine shares: where the store lives, which embedder and
 * tokenizer to use. A picocli mixin.
 */
public final class EngineOptions {

  @Option(names = "--data", paramLabel = "DIR", description = "Store directory (default: ${DEFAULT-VALUE}, or $MNEMO_DATA).",
      defaultValue = "${env:MNEMO_DATA:-.mnemo/data}")
  Path data;

  @Option(names = "--store", paramLabel = "NAME",
      description = "Store: lucene (embedded, in --data; default, or $MNEMO_STORE) or solr (a SolrCloud collection: "
          + "--zk or --solr-urls, --collection; create it once with 'mnemo solr init').",
      defaultValue = "${env:MNEMO_STORE:-lucene}")
  String store;

  @Option(names = "--zk", paramLabel = "HOST:PORT[/CHROOT]",
      description = "ZooKeeper of the SolrCloud cluster (with --store solr; or $MNEMO_SOLR_ZK).",
      defaultValue = "${env:MNEMO_SOLR_ZK}")
  String zk;

  @Option(names = "--solr-urls", paramLabel = "URL[,URL...]",
      description = "Solr base URLs, e.g. http://solr1:8983/solr (with --store solr, instead of --zk; or $MNEMO_SOLR_URLS).",
      defaultValue = "${env:MNEMO_SOLR_URLS}")
  String solrUrls;

  @Option(names = "--collection", paramLabel = "NAME",
      description = "Solr collection (with --store solr; default ${DEFAULT-VALUE}, or $MNEMO_SOLR_COLLECTION).",
      defaultValue = "${env:MNEMO_SOLR_COLLECTION:-mnemo}")
  String collection;

  @Option(names = "--embedder", paramLabel = "NAME",
      description = "Embedder: e5-small-v2-q (local ONNX, default), openai (an OpenAI-compatible /embeddings endpoint) or none.",
      defaultValue = "e5-small-v2-q")
  String embedder;

  @Option(names = "--embed-url", paramLabel = "URL", description = "Base URL of the OpenAI-compatible endpoint (with --embedder openai).")
  String embedUrl;

  @Option(names = "--embed-model", paramLabel = "MODEL", description = "Remote embedding model name (with --embedder openai).")
  String embedModel;

  @Option(names = "--tokenizer", paramLabel = "ENCODING", description = "Token counting encoding (default: ${DEFAULT-VALUE}).",
      defaultValue = "cl100k_base")
  String tokenizer;

  private Embedder shared;

  /** The configured embedder, created once and shared; null for {@code none}. The API key comes from $MNEMO_EMBED_KEY. */
  public synchronized Embedder embedder() {
    if (shared != null || "none".equals(embedder)) return shared;
    Map<String, String> cfg = new HashMap<>();
    if (embedUrl != null) cfg.put("url", embedUrl);
    if (embedModel != null) cfg.put("model", embedModel);
    String key = System.getenv("MNEMO_EMBED_KEY");
    if (key != null) cfg.put("key", key);
    shared = Providers.embedder(embedder, cfg);
    return shared;
  }

  public Tokenizer tokenizer() {
    return JTokkitTokenizer.of(tokenizer);
  }

  /** Opens the engine on {@code --data}. */
  public Mnemo open() {
    return open(data);
  }

  /**
   * Opens an engine on a store in {@code dir} with the shared embedder; closing the engine does not
   * close the shared embedder (call {@link #closeEmbedder()} once at the end).
   */
  public Mnemo open(Path dir) {
    Embedder e = embedder();
    Mnemo.Builder b = Mnemo.builder().store(store(dir)).tokenizer(tokenizer());
    if (e == null) b.withoutEmbedder();
    else b.embedder(Embedder.shared(e));
    return b.build();
  }

  /** Whether {@code --store solr} was chosen (an unknown name is refused). */
  public boolean solr() {
    return switch (store) {
      case "lucene" -> false;
      case "solr" -> true;
      default -> throw new InvalidRequestException("store", store, "store must be one of [lucene, solr], was '" + store + "'");
    };
  }

  /** The Solr store's connection settings (zk or solr_urls, collection). */
  public Map<String, String> solrConfig() {
    Map<String, String> cfg = new HashMap<>();
    if (zk != null && !zk.isBlank()) cfg.put("zk", zk);
    if (solrUrls != null && !solrUrls.isBlank()) cfg.put("solr_urls", solrUrls);
    cfg.put("collection", collection);
    return cfg;
  }

  /** The chosen store: the Lucene index in {@code dir}, or the default tenant of the Solr collection. */
  public MemoryStore store(Path dir) {
    if (!solr()) return LuceneMemoryStore.open(dir);
    Map<String, String> cfg = solrConfig();
    cfg.put("tenant", SolrMemoryStore.DEFAULT_TENANT);
    return SolrStoreProvider.open(SolrStoreProvider.client(cfg), true, cfg);
  }

  public synchronized void closeEmbedder() {
    if (shared != null) shared.close();
    shared = null;
  }

}
