package dev.mnemo.internal;

import dev.mnemo.Category;
import dev.mnemo.ConflictPolicy;
import dev.mnemo.Diagnostics;
import dev.mnemo.IngestProgress;
import dev.mnemo.IngestReceipt;
import dev.mnemo.InvalidRequestException;
import dev.mnemo.Maintenance;
import dev.mnemo.MemoryRecord;
import dev.mnemo.Mnemo;
import dev.mnemo.NewMemory;
import dev.mnemo.RecallLogOptions;
import dev.mnemo.RecallRequest;
import dev.mnemo.RecallResult;
import dev.mnemo.RetrievalLog;
import dev.mnemo.StoredTurn;
import dev.mnemo.Turn;
import dev.mnemo.spi.Consolidator;
import dev.mnemo.spi.Embedder;
import dev.mnemo.spi.Extractor;
import dev.mnemo.spi.MemoryStore;
import dev.mnemo.spi.RecallLog;
import dev.mnemo.spi.Tokenizer;
import dev.mnemo.spi.TurnLog;
import dev.mnemo.write.OfflineExtractor;
import dev.mnemo.write.RuleConsolidator;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The engine behind {@link Mnemo}: a write lock per owner for the write path (so that supersession
 * plans against a consistent view of the owner's records, while other owners' writes proceed:
 * {@link WriteLocks}), lock-free reads. Built by {@link Mnemo.Builder} through {@link
 * Engines#open}; reached only through {@link Mnemo} and its facets ({@link Maintenance}, {@link
 * RetrievalLog}, {@link Diagnostics}), which are objects of their own, so that no caller can cast a
 * facet back to the engine.
 *
 * <p>This class is the façade: it wires the parts and holds the everyday calls (writes, ingest,
 * recall, reads by id and key, a category change, usage marks). The work is in package-private
 * parts, each with one reason to change: {@link WritePath} (validation, embedding, versions),
 * {@link ReadPath} (a recall), {@link IngestPipeline} (turns to records), {@link Summaries} (an
 * episode's summary and how it follows its sources), {@link Forgetting} (erasure everywhere the
 * engine keeps something), {@link EngineMaintenance} (restore, turn import and export, retention),
 * {@link EngineRetrievalLog} (what is logged, read back and replayed) and {@link
 * EngineDiagnostics}.
 */
final class Engine implements Mnemo {
  private final MemoryStore store;
  private final Embedder embedder;
  private final InstantSource clock;
  private final WritePath writes;
  private final ReadPath reads;
  private final WriteLocks locks = new WriteLocks();
  private final TurnLog turnLog;
  private final boolean ownsTurnLog;
  private final IngestPipeline ingest;
  private final Summaries summaries;
  private final Forgetting forgetting;
  private final EngineRetrievalLog recallLog;
  private final EngineMaintenance maintenance;
  private final EngineDiagnostics diagnostics;

  /**
   * How {@link #ingest} runs.
   *
   * @param turnLog the turn log; null = the store's own, else one in memory (then synchronous)
   * @param synchronous extract inside {@code ingest} instead of in the background
   * @param queue at most this many turns wait for extraction
   * @param queueWait how long {@code ingest} waits for room in a full queue
   * @param entityFinder the names of a record's text; null = {@link
   *     dev.mnemo.text.Entities#extract}
   */
  record IngestOptions(
      TurnLog turnLog,
      boolean synchronous,
      int queue,
      Duration queueWait,
      java.util.function.Function<String, List<String>> entityFinder) {
    IngestOptions {
      entityFinder = entityFinder == null ? dev.mnemo.text.Entities::extract : entityFinder;
    }
  }

