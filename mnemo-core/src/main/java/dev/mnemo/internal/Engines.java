package dev.mnemo.internal;

import dev.mnemo.Mnemo;
import dev.mnemo.spi.EngineFactory;
import dev.mnemo.spi.EngineSettings;

/**
 * The one door to the engine, for {@link Mnemo.Builder#build()}, which finds it as the {@link
 * EngineFactory} this module registers in {@code META-INF/services} (so {@code dev.mnemo} does not
 * import this package): not public API (build a {@link Mnemo} with {@link Mnemo#builder()}). The
 * engine class itself is package-private, so nothing outside this package can name or cast to it.
 */
public final class Engines implements EngineFactory {
  /** For {@link java.util.ServiceLoader}. */
  public Engines() {}

  /**
   * Opens an engine: checks the store's embedding model against the embedder, starts ingest and
   * logging.
   */
  @Override
  public Mnemo open(EngineSettings s) {
    return new Engine(
        s.store(),
        s.embedder(),
        s.tokenizer(),
        s.clock(),
        s.zone(),
        s.maxTextChars(),
        s.extractor(),
        s.consolidator(),
        new Engine.IngestOptions(
            s.turnLog(),
            s.synchronousIngest(),
            s.ingestQueue(),
            s.ingestQueueWait(),
            s.entityFinder()),
        s.recallLog(),
        s.recallLogOptions(),
        s.freshness(),
        s.parallelSignals());
  }
}
