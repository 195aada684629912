package dev.mnemo.spi;

import dev.mnemo.Freshness;
import dev.mnemo.RecallLogOptions;
import java.time.Duration;
import java.time.InstantSource;
import java.time.ZoneId;
import java.util.List;
import java.util.function.Function;

/**
 * Everything the engine is built from, resolved by {@link dev.mnemo.Mnemo.Builder} (defaults
 * applied), for {@link EngineFactory}: not for applications.
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
 * @param entityFinder the names of a record's text; null = {@link dev.mnemo.text.Entities#extract}
 * @param recallLog the retrieval log; null = the store's own, if it keeps one (else none)
 * @param recallLogOptions how recalls are logged ({@link RecallLogOptions#OFF}: not at all)
 * @param freshness the store's half-lives and maximum ages per fact kind
 * @param parallelSignals embed the query on a thread of its own while the store searches the
 *     signals that need no vector
 */
public record EngineSettings(
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
    Freshness freshness,
    boolean parallelSignals) {}
