package dev.mnemo.cli;

import dev.mnemo.Mnemo;
import dev.mnemo.spi.Embedder;
import dev.mnemo.spi.Providers;
import dev.mnemo.spi.Tokenizer;
import dev.mnemo.store.lucene.LuceneMemoryStore;
import dev.mnemo.text.JTokkitTokenizer;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.function.UnaryOperator;
import picocli.CommandLine.Option;

/**
 * The options every command that opens an engine shares: where the store lives, which embedder and
 * tokenizer to use. A picocli mixin.
 */
public final class EngineOptions {

  @Option(names = "--data", paramLabel = "DIR", description = "Store directory (default: ${DEFAULT-VALUE}, or $MNEMO_DATA).",
      defaultValue = "${env:MNEMO_DATA:-.mnemo/data}")
  Path data;

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
  private UnaryOperator<Embedder> decorator = UnaryOperator.identity();

  /**
   * Wraps the embedder, once it is created, with {@code decorator} (an embedding cache, for example);
   * call before the first {@link #open}. {@link #closeEmbedder()} closes what the decorator returns.
   */
  public synchronized void decorateEmbedder(UnaryOperator<Embedder> decorator) {
    this.decorator = java.util.Objects.requireNonNull(decorator, "decorator");
  }

  /** The configured embedder, created once and shared; null for {@code none}. The API key comes from $MNEMO_EMBED_KEY. */
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
    Embedder e = embedder();
    Mnemo.Builder b = Mnemo.builder().store(LuceneMemoryStore.open(dir)).tokenizer(tokenizer());
    if (e == null) b.withoutEmbedder();
    else b.embedder(Embedder.shared(e));
    return b.build();
  }

  public synchronized void closeEmbedder() {
    if (shared != null) shared.close();
    shared = null;
  }

}