  /**
   * An engine over {@code store}; {@link Engines#open} is the one caller.
   *
   * @param recallLog the retrieval log; null = the store's own, if it keeps one (else none)
   * @param logOptions how recalls are logged ({@link RecallLogOptions#OFF}: not at all)
   * @param freshness the store's half-lives and maximum ages per fact kind
   * @param parallelSignals embed the query while the store searches the other signals
   */
  Engine(
      MemoryStore store,
      Embedder embedder,
      Tokenizer tokenizer,
      InstantSource clock,
      ZoneId zone,
      int maxTextChars,
      Extractor extractor,
      Consolidator consolidator,
      IngestOptions options,
      RecallLog recallLog,
      RecallLogOptions logOptions,
      dev.mnemo.Freshness freshness,
      boolean parallelSignals) {
    this.store = Objects.requireNonNull(store, "store");
    this.embedder = embedder;
    checkEmbeddingModel(store, embedder);
    Tokenizer counted = CountingCache.of(Objects.requireNonNull(tokenizer, "tokenizer"));
    this.clock = Objects.requireNonNull(clock, "clock");
    this.writes = new WritePath(store, embedder, clock, maxTextChars, options.entityFinder());
    this.writes.zone(zone);
    this.summaries = new Summaries(store, writes, locks, clock, maxTextChars);
    this.writes.onApplied(changed -> summaries.followSources(changed, List.of()));
    this.reads =
        new ReadPath(
            store,
            embedder,
            counted,
            clock,
            zone,
            Objects.requireNonNull(freshness, "freshness"),
            dev.mnemo.RelevanceModel.defaultModel(),
            parallelSignals);
    TurnLog own = options.turnLog() != null ? options.turnLog() : store.turnLog().orElse(null);
    this.ownsTurnLog = options.turnLog() != null;
    this.turnLog = own != null ? own : new InMemoryTurnLog();
    this.ingest =
        new IngestPipeline(
            store,
            turnLog,
            writes,
            (r, v) -> reads.recall(r, v).selected(),
            extractor != null ? extractor : new OfflineExtractor(options.entityFinder()),
            consolidator != null ? consolidator : new RuleConsolidator(),
            zone,
            clock,
            locks,
            options.synchronous() || own == null,
            options.queue(),
            32,
            options.queueWait());
    this.recallLog =
        new EngineRetrievalLog(recallLog, logOptions, store, clock, reads, embedder, counted);
    this.forgetting = new Forgetting(store, turnLog, locks, summaries, this.recallLog);
    this.maintenance =
        new EngineMaintenance(store, embedder, turnLog, ingest, locks, clock, summaries);
    this.diagnostics = new EngineDiagnostics(store, embedder, counted, this.recallLog);
  }

  /** Refuses an embedder whose model differs from the one the store's vectors came from. */
  private static void checkEmbeddingModel(MemoryStore store, Embedder embedder) {
    if (embedder == null) return; // no dense signal: stored vectors are simply not used
    Optional<String> stored = store.embeddingModel();
    if (stored.isPresent() && !stored.get().isEmpty() && !stored.get().equals(embedder.modelId())) {
      throw new dev.mnemo.MnemoException(
          "the store holds vectors of embedding model '"
              + stored.get()
              + "' but the engine embeds with '"
              + embedder.modelId()
              + "': recall would compare different vector spaces. "
              + "Open it with the model it was written with, or re-embed it: ./mnemo reindex --data DIR --embedder ...",
          false);
    }
  }

  @Override
  public Optional<Maintenance> maintenance() {
    return Optional.of(maintenance);
  }

  @Override
  public Optional<RetrievalLog> retrievalLog() {
    return recallLog.kept() ? Optional.of(recallLog) : Optional.empty();
  }

  @Override
  public Optional<Diagnostics> diagnostics() {
    return Optional.of(diagnostics);
  }

  @Override
  public MemoryRecord remember(NewMemory memory) {
    return writes.write(java.util.Collections.singletonList(memory), true, locks).get(0);
  }

  @Override
  public List<MemoryRecord> rememberAll(List<NewMemory> memories) {
    return writes.write(memories, false, locks);
  }

  @Override
  public List<InvalidRequestException.Violation> validate(NewMemory memory, String fieldPrefix) {
    return writes.validate(memory, fieldPrefix == null ? "" : fieldPrefix);
  }

  /** The ingest pipeline: see {@link IngestPipeline}. */
  @Override
  public IngestReceipt ingest(List<Turn> turns) {
    return ingest.ingest(turns);
  }

  @Override
  public List<Turn> sources(String owner, String recordId) {
    requireOwner(owner);
    Optional<MemoryRecord> r = recordId == null ? Optional.empty() : store.get(owner, recordId);
    if (r.isEmpty()) return List.of();
    return turnLog.getAll(owner, r.get().sources()).stream().map(StoredTurn::turn).toList();
  }

  @Override
  public IngestReceipt accept(String owner, String id) {
    requireOwner(owner);
    return ingest.accept(owner, id);
  }

  @Override
  public IngestProgress ingestProgress() {
    return ingest.progress();
  }

