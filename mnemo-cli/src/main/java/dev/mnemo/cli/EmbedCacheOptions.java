package dev.mnemo.cli;

import dev.mnemo.eval.CachingEmbedder;
import java.nio.file.Path;
import java.util.Locale;
import java.util.function.Supplier;
import picocli.CommandLine.Option;

/**
 * {@code --embed-cache DIR} and {@code --no-embed-cache}: the evaluation commands keep every
 * passage and query vector on disk, keyed by the model and the text, so that a second run over the
 * same data embeds nothing again. A picocli mixin.
 */
final class EmbedCacheOptions {

  @Option(
      names = "--embed-cache",
      paramLabel = "DIR",
      defaultValue = ".mnemo/embed-cache",
      description =
          "Keep computed embeddings here, keyed by model id and text, and reuse them in later runs "
              + "(default: ${DEFAULT-VALUE}).")
  Path dir;

  @Option(names = "--no-embed-cache", description = "Embed everything afresh and keep nothing.")
  boolean off;

  private CachingEmbedder cache;

  /**
   * Runs {@code work} with {@code engine}'s embedder cached (unless switched off), then says on
   * stderr how many vectors came from the cache and closes the embedder.
   */
  <T> T run(EngineOptions engine, Supplier<T> work) {
    if (!off) engine.decorateEmbedder(e -> cache = CachingEmbedder.open(e, dir));
    try {
      return work.get();
    } finally {
      if (cache != null) {
        System.err.printf(
            Locale.ROOT,
            "embedding cache %s: %d vectors reused, %d computed, %d held%n",
            cache.file(),
            cache.hits(),
            cache.misses(),
            cache.size());
      }
      engine.closeEmbedder();
    }
  }
}
