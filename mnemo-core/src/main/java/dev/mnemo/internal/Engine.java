package dev.mnemo.internal;

import dev.mnemo.Category;
import dev.mnemo.ConflictPolicy;
import dev.mnemo.Diagnostics;
import dev.mnemo.IngestProgress;
import dev.mnemo.IngestReceipt;
import dev.mnemo.InvalidRequestException;
import dev.mnemo.LoggedRecall;
import dev.mnemo.Maintenance;
import dev.mnemo.MemoryRecord;
import dev.mnemo.Mnemo;
import dev.mnemo.NewMemory;
import dev.mnemo.RecallLogOptions;
import dev.mnemo.RecallLogQuery;
import dev.mnemo.RecallRequest;
import dev.mnemo.RecallResult;
import dev.mnemo.RecallStats;
import dev.mnemo.RecallTrace;
import dev.mnemo.Replay;
import dev.mnemo.RetentionPolicy;
import dev.mnemo.RetentionReport;
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
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The engine behind {@link Mnemo}: a write lock per owner for the write path (so that supersession
 * plans against a consistent view of the owner's records, while other owners' writes proceed:
 * {@link WriteLocks}), lock-free reads. Built by {@link Mnemo.Builder} through {@link
 * Engines#open}; reached only through {@link Mnemo} and its facets ({@link Maintenance}, {@link
 * RetrievalLog}, {@link Diagnostics}), which are small objects forwarding here, so that no caller
 * can cast a facet back to the engine.
 */
final class Engine implements Mnemo {
  private final MemoryStore store;
  private final Embedder embedder;
  private final Tokenizer tokenizer;
  private final InstantSource clock;
  private final WritePath writes;
  private final ReadPath reads;
  private final WriteLocks locks = new WriteLocks();
  private final int maxTextChars;
  private final TurnLog turnLog;
  private final boolean ownsTurnLog;
  private final IngestPipeline ingest;

  /** Null when recalls are not logged. */
  private final RecallLogger recallLogger;

  /** The log when logging is off but one exists (still searchable and forgettable), else null. */
  private final RecallLog idleRecallLog;

  private final boolean ownsRecallLog;

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
    this.tokenizer = CountingCache.of(Objects.requireNonNull(tokenizer, "tokenizer"));
    this.clock = Objects.requireNonNull(clock, "clock");
    this.writes = new WritePath(store, embedder, clock, maxTextChars, options.entityFinder());
    this.writes.onApplied(changed -> followSources(changed, List.of()));
    this.maxTextChars = maxTextChars;
    this.reads =
        new ReadPath(
            store,
            embedder,
            this.tokenizer,
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
    RecallLog rl = recallLog != null ? recallLog : store.recallLog().orElse(null);
    this.ownsRecallLog = recallLog != null;
    this.recallLogger =
        rl == null || !logOptions.enabled()
            ? null
            : new RecallLogger(rl, store, logOptions, clock, identities());
    this.idleRecallLog = recallLogger == null ? rl : null;
  }

  /** The identities of the parts that answer a recall, as the retrieval log records them. */
  private Map<String, String> identities() {
    Map<String, String> m = new java.util.LinkedHashMap<>();
    if (embedder != null) m.put("embedder", embedder.modelId());
    m.put("tokenizer", tokenizer.name());
    m.put("relevance_model", dev.mnemo.RelevanceModel.defaultModel().id());
    m.put("mnemo_version", VERSION);
    return m;
  }

  /** This build's version (from the filtered {@code version.properties}), or {@code unknown}. */
  static final String VERSION = readVersion();

