package dev.mnemo.cli;

import dev.mnemo.eval.CachingEmbedder;
import java.io.PrintStream;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * {@code --embed-cache DIR} and {@code --no-embed-cache}: the evaluation commands keep every
 * passage and query vector on disk, keyed by the model and the text, so that a second run over the
 * same data embeds nothing again. A picocli mixin.
 */
final class EmbedCacheOptions {

  @Option(names = "--embed-cache", paramLabel = "DIR", defaultValue = ".mnemo/embed-cache",
      description = "Keep computed embeddings here, keyed by model id and text, and reuse them in later runs "
          + "(default: ${DEFAULT-VALUE}).")
  Path dir;

  @Option(names = "--no-embed-cache", description = "Embed everything afresh and keep nothing.")
  boolean off;

  private CachingEmbedder cache;

  /** Makes {@code engine}'s embedder a cached one, unless switched off. */
  void apply(EngineOptions engine) {
    if (off) return;
    engine.decorateEmbedder(e -> cache = CachingEmbedder.open(e, dir));
  }

  /** One line on how many vectors came from the cache, if it was used. */
  void report(PrintStream err) {
    if (cache != null) {
      err.printf("embedding cache %s: %d vectors reused, %d computed, %d held%n", cache.file(), cache.hits(),
          cache.misses(), cache.size());
    }
  }
}
