package dev.mnemo;

import dev.mnemo.spi.Consolidator;
import dev.mnemo.spi.Embedder;
import dev.mnemo.spi.EngineFactory;
import dev.mnemo.spi.EngineSettings;
import dev.mnemo.spi.Extractor;
import dev.mnemo.spi.MemoryStore;
import dev.mnemo.spi.Providers;
import dev.mnemo.spi.Tokenizer;
import dev.mnemo.spi.TurnLog;
import dev.mnemo.text.JTokkitTokenizer;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * A long-term memory for agents: write what is worth remembering, recall the right few records,
 * from the right owner, true at the right time, inside a token budget, with a trace of why.
 *
 * <p>Build one with {@link #builder()}. Thread-safe: reads run concurrently; writes are serialized
 * so that supersession sees a consistent store. Every write returns only after it is durable.
 * Invalid input raises {@link InvalidRequestException} and writes nothing.
 *
 * <p>What depends on where the data lives is a facet, present or empty rather than a method that
 * throws: {@link #maintenance()} (the turn log read whole, restore, retention), {@link
 * #retrievalLog()} (logged recalls and replay) and {@link #diagnostics()} (the engine's parts, for
 * evaluation and tests).
 */
public interface Mnemo extends AutoCloseable {

  /** Writes one memory; returns the stored record. Durable on return. */
  MemoryRecord remember(NewMemory memory);

  /**
   * Writes a batch atomically: all items are validated first (every invalid field of every item is
   * reported at once, and then nothing is written), embedded in one batch, and committed together.
   * Items with the same owner and fact key apply in order.
   */
  List<MemoryRecord> rememberAll(List<NewMemory> memories);

  /**
   * Checks one memory as {@link #remember} would, without writing it: every invalid field, each
   * named with {@code fieldPrefix} (e.g. {@code "line 3: "}). Empty when valid. Checks that need
   * the store (the order of a fact key's recorded times) happen at write time only.
   */
  List<InvalidRequestException.Violation> validate(NewMemory memory, String fieldPrefix);

  /**
   * Hands conversation turns to the write path. Returns once the turns are durable; the configured
   * extractor then decides which become memories (tool calls, tool results and failed attempts
   * never do). Every invalid field of every turn is reported at once, and then nothing is stored.
   */
  IngestReceipt ingest(List<Turn> turns);

  /**
   * The turns a record came from (those of its sources the turn log holds), in log order, so that a
   * decision that depends on a detail can read the originals. Empty for an unknown record.
   */
  List<Turn> sources(String owner, String recordId);

  /**
   * Accepts a kept failed or partial attempt (or an extraction error artifact): it becomes
   * extractable like a complete turn. A turn already extracted is reported as a duplicate; a turn
   * the turn log does not hold is an {@link InvalidRequestException}.
   */
  IngestReceipt accept(String owner, String id);

  /** Where background extraction stands. */
  IngestProgress ingestProgress();

  /**
   * Waits until every ingested turn has been extracted; false when {@code timeout} passed first.
   */
  boolean awaitIngested(Duration timeout);

  /**
   * Summarizes an episode (a session) into one semantic record that inherits every source of the
   * episode's current records; extractive and offline (see {@code docs/write-path.md}). Returns the
   * summary, or empty when the episode has no records.
   */
  Optional<MemoryRecord> summarize(String owner, String episode);

  /**
   * Moves a record to another category as a recorded transformation: a new version with the new
   * category supersedes it under its fact key (one {@code auto/<id>} when it had none), so {@link
   * #history} shows both. Returns the new version.
   */
  MemoryRecord recategorize(String owner, String id, Category category);

  /**
   * Reading the turn log whole, restoring an export and retention: present on an engine that holds
   * its data itself ({@link #builder()}), empty on a remote client.
   */
  default Optional<Maintenance> maintenance() {
    return Optional.empty();
  }

  /** The retrieval log; empty when this Mnemo keeps none. */
  default Optional<RetrievalLog> retrievalLog() {
    return Optional.empty();
  }

  /**
   * The embedded engine's parts, for evaluation and tests; empty unless built by {@link
   * #builder()}.
   */
  default Optional<Diagnostics> diagnostics() {
    return Optional.empty();
  }

  /** The records that belong in the prompt for this request, packed into its budget. */
  RecallResult recall(RecallRequest request);

  /**
   * Every version ever recorded of the owner's fact, oldest first (by recorded time, then valid
   * time).
   */
  List<MemoryRecord> history(String owner, String factKey);

  /** One record of the owner by id. Another owner's id is simply not found. */
  Optional<MemoryRecord> get(String owner, String id);

  /** Deletes every record of the owner, all versions and vectors; returns how many. */
  int forget(String owner);

  /** Deletes one record of the owner with every clipped copy of it; returns how many. */
  int forget(String owner, String id);

  /**
   * Reports that an answer used these records: feeds frequency and last-accessed. Unknown ids are
   * ignored.
   */
  int markUsed(String owner, Collection<String> ids);

  /** Streams every record of the owner (all owners when null), all versions. */
  void export(String owner, Consumer<MemoryRecord> sink);

  /** Closes the store and the embedder. */
  @Override
  void close();

  static Builder builder() {
    return new Builder();
  }

  /**
   * Configures a {@link Mnemo}. Defaults: the {@code lucene} store in {@code directory} (or a store
   * given explicitly), the {@code e5-small-v2-q} embedder when its module is on the class path
   * (none otherwise: BM25 and entities only), the {@code cl100k_base} tokenizer, the system clock,
   * UTC for calendar words, texts up to 8,000 characters.
   */
  final class Builder {
    /**
     * The engine, found once with {@link java.util.ServiceLoader}: mnemo-core registers it, so that
     * this package does not import the engine's.
     */
    private static final class EngineHolder {
      static final EngineFactory FACTORY =
          java.util.ServiceLoader.load(EngineFactory.class, Mnemo.class.getClassLoader())
              .findFirst()
              .orElseThrow(
                  () ->
                      new IllegalStateException(
                          "mnemo-core's engine is not on the class path: META-INF/services/"
                              + EngineFactory.class.getName()
                              + " is missing (a shaded jar must merge service files)"));
    }

    private static EngineFactory engineFactory() {
      return EngineHolder.FACTORY;
    }

    private MemoryStore store;
    private Path directory;
    private Embedder embedder;
    private boolean noEmbedder;
    private Tokenizer tokenizer;
    private InstantSource clock = InstantSource.system();
    private ZoneId zone = ZoneOffset.UTC;
    private int maxTextChars = 8_000;
    private Extractor extractor;
    private Consolidator consolidator;
    private TurnLog turnLog;
    private boolean synchronousIngest;
    private int ingestQueue = 10_000;
    private Duration ingestQueueWait = Duration.ofSeconds(30);
    private java.util.function.Function<String, List<String>> entityFinder;
    private dev.mnemo.spi.RecallLog recallLog;
    private RecallLogOptions recallLogOptions = RecallLogOptions.DEFAULT;
    private Freshness freshness = Freshness.DEFAULT;
    private boolean parallelSignals;

    private Builder() {}

    /**
     * Whether a recall embeds its query on a thread of its own while the store searches the signals
     * that need no vector (BM25, entities, time), instead of embedding first. Default false: on the
     * 2-core machines measured, the full read path was 0.61× as fast at 10,000 records per owner
     * and even at 50,000 under load, and even (×0.99-1.00, p99 higher) on a quiet machine, where
     * the local embedding slowed by what the store's work beside it saved (BENCHMARKS.md, "A fresh
     * machine, parallel signals when it is quiet"). The answers are the same either way.
     */
    public Builder parallelSignals(boolean v) {
      this.parallelSignals = v;
      return this;
    }

    /**
     * This store's half-lives and maximum ages per fact kind (default {@link Freshness#DEFAULT}); a
     * request's {@link RecallRequest#freshness()} overrides them key by key.
     */
    public Builder freshness(Freshness v) {
      this.freshness = Objects.requireNonNull(v, "freshness");
      return this;
    }

    /**
     * The durable turn log {@link Mnemo#ingest} writes to (closed with the engine). Default: the
     * store's own ({@link MemoryStore#turnLog()}); without one, a log in memory, and extraction
     * then runs synchronously so that nothing acknowledged waits in memory only.
     */
    public Builder turnLog(TurnLog v) {
      this.turnLog = v;
      return this;
    }

    /**
     * How the names of a written record's text are found (normalized keys, as {@link
     * dev.mnemo.text.Entities#normalize} makes them); null = the capitalization heuristic {@link
     * dev.mnemo.text.Entities#extract}. {@code dev.mnemo.nlp.OpenNlpEntities} (module {@code
     * mnemo-nlp}) confirms the heuristic's names with a part-of-speech model.
     */
    public Builder entities(java.util.function.Function<String, List<String>> v) {
      this.entityFinder = v;
      return this;
    }

    /**
     * Whether {@link Mnemo#ingest} extracts and consolidates before it returns (tests, batch
     * imports) instead of in the background (the default).
     */
    public Builder synchronousIngest(boolean v) {
      this.synchronousIngest = v;
      return this;
    }

    /**
     * Back-pressure: at most {@code capacity} turns wait for background extraction (default
     * 10,000); {@code ingest} waits up to {@code wait} (default 30 s) for room, then fails with a
     * retriable error, having stored nothing.
     */
    public Builder ingestQueue(int capacity, Duration wait) {
      if (capacity < 1)
        throw new InvalidRequestException(
            "ingest_queue", capacity, "ingest_queue must be >= 1, was " + capacity);
      this.ingestQueue = capacity;
      this.ingestQueueWait = Objects.requireNonNull(wait, "wait");
      return this;
    }

    /**
     * The retrieval log to keep (null: the store's own, if it keeps one); {@link Mnemo#close()}
     * closes it.
     */
    public Builder recallLog(dev.mnemo.spi.RecallLog v) {
      this.recallLog = v;
      return this;
    }

    /**
     * How recalls are logged: sampling, retention, queue; {@link RecallLogOptions#OFF} logs none.
     */
    public Builder recallLogOptions(RecallLogOptions v) {
      this.recallLogOptions = Objects.requireNonNull(v, "options");
      return this;
    }

    /** Use this store (the caller keeps no other handle to it; {@link Mnemo#close()} closes it). */
    public Builder store(MemoryStore v) {
      this.store = v;
      return this;
    }

    /** Open the embedded Lucene store in this directory. */
    public Builder directory(Path v) {
      this.directory = v;
      return this;
    }

    public Builder embedder(Embedder v) {
      this.embedder = v;
      this.noEmbedder = v == null;
      return this;
    }

    /** No dense signal: BM25 and entities only. */
    public Builder withoutEmbedder() {
      this.embedder = null;
      this.noEmbedder = true;
      return this;
    }

    public Builder tokenizer(Tokenizer v) {
      this.tokenizer = v;
      return this;
    }

    public Builder clock(InstantSource v) {
      this.clock = Objects.requireNonNull(v, "clock");
      return this;
    }

    /** The zone in which calendar words ("yesterday", "in May") are read. */
    public Builder zone(ZoneId v) {
      this.zone = Objects.requireNonNull(v, "zone");
      return this;
    }

    /**
     * What {@link Mnemo#ingest} extracts memories with; null = {@link
     * dev.mnemo.write.OfflineExtractor}.
     */
    public Builder extractor(Extractor v) {
      this.extractor = v;
      return this;
    }

    /**
     * How extracted candidates are consolidated with existing records; null = {@link
     * dev.mnemo.write.RuleConsolidator}.
     */
    public Builder consolidator(Consolidator v) {
      this.consolidator = v;
      return this;
    }

    public Builder maxTextChars(int v) {
      if (v < 1)
        throw new InvalidRequestException(
            "max_text_chars", v, "max_text_chars must be >= 1, was " + v);
      this.maxTextChars = v;
      return this;
    }

    public Mnemo build() {
      MemoryStore s = store;
      if (s == null) {
        if (directory == null) {
          throw new IllegalStateException("set a store or a directory before build()");
        }
        s = Providers.store("lucene", Map.of("dir", directory.toString()));
      }
      Embedder e = embedder;
      if (e == null && !noEmbedder && Providers.hasEmbedder("e5-small-v2-q")) {
        e = Providers.embedder("e5-small-v2-q", Map.of());
      }
      Tokenizer t = tokenizer == null ? JTokkitTokenizer.cl100k() : tokenizer;
      return engineFactory()
          .open(
              new EngineSettings(
                  s,
                  e,
                  t,
                  clock,
                  zone,
                  maxTextChars,
                  extractor,
                  consolidator,
                  turnLog,
                  synchronousIngest,
                  ingestQueue,
                  ingestQueueWait,
                  entityFinder,
                  recallLog,
                  recallLogOptions,
                  freshness,
                  parallelSignals));
    }
  }
}