  @Override
  public boolean awaitIngested(Duration timeout) {
    return ingest.await(Objects.requireNonNull(timeout, "timeout"));
  }

  /** The offline, extractive summary: see {@link Summaries#summarize}. */
  @Override
  public Optional<MemoryRecord> summarize(String owner, String episode) {
    return summaries.summarize(owner, episode);
  }

  @Override
  public MemoryRecord recategorize(String owner, String id, Category category) {
    requireOwner(owner);
    Objects.requireNonNull(category, "category");
    WriteLocks.Held held = locks.owner(owner);
    try {
      MemoryRecord r =
          store
              .get(owner, id)
              .orElseThrow(
                  () ->
                      new InvalidRequestException(
                          "id", id, "no record '" + id + "' of owner '" + owner + "'"));
      if (r.expiredAt() != null) {
        throw new InvalidRequestException(
            "id", id, "record '" + id + "' is not current (expired at " + r.expiredAt() + ")");
      }
      if (r.category() == category) return r;
      String key = r.factKey() != null ? r.factKey() : "auto/" + r.id();
      WritePath.Session session = writes.session();
      if (r.factKey() == null) session.put(Records.with(r, r.sources(), key, r.importance()));
      Map<String, String> meta = new java.util.HashMap<>(r.metadata());
      meta.put(
          "transformation",
          "category " + r.category().code() + " -> " + category.code() + " (from " + r.id() + ")");
      NewMemory m =
          new NewMemory(
              owner,
              r.text(),
              r.scope(),
              category,
              r.context(),
              r.sources(),
              r.episode(),
              r.seq() < 0 ? null : r.seq(),
              null,
              r.validFrom(),
              r.validTo(),
              key,
              r.importance(),
              r.authority(),
              ConflictPolicy.SUPERSEDE,
              r.entities(),
              meta,
              null,
              r.access());
      MemoryRecord created = session.add(m, r.embedding(), "");
      if (created == null) throw new InvalidRequestException(session.violations());
      session.commit();
      return created;
    } finally {
      held.release();
    }
  }

  @Override
  public RecallResult recall(RecallRequest request) {
    return recallLog.recall(Objects.requireNonNull(request, "request"));
  }

  @Override
  public List<MemoryRecord> history(String owner, String factKey) {
    requireOwner(owner);
    if (factKey == null || factKey.isBlank()) {
      throw new InvalidRequestException(
          "fact_key", factKey, "fact_key must not be blank, was " + factKey);
    }
    List<MemoryRecord> out = new ArrayList<>(store.versions(owner, factKey));
    out.sort(
        Comparator.comparing(MemoryRecord::recordedAt)
            .thenComparing(MemoryRecord::validFrom)
            .thenComparing(MemoryRecord::id));
    return out;
  }

  @Override
  public Optional<MemoryRecord> get(String owner, String id) {
    requireOwner(owner);
    return id == null ? Optional.empty() : store.get(owner, id);
  }

  @Override
  public int forget(String owner) {
    return forgetting.owner(owner);
  }

  @Override
  public int forget(String owner, String id) {
    return forgetting.record(owner, id);
  }

  @Override
  public int markUsed(String owner, Collection<String> ids) {
    requireOwner(owner);
    Instant now = clock.instant();
    WriteLocks.Held held = locks.owner(owner);
    try {
      List<MemoryRecord> updated = new ArrayList<>();
      for (String id : new LinkedHashSet<>(ids)) {
        store.get(owner, id).ifPresent(r -> updated.add(r.withUsage(r.accessCount() + 1, now)));
      }
      if (!updated.isEmpty()) store.apply(updated, List.of());
      recallLog.used(owner, updated.stream().map(MemoryRecord::id).toList());
      return updated.size();
    } finally {
      held.release();
    }
  }

  @Override
  public void export(String owner, Consumer<MemoryRecord> sink) {
    store.export(owner, sink);
  }

  @Override
  public void close() {
    try {
      ingest.close();
      recallLog.close();
      if (ownsTurnLog) turnLog.close();
    } finally {
      closeStore();
    }
  }

  private void closeStore() {
    try {
      store.close();
    } finally {
      if (embedder != null) embedder.close();
    }
  }

  private static void requireOwner(String owner) {
    dev.mnemo.InputRules.requireOwner("owner", owner);
  }
}
