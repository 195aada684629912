package dev.mnemo.internal;

import dev.mnemo.Category;
import dev.mnemo.ConflictPolicy;
import dev.mnemo.IngestProgress;
import dev.mnemo.RetentionPolicy;
import dev.mnemo.RetentionReport;
import dev.mnemo.IngestReceipt;
import dev.mnemo.InvalidRequestException;
import dev.mnemo.MemoryRecord;
import dev.mnemo.Mnemo;
import dev.mnemo.NewMemory;
import dev.mnemo.RecallRequest;
import dev.mnemo.RecallResult;
import dev.mnemo.StoredTurn;
import dev.mnemo.Turn;
import dev.mnemo.spi.Consolidator;
import dev.mnemo.spi.Embedder;
import dev.mnemo.spi.Extractor;
import dev.mnemo.spi.MemoryStore;
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
import java.util.Map;
import java.util.Set;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The engine behind {@link Mnemo}: one write lock for the write path (so that supersession plans
 * against a consistent store), lock-free reads. Built by {@link Mnemo.Builder}; not public API.
 */
public final class Engine implements Mnemo {
  private final MemoryStore store;
  private final Embedder embedder;
  private final Tokenizer tokenizer;
  private final InstantSource clock;
  private final WritePath writes;
  private final ReadPath reads;
  private final Object writeLock = new Object();
  private final int maxTextChars;
  private final TurnLog turnLog;
  private final boolean ownsTurnLog;
  private final IngestPipeline ingest;

  public Engine(MemoryStore store, Embedder embedder, Tokenizer tokenizer, InstantSource clock, ZoneId zone,
      int maxTextChars) {
    this(store, embedder, tokenizer, clock, zone, maxTextChars, null, null);
  }

  /** With an extractor and a consolidator for {@link #ingest} (either may be null: the built-in rules). */
  public Engine(MemoryStore store, Embedder embedder, Tokenizer tokenizer, InstantSource clock, ZoneId zone,
      int maxTextChars, Extractor extractor, Consolidator consolidator) {
    this(store, embedder, tokenizer, clock, zone, maxTextChars, extractor, consolidator,
        new IngestOptions(null, false, 10_000, Duration.ofSeconds(30), null));
  }

  /**
   * How {@link #ingest} runs.
   *
   * @param turnLog the turn log; null = the store's own, else one in memory (then synchronous)
   * @param synchronous extract inside {@code ingest} instead of in the background
   * @param queue at most this many turns wait for extraction
   * @param queueWait how long {@code ingest} waits for room in a full queue
   * @param entityFinder the names of a record's text; null = {@link dev.mnemo.text.Entities#extract}
   */
  public record IngestOptions(TurnLog turnLog, boolean synchronous, int queue, Duration queueWait,
      java.util.function.Function<String, List<String>> entityFinder) {
    public IngestOptions {
      entityFinder = entityFinder == null ? dev.mnemo.text.Entities::extract : entityFinder;
    }
  }

  /** With the default {@link dev.mnemo.Freshness}. */
  public Engine(MemoryStore store, Embedder embedder, Tokenizer tokenizer, InstantSource clock, ZoneId zone,
      int maxTextChars, Extractor extractor, Consolidator consolidator, IngestOptions options) {
    this(store, embedder, tokenizer, clock, zone, maxTextChars, extractor, consolidator, options,
        dev.mnemo.Freshness.DEFAULT);
  }

  /** The full constructor; {@code freshness}: the store's half-lives and maximum ages per fact kind. */
  public Engine(MemoryStore store, Embedder embedder, Tokenizer tokenizer, InstantSource clock, ZoneId zone,
      int maxTextChars, Extractor extractor, Consolidator consolidator, IngestOptions options,
      dev.mnemo.Freshness freshness) {
    this.store = Objects.requireNonNull(store, "store");
    this.embedder = embedder;
    this.tokenizer = Objects.requireNonNull(tokenizer, "tokenizer");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.writes = new WritePath(store, embedder, clock, maxTextChars, options.entityFinder());
    this.maxTextChars = maxTextChars;
    this.reads = new ReadPath(store, embedder, tokenizer, clock, zone, Objects.requireNonNull(freshness, "freshness"));
    TurnLog own = options.turnLog() != null ? options.turnLog() : store.turnLog().orElse(null);
    this.ownsTurnLog = options.turnLog() != null;
    this.turnLog = own != null ? own : new InMemoryTurnLog();
    this.ingest = new IngestPipeline(store, turnLog, writes, (r, v) -> reads.recall(r, v).selected(),
        extractor != null ? extractor : new OfflineExtractor(options.entityFinder()),
        consolidator != null ? consolidator : new RuleConsolidator(), zone, clock, writeLock,
        options.synchronous() || own == null, options.queue(), 32, options.queueWait());
  }

  /** The store, for evaluation baselines and tools that need it directly. */
  public MemoryStore store() {
    return store;
  }

