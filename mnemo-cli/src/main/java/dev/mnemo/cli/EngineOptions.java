package dev.mnemo.cli;

import dev.mnemo.InvalidRequestException;
import dev.mnemo.Mnemo;
import dev.mnemo.llm.LlmConsolidator;
import dev.mnemo.llm.LlmExtractor;
import dev.mnemo.spi.Consolidator;
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
import java.util.function.UnaryOperator;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The options every command that opens an engine shares: where the store lives, which embedder and
 * tokenizer to use. A picocli mixin.
 */
public final class EngineOptions {

  @Option(
      names = "--data",
      paramLabel = "DIR",
      description = "Store directory (default: ${DEFAULT-VALUE}, or $MNEMO_DATA).",
      defaultValue = "${env:MNEMO_DATA:-.mnemo/data}")
  Path data;

  @Option(
      names = "--store",
      paramLabel = "NAME",
      description =
          "Store: lucene (embedded, in --data; default, or $MNEMO_STORE) or solr (a SolrCloud collection: "
              + "--zk or --solr-urls, --collection; create it once with 'mnemo solr init').",
      defaultValue = "${env:MNEMO_STORE:-lucene}")
  String store;

  @Option(
      names = "--zk",
      paramLabel = "HOST:PORT[/CHROOT]",
      description = "ZooKeeper of the SolrCloud cluster (with --store solr; or $MNEMO_SOLR_ZK).",
      defaultValue = "${env:MNEMO_SOLR_ZK}")
  String zk;

  @Option(
      names = "--solr-urls",
      paramLabel = "URL[,URL...]",
      description =
          "Solr base URLs, e.g. http://solr1:8983/solr (with --store solr, instead of --zk; or $MNEMO_SOLR_URLS).",
      defaultValue = "${env:MNEMO_SOLR_URLS}")
  String solrUrls;

  @Option(
      names = "--collection",
      paramLabel = "NAME",
      description =
          "Solr collection (with --store solr; default ${DEFAULT-VALUE}, or $MNEMO_SOLR_COLLECTION).",
      defaultValue = "${env:MNEMO_SOLR_COLLECTION:-mnemo}")
  String collection;

  @Option(
      names = "--embedder",
      paramLabel = "NAME",
      description =
          "Embedder: e5-small-v2-q (local ONNX, default), openai (an OpenAI-compatible /embeddings endpoint) or none.",
      defaultValue = "e5-small-v2-q")
  String embedder;

  @Option(
      names = "--embed-url",
      paramLabel = "URL",
      description = "Base URL of the OpenAI-compatible endpoint (with --embedder openai).")
  String embedUrl;

  @Option(
      names = "--embed-model",
      paramLabel = "MODEL",
      description = "Remote embedding model name (with --embedder openai).")
  String embedModel;

  @Option(
      names = "--tokenizer",
      paramLabel = "ENCODING",
      description = "Token counting encoding (default: ${DEFAULT-VALUE}).",
      defaultValue = "cl100k_base")
  String tokenizer;

  @Option(
      names = "--extractor",
      paramLabel = "NAME",
      description =
          "What ingested turns are turned into memories with: offline (the built-in rules, default) or llm (the "
              + "configured language model, --llm-*).",
      defaultValue = "offline")
  String extractor;

  @Option(
      names = "--consolidator",
      paramLabel = "NAME",
      description =
          "How extracted candidates meet existing records: rules (default) or llm (the configured language "
              + "model; when it fails, the rules decide).",
      defaultValue = "rules")
  String consolidator;

  @Mixin LlmOptions llm = new LlmOptions();

  @Option(
      names = "--entities",
      paramLabel = "FINDER",
      defaultValue = "heuristic",
      description =
          "How names of written records are found: heuristic (capitalization, default) or opennlp (the "
              + "heuristic's names confirmed by OpenNLP's English part-of-speech model).")
  String entities;

  @Option(
      names = "--recall-log",
      paramLabel = "on|off",
      defaultValue = "${env:MNEMO_RECALL_LOG:-on}",
      description =
          "Record every recall in the retrieval log beside the store (./mnemo log; default ${DEFAULT-VALUE}, or $MNEMO_RECALL_LOG).")
  String recallLog = "on";

  @Option(
      names = "--recall-log-sample",
      paramLabel = "SHARE",
      defaultValue = "${env:MNEMO_RECALL_LOG_SAMPLE:-1}",
      description =
          "Share of recalls logged, in (0, 1] (default ${DEFAULT-VALUE}, or $MNEMO_RECALL_LOG_SAMPLE).")
  double recallLogSample = 1;

  @Option(
      names = "--recall-log-retention",
      paramLabel = "DURATION",
      defaultValue = "${env:MNEMO_RECALL_LOG_RETENTION:-P30D}",
      description =
          "Logged recalls older than this are deleted: an ISO-8601 duration, or 'forever' (default ${DEFAULT-VALUE}, or $MNEMO_RECALL_LOG_RETENTION).")
  String recallLogRetention = "P30D";