  private static String readVersion() {
    try (var in = Engine.class.getResourceAsStream("/dev/mnemo/version.properties")) {
      if (in == null) return "unknown";
      var p = new java.util.Properties();
      p.load(in);
      String v = p.getProperty("version", "unknown");
      return v.startsWith("${") ? "unknown" : v;
    } catch (java.io.IOException e) {
      return "unknown";
    }
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

  private final Maintenance maintenance =
      new Maintenance() {
        @Override
        public Optional<StoredTurn> turn(String owner, String id) {
          return Engine.this.turn(owner, id);
        }

        @Override
        public void exportTurns(String owner, Consumer<StoredTurn> sink) {
          turnLog.export(owner, sink);
        }

        @Override
        public int importTurns(List<StoredTurn> turns) {
          return Engine.this.importTurns(turns);
        }

        @Override
        public int restore(List<MemoryRecord> records) {
          return Engine.this.restore(records);
        }

        @Override
        public RetentionReport retain(
            String owner,
            Map<Category, RetentionPolicy> policies,
            Duration turnMaxAge,
            Instant now) {
          return Engine.this.retain(owner, policies, turnMaxAge, now);
        }
      };

  private final RetrievalLog retrievalLog =
      new RetrievalLog() {
        @Override
        public List<LoggedRecall> recalls(RecallLogQuery query) {
          return recallLog().search(Objects.requireNonNull(query, "query")).stream()
              .map(reads::withContributions)
              .toList();
        }

        @Override
        public long countRecalls(RecallLogQuery query) {
          return recallLog().count(Objects.requireNonNull(query, "query"));
        }

        @Override
        public Optional<LoggedRecall> loggedRecall(String id) {
          return Engine.this.loggedRecall(id);
        }

        @Override
        public RecallStats recallStats(RecallLogQuery query) {
          return Engine.this.recallStats(query);
        }

        @Override
        public Optional<Replay> replay(
            String id, java.util.function.UnaryOperator<RecallRequest.Builder> change) {
          return Engine.this.replay(id, change);
        }
      };

  private final Diagnostics diagnostics =
      new Diagnostics() {
        @Override
        public MemoryStore store() {
          return store;
        }

        @Override
        public Optional<Embedder> embedder() {
          return Optional.ofNullable(embedder);
        }

        @Override
        public Tokenizer tokenizer() {
          return tokenizer;
        }

        @Override
        public int blockTokens(MemoryRecord r, boolean first) {
          return tokenizer.count(Renderer.line(r, false))
              + (first ? tokenizer.count(Renderer.HEADER) : 0);
        }

        @Override
        public boolean flushRecallLog(Duration timeout) {
          return recallLogger == null || recallLogger.flush(timeout);
        }

        @Override
        public long recallLogWriterCpuNanos() {
          return recallLogger == null ? 0 : recallLogger.writerCpuNanos();
        }

        @Override
        public long recallLogBytes() {
          return hasRecallLog() ? recallLog().sizeBytes() : 0;
        }
      };

  @Override
  public Optional<Maintenance> maintenance() {
    return Optional.of(maintenance);
  }

  @Override
  public Optional<RetrievalLog> retrievalLog() {
    return hasRecallLog() ? Optional.of(retrievalLog) : Optional.empty();
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

  private Optional<StoredTurn> turn(String owner, String id) {
    requireOwner(owner);
    return id == null ? Optional.empty() : turnLog.get(owner, id);
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

  private int importTurns(List<StoredTurn> turns) {
    List<InvalidRequestException.Violation> bad = new ArrayList<>();
    for (int i = 0; i < turns.size(); i++) {
      bad.addAll(
          IngestPipeline.validate(
              turns.get(i) == null ? null : turns.get(i).turn(), "turns[" + i + "].", null));
    }
    if (!bad.isEmpty()) throw new InvalidRequestException(bad);
    List<StoredTurn> stored = turnLog.append(turns);
    ingest.added(stored.stream().filter(t -> t.state() == StoredTurn.State.PENDING).count());
    return stored.size();
  }

  private int restore(List<MemoryRecord> records) {
    List<InvalidRequestException.Violation> bad = new ArrayList<>();
    for (int i = 0; i < records.size(); i++) {
      MemoryRecord r = records.get(i);
      String p = "records[" + i + "].";
      if (r == null) {
        bad.add(
            new InvalidRequestException.Violation(
                p + "record", null, p + "record must not be null"));
      } else if (r.owner().isBlank() || r.text().isBlank()) {
        bad.add(
            new InvalidRequestException.Violation(
                p + "owner", r.owner(), p + "owner and text must not be blank"));
      } else {
        // a restored record keeps its times, but only those a store can represent
        int before = bad.size();
        dev.mnemo.InputRules.checkOwner(p + "owner", r.owner(), bad);
        dev.mnemo.InputRules.checkTime(p + "recorded_at", r.recordedAt(), bad);
        dev.mnemo.InputRules.checkTime(p + "expired_at", r.expiredAt(), bad);
        dev.mnemo.InputRules.checkTime(p + "valid_from", r.validFrom(), bad);
        dev.mnemo.InputRules.checkTime(p + "valid_to", r.validTo(), bad);
        dev.mnemo.InputRules.checkTime(p + "last_accessed_at", r.lastAccessedAt(), bad);
        if (bad.size() == before && r.validTo() != null && !r.validTo().isAfter(r.validFrom())) {
          bad.add(
              new InvalidRequestException.Violation(
                  p + "valid_to", r.validTo(), p + "valid_to must be after valid_from"));
        }
      }
    }
    if (!bad.isEmpty()) throw new InvalidRequestException(bad);
    if (records.isEmpty()) return 0;
    List<MemoryRecord> out = new ArrayList<>(records);
    if (embedder != null) {
      List<Integer> stale = new ArrayList<>();
      for (int i = 0; i < out.size(); i++) {
        MemoryRecord r = out.get(i);
        if (r.embedding() == null || !embedder.modelId().equals(r.embeddingModel())) stale.add(i);
      }
      if (!stale.isEmpty()) {
        List<float[]> vectors =
            embedder.embedPassages(stale.stream().map(i -> out.get(i).text()).toList());
        for (int j = 0; j < stale.size(); j++) {
          MemoryRecord r = out.get(stale.get(j));
          out.set(stale.get(j), Records.withEmbedding(r, vectors.get(j), embedder.modelId()));
        }
      }
    }
    WriteLocks.Held held = locks.owners(owners(out));
    try {
      store.apply(out, List.of());
    } finally {
      held.release();
    }
    return out.size();
  }

  /** Records written or changed per atomic batch of {@link #retain}. */
  static final int RETAIN_BATCH = 256;

  private RetentionReport retain(
      String owner, Map<Category, RetentionPolicy> policies, Duration turnMaxAge, Instant now) {
    requireOwner(owner);
    Objects.requireNonNull(policies, "policies");
    Instant at =
        (now == null ? clock.instant() : now).truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
    List<MemoryRecord> all = new ArrayList<>();
    store.export(owner, all::add);
    long examined = 0;
    long expired = 0;
    List<MemoryRecord> batch = new ArrayList<>();
    for (MemoryRecord r : all) {
      if (r.expiredAt() != null) continue;
      examined++;
      RetentionPolicy p = policies.getOrDefault(r.category(), RetentionPolicy.KEEP);
      if (p.dropReason(r, at) == null || !at.isAfter(r.recordedAt())) continue;
      batch.add(r.withExpiredAt(at));
      if (batch.size() == RETAIN_BATCH) {
        expired += applyBatch(batch);
      }
    }
    expired += applyBatch(batch);
    long turnsDeleted = 0;
    if (turnMaxAge != null) {
      Set<String> named = new HashSet<>();
      for (MemoryRecord r : all) named.addAll(r.sources());
      Instant cutoff = at.minus(turnMaxAge);
      List<String> old = new ArrayList<>();
      turnLog.export(
          owner,
          t -> {
            if (t.state() != StoredTurn.State.PENDING
                && t.turn().at() != null
                && t.turn().at().isBefore(cutoff)
                && !named.contains(t.turn().id())) {
              old.add(t.turn().id());
            }
          });
      for (int i = 0; i < old.size(); i += RETAIN_BATCH) {
        turnsDeleted +=
            turnLog.delete(owner, old.subList(i, Math.min(old.size(), i + RETAIN_BATCH)));
      }
    }
    return new RetentionReport(examined, expired, turnsDeleted);
  }

  private static Set<String> owners(Collection<MemoryRecord> records) {
    Set<String> owners = new HashSet<>();
    for (MemoryRecord r : records) owners.add(r.owner());
    return owners;
  }

  private int applyBatch(List<MemoryRecord> batch) {
    if (batch.isEmpty()) return 0;
    int n = batch.size();
    WriteLocks.Held held = locks.owners(owners(batch));
    try {
      store.apply(List.copyOf(batch), List.of());
      followSources(batch, List.of());
    } finally {
      held.release();
    }
    batch.clear();
    return n;
  }

  /** Records of an episode an extractive summary takes, most important first. */
  static final int SUMMARY_SENTENCES = 5;

  /**
   * The offline, extractive summary: the episode's {@value #SUMMARY_SENTENCES} most important
   * current records (believed, and valid now or later) (ties: earlier first), in episode order,
   * joined after {@code "Summary of EPISODE: "}; semantic; sources = every source of every current
   * record of the episode; valid from the earliest of them; importance their maximum; fact key
   * {@code summary/EPISODE}, so a second summary of the same episode is a new version of the first.
   */
  @Override
  public Optional<MemoryRecord> summarize(String owner, String episode) {
    requireOwner(owner);
    if (episode == null || episode.isBlank()) {
      throw new InvalidRequestException(
          "episode", episode, "episode must not be blank, was " + episode);
    }
    WriteLocks.Held held = locks.owner(owner);
    try {
      return summaryOf(owner, episode, null).map(this::remember);
    } finally {
      held.release();
    }
  }

  /** The key of an episode's summary: a new summary is a new version of the old one. */
  static String summaryKey(String episode) {
    return "summary/" + episode;
  }

  private static boolean isSummary(MemoryRecord r) {
    return "summary".equals(r.metadata().get("kind"));
  }

  /**
   * Summaries follow their sources: when a record of an episode stops being current (corrected,
   * superseded, expired by retention) or is forgotten, the episode's current summary, which was
   * derived from it, is re-derived from the episode's current records as a new version that
   * corrects the old one (metadata {@code rederived} says why), or expired when no current record
   * is left; a forgotten source takes every version of the summary with it (they may quote it), so
   * its text survives nowhere. Runs under the owner's write lock right after the change is applied,
   * so a recall never sees the stale summary as current once the change is acknowledged.
   */
  private void followSources(Collection<MemoryRecord> changed, Collection<MemoryRecord> deleted) {
    Map<String, String> why = new java.util.LinkedHashMap<>(); // owner \0 episode -> reason
    Set<String> scrub = new HashSet<>();
    for (MemoryRecord r : changed) {
      if (r.expiredAt() != null && r.episode() != null && !isSummary(r)) {
        why.putIfAbsent(
            r.owner() + "\u0000" + r.episode(), "source " + r.id() + " is no longer current");
      }
    }
    for (MemoryRecord r : deleted) {
      if (r.episode() != null && !isSummary(r)) {
        String k = r.owner() + "\u0000" + r.episode();
        why.put(k, "source " + r.id() + " was forgotten");
        scrub.add(k);
      }
    }
    for (var e : why.entrySet()) {
      int cut = e.getKey().indexOf('\u0000');
      rederive(
          e.getKey().substring(0, cut),
          e.getKey().substring(cut + 1),
          e.getValue(),
          scrub.contains(e.getKey()));
    }
  }

  private void rederive(String owner, String episode, String reason, boolean scrub) {
    List<MemoryRecord> versions = store.versions(owner, summaryKey(episode));
    MemoryRecord current =
        versions.stream().filter(r -> r.expiredAt() == null).findFirst().orElse(null);
    if (current == null) return;
    Optional<NewMemory> next = summaryOf(owner, episode, current.validFrom());
    if (scrub) store.apply(List.of(), versions.stream().map(MemoryRecord::id).toList());
    if (next.isPresent()) {
      Map<String, String> meta = new java.util.LinkedHashMap<>(next.get().metadata());
      meta.put("rederived", "stale: " + reason + "; re-derived from the episode's current records");
      writes.write(List.of(Records.with(next.get(), meta)), true, locks);
    }
    // Under other access labels the new version does not supersede the old one (write rules per
    // label set): the stale one is expired here.
    if (!scrub
        && (next.isEmpty()
            || !current.access().equals(dev.mnemo.Access.normalize(next.get().access())))) {
      String note =
          "stale: "
              + reason
              + (next.isEmpty()
                  ? "; no current record of the episode left, expired"
                  : "; re-derived under other access labels, expired");
      store.apply(
          List.of(
              Records.noted(
                  current.withExpiredAt(
                      clock.instant().truncatedTo(java.time.temporal.ChronoUnit.MILLIS)),
                  note)),
          List.of());
    }
  }

  /**
   * The summary of an episode's current records, or empty when it has none; valid from the earliest
   * of them, or from {@code notAfter} when that is earlier (a re-derived summary covers its old
   * version's whole interval, so no clipped copy of the stale text stays believed).
   */
  private Optional<NewMemory> summaryOf(String owner, String episode, Instant notAfter) {
    List<MemoryRecord> records = new ArrayList<>();
    Instant now = clock.instant();
    // Believed and not ended: a summary is open-ended, so what it says must still hold (the part
    // of a corrected fact clipped to before its correction is history, not the summary's).
    store.export(
        owner,
        r -> {
          if (episode.equals(r.episode())
              && r.expiredAt() == null
              && (r.validTo() == null || r.validTo().isAfter(now))
              && !isSummary(r)) {
            records.add(r);
          }
        });
    List<String> access = summaryAccess(records);
    if (records.isEmpty()) return Optional.empty();
    records.sort(
        Comparator.comparingInt(MemoryRecord::seq).thenComparing(MemoryRecord::recordedAt));
    List<MemoryRecord> top = new ArrayList<>(records);
    top.sort(
        Comparator.comparingDouble(MemoryRecord::importance)
            .reversed()
            .thenComparingInt(records::indexOf));
    Set<MemoryRecord> chosen =
        new HashSet<>(top.subList(0, Math.min(SUMMARY_SENTENCES, top.size())));
    StringBuilder text = new StringBuilder("Summary of " + episode + ":");
    List<String> sources = new ArrayList<>();
    for (MemoryRecord r : records) {
      for (String src : r.sources()) if (!sources.contains(src)) sources.add(src);
      if (chosen.contains(r)) text.append(' ').append(r.text().strip());
    }
    String summary =
        text.length() > maxTextChars ? text.substring(0, maxTextChars) : text.toString();
    Instant from =
        records.stream().map(MemoryRecord::validFrom).min(Comparator.naturalOrder()).orElseThrow();
    if (notAfter != null && notAfter.isBefore(from)) from = notAfter;
    double importance = records.stream().mapToDouble(MemoryRecord::importance).max().orElse(0.5);
    NewMemory m =
        new NewMemory(
            owner,
            summary,
            null,
            Category.SEMANTIC,
            null,
            sources,
            episode,
            null,
            null,
            from,
            null,
            summaryKey(episode),
            importance,
            null,
            notAfter == null ? null : ConflictPolicy.CORRECT,
            List.of(),
            Map.of(
                "kind",
                "summary",
                "episode",
                episode,
                "summarized",
                Integer.toString(records.size())),
            null,
            access);
    return Optional.of(m);
  }

  /**
   * The access labels of a summary of {@code records}, leaving out of {@code records} what it may
   * not show. A summary must never be visible to a caller who could not see every line of it: it
   * carries the labels every labelled record shares (whoever holds one of them sees each of those
   * records), none when no record is labelled. When the labelled records share none, they are left
   * out and the summary covers the unlabelled records alone.
   */
  static List<String> summaryAccess(List<MemoryRecord> records) {
    Set<String> shared = null;
    for (MemoryRecord r : records) {
      if (r.access().isEmpty()) continue;
      if (shared == null) shared = new java.util.TreeSet<>(r.access());
      else shared.retainAll(r.access());
    }
    if (shared == null) return List.of();
    if (shared.isEmpty()) records.removeIf(r -> !r.access().isEmpty());
    return List.copyOf(shared);
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
    Objects.requireNonNull(request, "request");
    RecallLogger logger = recallLogger;
    if (logger == null || !request.log() || !logger.sampled()) return reads.recall(request);
    String state = store.state();
    RecallResult r = reads.recall(request, null, true);
    logger.offer(request, r, state);
    return request.explain()
        ? r
        : new RecallResult(r.selected(), r.rendered(), r.tokensUsed(), r.renderedTokens(), null);
  }

  /** The eligibility a logged recall ran with (its resolved instants and time range). */
  static dev.mnemo.spi.Eligibility eligibilityOf(RecallRequest req, RecallTrace t) {
    return ReadPath.eligibility(req, t.validTime(), t.knownTime(), t.timeRange());
  }

  private RecallLog recallLog() {
    RecallLog log = recallLogger != null ? recallLogger.log() : idleRecallLog;
    if (log == null)
      throw new UnsupportedOperationException(
          "this engine keeps no retrieval log (its store offers none)");
    return log;
  }

  /**
   * Whether this engine keeps a retrieval log (its store offers one, or its builder was given one).
   */
  private boolean hasRecallLog() {
    return recallLogger != null || idleRecallLog != null;
  }

  private Optional<LoggedRecall> loggedRecall(String id) {
    return id == null || id.isBlank()
        ? Optional.empty()
        : recallLog().get(id).map(reads::withContributions);
  }

  private RecallStats recallStats(RecallLogQuery query) {
    RecallStats s = recallLog().stats(Objects.requireNonNull(query, "query"));
    // not written either way: a full queue, or a batch the log refused (each logged as a warning)
    long dropped = recallLogger == null ? 0 : recallLogger.dropped() + recallLogger.failed();
    return new RecallStats(
        s.recalls(), s.fetched(), s.selected(), s.used(), s.injectedTokens(), dropped);
  }

  /**
   * Runs a logged recall again: its request as logged (its "now", hence the store as known then,
   * and every setting), changed by {@code change} when given (to see what other weights or
   * thresholds would have selected), against this engine; the replay itself is not logged.
   */
  private Optional<Replay> replay(
      String id, java.util.function.UnaryOperator<RecallRequest.Builder> change) {
    Optional<LoggedRecall> found = loggedRecall(id);
    if (found.isEmpty()) return Optional.empty();
    LoggedRecall then = found.get();
    RecallRequest.Builder b = then.request().toBuilder().explain(true).log(false);
    if (change != null) b = change.apply(b);
    long t0 = System.nanoTime();
    RecallResult now = reads.recall(b.build(), null, true);
    long nanos = System.nanoTime() - t0;
    return Optional.of(Replays.diff(then, now, identities(), nanos));
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

  /** Deletes the owner's records and turns (every version, vector, turn and error artifact). */
  @Override
  public int forget(String owner) {
    requireAnyOwner(owner);
    WriteLocks.Held held = locks.owner(owner);
    try {
      int n = store.deleteOwner(owner);
      turnLog.deleteOwner(owner);
      forgetInLog(owner, null);
      return n;
    } finally {
      held.release();
    }
  }

  @Override
  public int forget(String owner, String id) {
    requireAnyOwner(owner);
    WriteLocks.Held held = locks.owner(owner);
    try {
      List<MemoryRecord> lineage = store.lineage(owner, id);
      List<String> ids = lineage.stream().map(MemoryRecord::id).toList();
      if (!ids.isEmpty()) {
        store.apply(List.of(), ids);
        followSources(List.of(), lineage);
      }
      // also a record no longer in the store (forgotten before) may still be shown by the log
      List<String> gone = new ArrayList<>(ids);
      if (id != null && !gone.contains(id)) gone.add(id);
      forgetInLog(owner, gone);
      return ids.size();
    } finally {
      held.release();
    }
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
      if (recallLogger != null && !updated.isEmpty())
        recallLogger.used(owner, updated.stream().map(MemoryRecord::id).toList());
      return updated.size();
    } finally {
      held.release();
    }
  }

  @Override
  public void export(String owner, Consumer<MemoryRecord> sink) {
    store.export(owner, sink);
  }

  /**
   * Removes an owner (ids null) or some of its records from the retrieval log, after the writer has
   * stored what was queued before, so an entry still in the queue cannot bring them back.
   */
  private void forgetInLog(String owner, List<String> ids) {
    if (!hasRecallLog()) return;
    if (recallLogger != null) recallLogger.flush(Duration.ofSeconds(30));
    if (ids == null) recallLog().deleteOwner(owner);
    else if (!ids.isEmpty()) recallLog().forget(owner, ids);
  }

  @Override
  public void close() {
    try {
      ingest.close();
      if (recallLogger != null) recallLogger.close();
      if (ownsTurnLog) turnLog.close();
      if (ownsRecallLog) (recallLogger != null ? recallLogger.log() : idleRecallLog).close();
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

  /**
   * Forgetting needs only a non-blank owner: an owner written before the safe character set was
   * enforced must stay erasable.
   */
  private static void requireAnyOwner(String owner) {
    if (owner == null || owner.isBlank()) {
      throw new InvalidRequestException("owner", owner, "owner must not be blank, was " + owner);
    }
  }

  private static void requireOwner(String owner) {
    dev.mnemo.InputRules.requireOwner("owner", owner);
  }
}