  /** The embedder, or null. */
  public Embedder embedder() {
    return embedder;
  }

  /**
   * What a record costs in a recall's budget: the tokens of the line it renders to in the prompt
   * block (dates and markup included), plus the block's header when {@code first}. For baselines
   * that pack records themselves at the same budget as the read path (evaluation).
   */
  public int blockTokens(MemoryRecord r, boolean first) {
    return tokenizer.count(Renderer.line(r, false)) + (first ? tokenizer.count(Renderer.HEADER) : 0);
  }

  public Tokenizer tokenizer() {
    return tokenizer;
  }

  @Override
  public MemoryRecord remember(NewMemory memory) {
    return writes.write(java.util.Collections.singletonList(memory), true, writeLock).get(0);
  }

  @Override
  public List<MemoryRecord> rememberAll(List<NewMemory> memories) {
    return writes.write(memories, false, writeLock);
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
  public Optional<StoredTurn> turn(String owner, String id) {
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

  @Override
  public void exportTurns(String owner, Consumer<StoredTurn> sink) {
    turnLog.export(owner, sink);
  }

  @Override
  public int importTurns(List<StoredTurn> turns) {
    List<InvalidRequestException.Violation> bad = new ArrayList<>();
    for (int i = 0; i < turns.size(); i++) {
      bad.addAll(IngestPipeline.validate(turns.get(i) == null ? null : turns.get(i).turn(), "turns[" + i + "]."));
    }
    if (!bad.isEmpty()) throw new InvalidRequestException(bad);
    List<StoredTurn> stored = turnLog.append(turns);
    ingest.added(stored.stream().filter(t -> t.state() == StoredTurn.State.PENDING).count());
    return stored.size();
  }

  @Override
  public int restore(List<MemoryRecord> records) {
    List<InvalidRequestException.Violation> bad = new ArrayList<>();
    for (int i = 0; i < records.size(); i++) {
      MemoryRecord r = records.get(i);
      String p = "records[" + i + "].";
      if (r == null) {
        bad.add(new InvalidRequestException.Violation(p + "record", null, p + "record must not be null"));
      } else if (r.owner().isBlank() || r.text().isBlank()) {
        bad.add(new InvalidRequestException.Violation(p + "owner", r.owner(), p + "owner and text must not be blank"));
      } else if (r.validTo() != null && !r.validTo().isAfter(r.validFrom())) {
        bad.add(new InvalidRequestException.Violation(p + "valid_to", r.validTo(), p + "valid_to must be after valid_from"));
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
        List<float[]> vectors = embedder.embedPassages(stale.stream().map(i -> out.get(i).text()).toList());
        for (int j = 0; j < stale.size(); j++) {
          MemoryRecord r = out.get(stale.get(j));
          out.set(stale.get(j), Records.withEmbedding(r, vectors.get(j), embedder.modelId()));
        }
      }
    }
    synchronized (writeLock) {
      store.apply(out, List.of());
    }
    return out.size();
  }

  /** Records written or changed per atomic batch of {@link #retain}. */
  static final int RETAIN_BATCH = 256;

  @Override
  public RetentionReport retain(String owner, Map<Category, RetentionPolicy> policies, Duration turnMaxAge,
      Instant now) {
    requireOwner(owner);
    Objects.requireNonNull(policies, "policies");
    Instant at = (now == null ? clock.instant() : now).truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
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
      turnLog.export(owner, t -> {
        if (t.state() != StoredTurn.State.PENDING && t.turn().at() != null && t.turn().at().isBefore(cutoff)
            && !named.contains(t.turn().id())) {
          old.add(t.turn().id());
        }
      });
      for (int i = 0; i < old.size(); i += RETAIN_BATCH) {
        turnsDeleted += turnLog.delete(owner, old.subList(i, Math.min(old.size(), i + RETAIN_BATCH)));
      }
    }
    return new RetentionReport(examined, expired, turnsDeleted);
  }

  private int applyBatch(List<MemoryRecord> batch) {
    if (batch.isEmpty()) return 0;
    int n = batch.size();
    synchronized (writeLock) {
      store.apply(List.copyOf(batch), List.of());
    }
    batch.clear();
    return n;
  }

  /** Records of an episode an extractive summary takes, most important first. */
  static final int SUMMARY_SENTENCES = 5;

  /**
   * The offline, extractive summary: the episode's {@value #SUMMARY_SENTENCES} most important
   * current records (ties: earlier first), in episode order, joined after {@code "Summary of
   * EPISODE: "}; semantic; sources = every source of every current record of the episode; valid
   * from the earliest of them; importance their maximum; fact key {@code summary/EPISODE}, so a
   * second summary of the same episode is a new version of the first.
   */
  @Override
  public Optional<MemoryRecord> summarize(String owner, String episode) {
    requireOwner(owner);
    if (episode == null || episode.isBlank()) {
      throw new InvalidRequestException("episode", episode, "episode must not be blank, was " + episode);
    }
    List<MemoryRecord> records = new ArrayList<>();
    store.export(owner, r -> {
      if (episode.equals(r.episode()) && r.expiredAt() == null && !"summary".equals(r.metadata().get("kind"))) {
        records.add(r);
      }
    });
    if (records.isEmpty()) return Optional.empty();
    records.sort(Comparator.comparingInt(MemoryRecord::seq).thenComparing(MemoryRecord::recordedAt));
    List<MemoryRecord> top = new ArrayList<>(records);
    top.sort(Comparator.comparingDouble(MemoryRecord::importance).reversed().thenComparingInt(records::indexOf));
    Set<MemoryRecord> chosen = new HashSet<>(top.subList(0, Math.min(SUMMARY_SENTENCES, top.size())));
    StringBuilder text = new StringBuilder("Summary of " + episode + ":");
    List<String> sources = new ArrayList<>();
    for (MemoryRecord r : records) {
      for (String src : r.sources()) if (!sources.contains(src)) sources.add(src);
      if (chosen.contains(r)) text.append(' ').append(r.text().strip());
    }
    String summary = text.length() > maxTextChars ? text.substring(0, maxTextChars) : text.toString();
    Instant from = records.stream().map(MemoryRecord::validFrom).min(Comparator.naturalOrder()).orElseThrow();
    double importance = records.stream().mapToDouble(MemoryRecord::importance).max().orElse(0.5);
    NewMemory m = new NewMemory(owner, summary, null, Category.SEMANTIC, null, sources, episode, null, null, from, null,
        "summary/" + episode, importance, null, null, List.of(),
        Map.of("kind", "summary", "episode", episode, "summarized", Integer.toString(records.size())));
    return Optional.of(remember(m));
  }

  @Override
  public MemoryRecord recategorize(String owner, String id, Category category) {
    requireOwner(owner);
    Objects.requireNonNull(category, "category");
    synchronized (writeLock) {
      MemoryRecord r = store.get(owner, id).orElseThrow(() -> new InvalidRequestException("id", id,
          "no record '" + id + "' of owner '" + owner + "'"));
      if (r.expiredAt() != null) {
        throw new InvalidRequestException("id", id, "record '" + id + "' is not current (expired at " + r.expiredAt() + ")");
      }
      if (r.category() == category) return r;
      String key = r.factKey() != null ? r.factKey() : "auto/" + r.id();
      WritePath.Session session = writes.session();
      if (r.factKey() == null) session.put(Records.with(r, r.sources(), key, r.importance()));
      Map<String, String> meta = new java.util.HashMap<>(r.metadata());
      meta.put("transformation", "category " + r.category().code() + " -> " + category.code() + " (from " + r.id() + ")");
      NewMemory m = new NewMemory(owner, r.text(), r.scope(), category, r.context(), r.sources(), r.episode(),
          r.seq() < 0 ? null : r.seq(), null, r.validFrom(), r.validTo(), key, r.importance(), r.authority(),
          ConflictPolicy.SUPERSEDE, r.entities(), meta);
      MemoryRecord created = session.add(m, r.embedding(), "");
      if (created == null) throw new InvalidRequestException(session.violations());
      session.commit();
      return created;
    }
  }

  @Override
  public RecallResult recall(RecallRequest request) {
    Objects.requireNonNull(request, "request");
    return reads.recall(request);
  }

  @Override
  public List<MemoryRecord> history(String owner, String factKey) {
    requireOwner(owner);
    if (factKey == null || factKey.isBlank()) {
      throw new InvalidRequestException("fact_key", factKey, "fact_key must not be blank, was " + factKey);
    }
    List<MemoryRecord> out = new ArrayList<>(store.versions(owner, factKey));
    out.sort(Comparator.comparing(MemoryRecord::recordedAt).thenComparing(MemoryRecord::validFrom)
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
    requireOwner(owner);
    synchronized (writeLock) {
      int n = store.deleteOwner(owner);
      turnLog.deleteOwner(owner);
      return n;
    }
  }

  @Override
  public int forget(String owner, String id) {
    requireOwner(owner);
    synchronized (writeLock) {
      List<String> ids = store.lineage(owner, id).stream().map(MemoryRecord::id).toList();
      if (!ids.isEmpty()) store.apply(List.of(), ids);
      return ids.size();
    }
  }

  @Override
  public int markUsed(String owner, Collection<String> ids) {
    requireOwner(owner);
    Instant now = clock.instant();
    synchronized (writeLock) {
      List<MemoryRecord> updated = new ArrayList<>();
      for (String id : new LinkedHashSet<>(ids)) {
        store.get(owner, id).ifPresent(r -> updated.add(r.withUsage(r.accessCount() + 1, now)));
      }
      if (!updated.isEmpty()) store.apply(updated, List.of());
      return updated.size();
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
    if (owner == null || owner.isBlank()) {
      throw new InvalidRequestException("owner", owner, "owner must not be blank, was " + owner);
    }
  }
}