  /**
   * The retrieval log options from {@code --recall-log*}; a bad value is an error naming the
   * option.
   */
  public dev.mnemo.RecallLogOptions recallLogOptions() {
    boolean on =
        switch (recallLog == null ? "on" : recallLog) {
          case "on", "true" -> true;
          case "off", "false" -> false;
          default ->
              throw new dev.mnemo.InvalidRequestException(
                  "recall_log",
                  recallLog,
                  "--recall-log must be on or off, was '" + recallLog + "'");
        };
    java.time.Duration retention;
    if (recallLogRetention == null || recallLogRetention.equals("forever")) {
      retention = null;
    } else {
      try {
        retention = java.time.Duration.parse(recallLogRetention);
      } catch (java.time.format.DateTimeParseException e) {
        throw new dev.mnemo.InvalidRequestException(
            "recall_log.retention",
            recallLogRetention,
            "--recall-log-retention must be an ISO-8601 duration (P30D, PT12H) or 'forever', was '"
                + recallLogRetention
                + "'");
      }
    }
    return new dev.mnemo.RecallLogOptions(
        on, recallLogSample, retention, dev.mnemo.RecallLogOptions.DEFAULT.queue());
  }

  private Embedder shared;
  private dev.mnemo.nlp.OpenNlpEntities openNlp;

  /** The configured entity finder; null for the engine's default heuristic. */
  synchronized java.util.function.Function<String, java.util.List<String>> entityFinder() {
    return switch (entities == null ? "heuristic" : entities) {
      case "heuristic" -> null;
      case "opennlp" ->
          openNlp != null ? openNlp : (openNlp = dev.mnemo.nlp.OpenNlpEntities.load());
      default ->
          throw new dev.mnemo.InvalidRequestException(
              "entities",
              entities,
              "entities must be one of heuristic, opennlp, was '" + entities + "'");
    };
  }

  private UnaryOperator<Embedder> decorator = UnaryOperator.identity();

  /**
   * Wraps the embedder, once it is created, with {@code decorator} (an embedding cache, for
   * example); call before the first {@link #open}. {@link #closeEmbedder()} closes what the
   * decorator returns.
   */
  public synchronized void decorateEmbedder(UnaryOperator<Embedder> decorator) {
    this.decorator = java.util.Objects.requireNonNull(decorator, "decorator");
  }

  /**
   * The configured embedder, created once and shared; null for {@code none}. The API key comes from
   * $MNEMO_EMBED_KEY.
   */
  public synchronized Embedder embedder() {
    if (shared != null || "none".equals(embedder)) return shared;
    Map<String, String> cfg = new HashMap<>();
    if (embedUrl != null) cfg.put("url", embedUrl);
    if (embedModel != null) cfg.put("model", embedModel);
    String key = System.getenv("MNEMO_EMBED_KEY");
    if (key != null) cfg.put("key", key);
    shared = decorator.apply(Providers.embedder(embedder, cfg));
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
    // the tokenizer first: its encoding loads on another thread while the model loads here
    Tokenizer tokenizer = tokenizer();
    Embedder e = embedder();
    // the write path first: a missing model opens no store
    Mnemo.Builder b =
        writePath(Mnemo.builder())
            .tokenizer(tokenizer)
            .entities(entityFinder())
            .recallLogOptions(recallLogOptions());
    if (e == null) b.withoutEmbedder();
    else b.embedder(Embedder.shared(e));
    return b.store(store(dir)).build();
  }

  /**
   * The retrieval log of an engine {@link #open} opened; a store that keeps none (SolrCloud) is an
   * error saying so.
   */
  dev.mnemo.RetrievalLog retrievalLog(Mnemo m) {
    return m.retrievalLog()
        .orElseThrow(
            () ->
                new dev.mnemo.MnemoException(
                    "the store of --data "
                        + data
                        + " keeps no retrieval log (the Lucene store keeps one; SolrCloud none)",
                    false));
  }

  /** The maintenance facet of an engine {@link #open} opened (every engine built here has it). */
  static dev.mnemo.Maintenance maintenance(Mnemo m) {
    return m.maintenance()
        .orElseThrow(
            () -> new IllegalStateException("an engine opened by the CLI has maintenance"));
  }

  /**
   * Sets the builder's extractor and consolidator from {@code --extractor} and {@code
   * --consolidator} (the LLM ones need a configured model: an error naming the options otherwise).
   */
  public Mnemo.Builder writePath(Mnemo.Builder b) {
    switch (extractor == null ? "offline" : extractor) {
      case "offline" -> {}
      case "llm" -> b.extractor(new LlmExtractor(llm.require("--extractor llm")));
      default ->
          throw new IllegalArgumentException(
              "--extractor must be one of [offline, llm], was '" + extractor + "'");
    }
    switch (consolidator == null ? "rules" : consolidator) {
      case "rules" -> {}
      case "llm" ->
          b.consolidator(new LlmConsolidator(llm.require("--consolidator llm"), RULES_ON_FAILURE));
      default ->
          throw new IllegalArgumentException(
              "--consolidator must be one of [rules, llm], was '" + consolidator + "'");
    }
    return b;
  }

  /**
   * What the LLM consolidator falls back to when the model fails: the engine's rule consolidator.
   */
  static final Consolidator RULES_ON_FAILURE = new dev.mnemo.write.RuleConsolidator();

  /** Whether {@code --store solr} was chosen (an unknown name is refused). */
  public boolean solr() {
    return switch (store == null ? "lucene" : store) {
      case "lucene" -> false;
      case "solr" -> true;
      default ->
          throw new InvalidRequestException(
              "store", store, "store must be one of [lucene, solr], was '" + store + "'");
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

  /**
   * The chosen store: the Lucene index in {@code dir}, or the default tenant of the Solr
   * collection.
   */
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
