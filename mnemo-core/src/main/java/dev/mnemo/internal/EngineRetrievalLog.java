package dev.mnemo.internal;

import dev.mnemo.LoggedRecall;
import dev.mnemo.RecallLogOptions;
import dev.mnemo.RecallLogQuery;
import dev.mnemo.RecallRequest;
import dev.mnemo.RecallResult;
import dev.mnemo.RecallStats;
import dev.mnemo.Replay;
import dev.mnemo.RetrievalLog;
import dev.mnemo.spi.Embedder;
import dev.mnemo.spi.MemoryStore;
import dev.mnemo.spi.RecallLog;
import dev.mnemo.spi.Tokenizer;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * The engine's {@link RetrievalLog} facet and everything else the engine does with the log: which
 * recalls are logged (sampled, through the {@link RecallLogger}'s queue), logged recalls read back
 * with their contributions, statistics, replays, and the log's share of a forget or a usage mark.
 * Apart from {@link Engine} because the log is optional (none when the store keeps none and the
 * builder gave none; idle, still searchable and forgettable, when logging is off) and that state
 * decides every one of these calls; here it is decided in one place.
 */
final class EngineRetrievalLog implements RetrievalLog {
  /** This build's version (from the filtered {@code version.properties}), or {@code unknown}. */
  static final String VERSION = readVersion();

  private final MemoryStore store;
  private final ReadPath reads;

  /** Null when recalls are not logged. */
  private final RecallLogger logger;

  /** The log when logging is off but one exists (still searchable and forgettable), else null. */
  private final RecallLog idle;

  /** Whether the builder gave the log (then this engine closes it), rather than the store. */
  private final boolean owned;

  /** The identities of the parts that answer a recall, as the log records them. */
  private final Map<String, String> identities;

  /**
   * @param recallLog the retrieval log; null = the store's own, if it keeps one (else none)
   * @param options how recalls are logged ({@link RecallLogOptions#OFF}: not at all)
   */
  EngineRetrievalLog(
      RecallLog recallLog,
      RecallLogOptions options,
      MemoryStore store,
      InstantSource clock,
      ReadPath reads,
      Embedder embedder,
      Tokenizer tokenizer) {
    this.store = store;
    this.reads = reads;
    this.identities = identities(embedder, tokenizer);
    RecallLog rl = recallLog != null ? recallLog : store.recallLog().orElse(null);
    this.owned = recallLog != null;
    this.logger =
        rl == null || !options.enabled()
            ? null
            : new RecallLogger(rl, store, options, clock, identities);
    this.idle = logger == null ? rl : null;
  }

  private static Map<String, String> identities(Embedder embedder, Tokenizer tokenizer) {
    Map<String, String> m = new LinkedHashMap<>();
    if (embedder != null) m.put("embedder", embedder.modelId());
    m.put("tokenizer", tokenizer.name());
    m.put("relevance_model", dev.mnemo.RelevanceModel.defaultModel().id());
    m.put("mnemo_version", VERSION);
    return Collections.unmodifiableMap(m);
  }

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

  /** The eligibility a logged recall ran with (its resolved instants and time range). */
  static dev.mnemo.spi.Eligibility eligibilityOf(RecallRequest req, dev.mnemo.RecallTrace t) {
    return ReadPath.eligibility(req, t.validTime(), t.knownTime(), t.timeRange());
  }

  /** Whether this engine keeps a retrieval log (its store offers one, or its builder gave one). */
  boolean kept() {
    return logger != null || idle != null;
  }

  /** A recall, logged when logging is on, the request asks for it and it is sampled. */
  RecallResult recall(RecallRequest request) {
    RecallLogger l = logger;
    if (l == null || !request.log() || !l.sampled()) return reads.recall(request);
    String state = store.state();
    RecallResult r = reads.recall(request, null, true);
    l.offer(request, r, state);
    return request.explain() ? r : r.withoutTrace();
  }

  private RecallLog log() {
    RecallLog log = logger != null ? logger.log() : idle;
    if (log == null)
      throw new UnsupportedOperationException(
          "this engine keeps no retrieval log (its store offers none)");
    return log;
  }

  @Override
  public List<LoggedRecall> recalls(RecallLogQuery query) {
    return log().search(Objects.requireNonNull(query, "query")).stream()
        .map(reads::withContributions)
        .toList();
  }

  @Override
  public long countRecalls(RecallLogQuery query) {
    return log().count(Objects.requireNonNull(query, "query"));
  }

  @Override
  public Optional<LoggedRecall> loggedRecall(String id) {
    return id == null || id.isBlank()
        ? Optional.empty()
        : log().get(id).map(reads::withContributions);
  }

  @Override
  public RecallStats recallStats(RecallLogQuery query) {
    RecallStats s = log().stats(Objects.requireNonNull(query, "query"));
    // not written either way: a full queue, or a batch the log refused (each logged as a warning)
    long dropped = logger == null ? 0 : logger.dropped() + logger.failed();
    return new RecallStats(
        s.recalls(), s.fetched(), s.selected(), s.used(), s.injectedTokens(), dropped);
  }

  /**
   * Runs a logged recall again: its request as logged (its "now", hence the store as known then,
   * and every setting), changed by {@code change} when given (to see what other weights or
   * thresholds would have selected), against this engine; the replay itself is not logged.
   */
  @Override
  public Optional<Replay> replay(String id, UnaryOperator<RecallRequest.Builder> change) {
    Optional<LoggedRecall> found = loggedRecall(id);
    if (found.isEmpty()) return Optional.empty();
    LoggedRecall then = found.get();
    RecallRequest.Builder b = then.request().toBuilder().explain(true).log(false);
    if (change != null) b = change.apply(b);
    long t0 = System.nanoTime();
    RecallResult now = reads.recall(b.build(), null, true);
    long nanos = System.nanoTime() - t0;
    return Optional.of(Replays.diff(then, now, identities, nanos));
  }

  /** Marks the records' uses on the entries that selected them, when recalls are logged. */
  void used(String owner, List<String> ids) {
    if (logger != null && !ids.isEmpty()) logger.used(owner, ids);
  }

  /**
   * Removes an owner (ids null) or some of its records from the log, after the writer has stored
   * what was queued before, so an entry still in the queue cannot bring them back.
   */
  void forget(String owner, List<String> ids) {
    if (!kept()) return;
    if (logger != null) logger.flush(Duration.ofSeconds(30));
    if (ids == null) log().deleteOwner(owner);
    else if (!ids.isEmpty()) log().forget(owner, ids);
  }

  /** Waits for the writer to store what is queued; true when nothing is logged. */
  boolean flush(Duration timeout) {
    return logger == null || logger.flush(timeout);
  }

  long writerCpuNanos() {
    return logger == null ? 0 : logger.writerCpuNanos();
  }

  long sizeBytes() {
    return kept() ? log().sizeBytes() : 0;
  }

  /** Stops the writer (storing what is queued) and closes the log if the builder gave it. */
  void close() {
    if (logger != null) logger.close();
    if (owned) (logger != null ? logger.log() : idle).close();
  }
}
