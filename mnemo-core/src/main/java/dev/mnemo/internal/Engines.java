package dev.mnemo.internal;

import dev.mnemo.Freshness;
import dev.mnemo.Mnemo;
import dev.mnemo.RecallLogOptions;
import dev.mnemo.spi.Consolidator;
import dev.mnemo.spi.Embedder;
import dev.mnemo.spi.Extractor;
import dev.mnemo.spi.MemoryStore;
import dev.mnemo.spi.RecallLog;
import dev.mnemo.spi.Tokenizer;
import dev.mnemo.spi.TurnLog;
import java.time.Duration;
import java.time.InstantSource;
import java.time.ZoneId;
import java.util.List;
import java.util.function.Function;

/**
 * The one door to the engine, for {@link Mnemo.Builder#build()}: not public API (build a {@link
 * Mnemo} with {@link Mnemo#builder()}). The engine class itself is package-private, so nothing
 * outside this package can name or cast to it.
 */
public final class Engines {
  private Engines() {}

  /**
   * Everything the engine is built from, resolved by the builder (defaults applied).
   *
   * @param store the store (closed with the engine)
   * @param embedder the embedder, or null: no dense signal
   * @param tokenizer counts budgets
   * @param clock the engine's "now"
   * @param zone the zone calendar words are read in
   * @param maxTextChars the longest record text
   * @param extractor what ingest extracts with; null = {@link dev.mnemo.write.OfflineExtractor}
   * @param consolidator how candidates meet existing records; null = {@link
   *     dev.mnemo.write.RuleConsolidator}
   * @param turnLog the turn log; null = the store's own, else one in memory (then ingest is
   *     synchronous)
   * @param synchronousIngest extract inside {@code ingest} instead of in the background
   * @param ingestQueue at most this many turns wait for extraction
   * @param ingestQueueWait how long {@code ingest} waits for room in a full queue
   * @param entityFinder the names of a record's text; null = {@link
   *     dev.mnemo.text.Entities#extract}
   * @param recallLog the retrieval log; null = the store's own, if it keeps one (else none)
   * @param recallLogOptions how recalls are logged ({@link RecallLogOptions#OFF}: not at all)
   * @param freshness the store's half-lives and maximum ages per fact kind
   */
  public record Settings(
      MemoryStore store,
      Embedder embedder,
      Tokenizer tokenizer,
      InstantSource clock,
      ZoneId zone,
      int maxTextChars,
      Extractor extractor,
      Consolidator consolidator,
      TurnLog turnLog,
      boolean synchronousIngest,
      int ingestQueue,
      Duration ingestQueueWait,
      Function<String, List<String>> entityFinder,
      RecallLog recallLog,
      RecallLogOptions recallLogOptions,
      Freshness freshness) {}

  /**
   * Opens an engine: checks the store's embedding model against the embedder, starts ingest and
   * logging.
   */
  public static Mnemo open(Settings s) {
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
        s.freshness());
  }
}
