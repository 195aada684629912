package dev.mnemo;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A question to the memory: whose records, which ones are eligible, and how to rank and pack them.
 *
 * <p>Build with {@link #builder(String, String)}; every option has a default:
 *
 * <table>
 *   <caption>Defaults</caption>
 *   <tr><th>option</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>askedAt</td><td>the engine's clock</td><td>the "now" of the question</td></tr>
 *   <tr><td>mode</td><td>current</td><td>see {@link TemporalMode}</td></tr>
 *   <tr><td>scope</td><td>none</td><td>when set, only records of that scope or of no scope</td></tr>
 *   <tr><td>categories</td><td>all</td><td>only records of these categories</td></tr>
 *   <tr><td>metadata</td><td>none</td><td>only records whose metadata has every given key=value (at most {@value InputRules#MAX_METADATA_FILTERS} entries)</td></tr>
 *   <tr><td>k</td><td>5</td><td>at most this many records</td></tr>
 *   <tr><td>budgetTokens</td><td>400</td><td>the rendered block (header, dates, markers included) fits this many tokens</td></tr>
 *   <tr><td>threshold</td><td>{@value #DEFAULT_THRESHOLD}</td><td>minimum relevance (0..1)</td></tr>
 *   <tr><td>relativeThreshold</td><td>{@value #DEFAULT_RELATIVE_THRESHOLD}</td><td>minimum relevance as a share of the best candidate's</td></tr>
 *   <tr><td>fusion</td><td>weighted</td><td>see {@link Fusion}</td></tr>
 *   <tr><td>packing</td><td>greedy</td><td>see {@link Packing}</td></tr>
 *   <tr><td>timeFilter</td><td>boost</td><td>see {@link TimeFilter}</td></tr>
 *   <tr><td>weights</td><td>{@link Weights#DEFAULT}</td><td>every signal's weight</td></tr>
 *   <tr><td>halfLives</td><td>episodic 30 d, task 14 d, semantic and procedural 365 d</td><td>recency decay</td></tr>
 *   <tr><td>freshness</td><td>the store's ({@link Freshness#DEFAULT} unless configured)</td><td>half-life and maximum age per fact kind</td></tr>
 *   <tr><td>mmrLambda</td><td>0.7</td><td>relevance vs. novelty in coverage packing</td></tr>
 *   <tr><td>duplicateSimilarity</td><td>0.95</td><td>cosine at or above which coverage packing omits a record as a duplicate</td></tr>
 *   <tr><td>candidates</td><td>50</td><td>candidates drawn per signal (bounds the cost of a read)</td></tr>
 *   <tr><td>explain</td><td>false</td><td>return the full trace</td></tr>
 *   <tr><td>focus</td><td>none</td><td>what the recall is about, apart from the message: see {@link Focus}</td></tr>
 *   <tr><td>minRelevance</td><td>the relevance model's</td><td>the fetch gate: minimum probability that a record helps answer the message; 0 turns the gate off</td></tr>
 *   <tr><td>exhaustive</td><td>auto</td><td>aggregation questions: the gate's lower threshold, no relative threshold</td></tr>
 *   <tr><td>log</td><td>true</td><td>record this recall in the retrieval log when the engine keeps one (false: this one is not logged)</td></tr>
 *   <tr><td>blockRelevance</td><td>false</td><td>each line of the block ends with its relevance, {@code (relevance 0.82)} (counted in the budget)</td></tr>
 *   <tr><td>usageNote</td><td>none</td><td>a one-line note under the block's header on how to use it, e.g. {@link #USAGE_NOTE} (counted in the budget)</td></tr>
 *   <tr><td>principals</td><td>none</td><td>the caller's teams, roles and person ({@code team:..}, {@code role:..}, {@code person:..}): only records without access labels or with one of these are eligible (see {@link Access})</td></tr>
 * </table>
 */
public record RecallRequest(
    String owner,
    String query,
    Instant askedAt,
    TemporalMode mode,
    String scope,
    Set<Category> categories,
    Map<String, String> metadata,
    int k,
    int budgetTokens,
    double threshold,
    double relativeThreshold,
    Fusion fusion,
    Packing packing,
    TimeFilter timeFilter,
    Weights weights,
    Map<Category, Duration> halfLives,
    double mmrLambda,
    double duplicateSimilarity,
    int candidates,
    boolean explain,
    Focus focus,
    Double minRelevance,
    Boolean exhaustive,
    boolean log,
    Freshness freshness,
    Set<String> principals,
    boolean blockRelevance,
    String usageNote) {

  public static final int DEFAULT_K = 5;
  public static final int DEFAULT_BUDGET = 400;
  public static final double DEFAULT_THRESHOLD = 0.06;
  public static final double DEFAULT_RELATIVE_THRESHOLD = 0.5;
  public static final int MAX_K = 1000;
  public static final int MAX_CANDIDATES = 10_000;
  public static final int MAX_QUERY_CHARS = 8_000;

  /** At most this many characters in a usage note. */
  public static final int MAX_NOTE_CHARS = 300;

  /** A usage note for the block, for callers who want one and have no better. */
  public static final String USAGE_NOTE =
      "Use a line only if it bears on the question; each is dated, and conflicting lines are both shown.";

  /** Default recency half-lives per category. */
  public static final Map<Category, Duration> DEFAULT_HALF_LIVES =
      Map.of(
          Category.EPISODIC, Duration.ofDays(30),
          Category.TASK, Duration.ofDays(14),
          Category.SEMANTIC, Duration.ofDays(365),
          Category.PROCEDURAL, Duration.ofDays(365));

  public RecallRequest {
    List<InvalidRequestException.Violation> v = new ArrayList<>();
    InputRules.checkOwner("owner", owner, v);
    InputRules.checkTime("asked_at", askedAt, v);
    InputRules.checkLength("scope", scope, InputRules.MAX_KEY_CHARS, v);
    if (metadata != null
        && !InputRules.checkCount(
            "metadata", metadata.size(), InputRules.MAX_METADATA_FILTERS, v)) {
      for (var e : metadata.entrySet()) {
        InputRules.checkLength("metadata", e.getKey(), InputRules.MAX_KEY_CHARS, v);
        InputRules.checkLength(
            "metadata." + e.getKey(), e.getValue(), InputRules.MAX_METADATA_VALUE_CHARS, v);
      }
    }
    if (mode instanceof TemporalMode.ValidAt m) InputRules.checkTime("at", m.at(), v);
    if (mode instanceof TemporalMode.KnownAt m) InputRules.checkTime("at", m.at(), v);
    if (query == null) {
      v.add(new InvalidRequestException.Violation("query", null, "query must not be null"));
    } else if (query.length() > MAX_QUERY_CHARS) {
      v.add(
          new InvalidRequestException.Violation(
              "query",
              query.length(),
              "query must be at most " + MAX_QUERY_CHARS + " characters, was " + query.length()));
    }
    if (k < 1 || k > MAX_K) {
      v.add(
          new InvalidRequestException.Violation(
              "k", k, "k must be between 1 and " + MAX_K + ", was " + k));
    }
    if (budgetTokens < 0) {
      v.add(
          new InvalidRequestException.Violation(
              "budget_tokens", budgetTokens, "budget_tokens must be >= 0, was " + budgetTokens));
    }
    if (!(threshold >= 0 && threshold <= 1)) {
      v.add(
          new InvalidRequestException.Violation(
              "threshold", threshold, "threshold must be between 0 and 1, was " + threshold));
    }
    if (!(relativeThreshold >= 0 && relativeThreshold <= 1)) {
      v.add(
          new InvalidRequestException.Violation(
              "relative_threshold",
              relativeThreshold,
              "relative_threshold must be between 0 and 1, was " + relativeThreshold));
    }
    if (!(mmrLambda >= 0 && mmrLambda <= 1)) {
      v.add(
          new InvalidRequestException.Violation(
              "mmr_lambda", mmrLambda, "mmr_lambda must be between 0 and 1, was " + mmrLambda));
    }
    if (!(duplicateSimilarity > 0 && duplicateSimilarity <= 1)) {
      v.add(
          new InvalidRequestException.Violation(
              "duplicate_similarity",
              duplicateSimilarity,
              "duplicate_similarity must be in (0, 1], was " + duplicateSimilarity));
    }
    if (minRelevance != null && !(minRelevance >= 0 && minRelevance <= 1)) {
      v.add(
          new InvalidRequestException.Violation(
              "min_relevance",
              minRelevance,
              "min_relevance must be between 0 and 1, was " + minRelevance));
    }
    if (candidates < 1 || candidates > MAX_CANDIDATES) {
      v.add(
          new InvalidRequestException.Violation(
              "candidates",
              candidates,
              "candidates must be between 1 and " + MAX_CANDIDATES + ", was " + candidates));
    }
    Map<Category, Duration> hl = new EnumMap<>(Category.class);
    hl.putAll(DEFAULT_HALF_LIVES);
    if (halfLives != null) {
      for (var e : halfLives.entrySet()) {
        if (e.getValue() == null || e.getValue().isNegative() || e.getValue().isZero()) {
          v.add(
              new InvalidRequestException.Violation(
                  "half_lives." + e.getKey().code(),
                  e.getValue(),
                  "half_lives."
                      + e.getKey().code()
                      + " must be a positive duration, was "
                      + e.getValue()));
        } else {
          hl.put(e.getKey(), e.getValue());
        }
      }
    }
    Access.check("principals", principals, Access.MAX_PRINCIPALS, v);
    if (usageNote != null
        && (usageNote.isBlank()
            || usageNote.length() > MAX_NOTE_CHARS
            || usageNote.contains("\n")
            || usageNote.contains("\r"))) {
      v.add(
          new InvalidRequestException.Violation(
              "usage_note",
              usageNote,
              "usage_note must be one non-blank line of at most "
                  + MAX_NOTE_CHARS
                  + " characters, was "
                  + (usageNote.length() > 60
                      ? usageNote.length() + " characters"
                      : "'" + usageNote + "'")));
    }
    if (!v.isEmpty()) throw new InvalidRequestException(v);
    principals = principals == null ? Set.of() : Set.copyOf(principals);
    mode = mode == null ? TemporalMode.current() : mode;
    categories = categories == null ? Set.of() : Set.copyOf(categories);
    metadata = metadata == null ? Map.of() : Map.copyOf(metadata);
    fusion = fusion == null ? Fusion.weighted() : fusion;
    packing = packing == null ? Packing.GREEDY : packing;
    timeFilter = timeFilter == null ? TimeFilter.BOOST : timeFilter;
    weights = weights == null ? Weights.DEFAULT : weights;
    halfLives = Map.copyOf(hl);
    scope = scope == null || scope.isBlank() ? null : scope;
    focus = focus == null ? Focus.NONE : focus;
  }

  /**
   * The text retrieval runs with: the focus's question, task and artifact when it states any, else
   * the query (a focus of entities alone only adds entity keys).
   */
  public String retrievalText() {
    return focus.question() == null && focus.task() == null && focus.artifact() == null
        ? query
        : focus.retrievalText();
  }

  public static Builder builder(String owner, String query) {
    return new Builder(owner, query);
  }

  /** A builder holding this request's values. */
  public Builder toBuilder() {
    Builder b = new Builder(owner, query);
    b.askedAt = askedAt;
    b.mode = mode;
    b.scope = scope;
    b.categories = categories;
    b.metadata = metadata;
    b.k = k;
    b.budgetTokens = budgetTokens;
    b.threshold = threshold;
    b.relativeThreshold = relativeThreshold;
    b.fusion = fusion;
    b.packing = packing;
    b.timeFilter = timeFilter;
    b.weights = weights;
    b.halfLives = halfLives;
    b.mmrLambda = mmrLambda;
    b.duplicateSimilarity = duplicateSimilarity;
    b.candidates = candidates;
    b.explain = explain;
    b.focus = focus;
    b.minRelevance = minRelevance;
    b.exhaustive = exhaustive;
    b.log = log;
    b.freshness = freshness;
    b.principals = principals;
    b.blockRelevance = blockRelevance;
    b.usageNote = usageNote;
    return b;
  }

  /** Mutable builder; not thread-safe. Validation happens in {@link #build()}. */
  public static final class Builder {
    private final String owner;
    private String query;
    private Instant askedAt;
    private TemporalMode mode;
    private String scope;
    private Set<Category> categories;
    private Map<String, String> metadata;
    private int k = DEFAULT_K;
    private int budgetTokens = DEFAULT_BUDGET;
    private double threshold = DEFAULT_THRESHOLD;
    private double relativeThreshold = DEFAULT_RELATIVE_THRESHOLD;
    private Fusion fusion;
    private Packing packing;
    private TimeFilter timeFilter;
    private Weights weights;
    private Map<Category, Duration> halfLives;
    private double mmrLambda = 0.7;
    private double duplicateSimilarity = 0.95;
    private int candidates = 50;
    private boolean explain;
    private Focus focus;
    private Double minRelevance;
    private Boolean exhaustive;
    private boolean log = true;
    private Freshness freshness;
    private Set<String> principals;
    private boolean blockRelevance;
    private String usageNote;

    private Builder(String owner, String query) {
      this.owner = owner;
      this.query = query;
    }

    /** Replaces the query (the latest message). */
    public Builder query(String v) {
      this.query = v;
      return this;
    }

    /** The query as set so far. */
    public String query() {
      return query;
    }

    public Builder askedAt(Instant v) {
      this.askedAt = v;
      return this;
    }

    public Builder mode(TemporalMode v) {
      this.mode = v;
      return this;
    }

    public Builder scope(String v) {
      this.scope = v;
      return this;
    }

    public Builder categories(Set<Category> v) {
      this.categories = v;
      return this;
    }

    public Builder metadata(Map<String, String> v) {
      this.metadata = v;
      return this;
    }

    public Builder k(int v) {
      this.k = v;
      return this;
    }

    public Builder budgetTokens(int v) {
      this.budgetTokens = v;
      return this;
    }

    public Builder threshold(double v) {
      this.threshold = v;
      return this;
    }

    /** Minimum relevance as a share of the best candidate's (0 turns it off). */
    public Builder relativeThreshold(double v) {
      this.relativeThreshold = v;
      return this;
    }

    public Builder fusion(Fusion v) {
      this.fusion = v;
      return this;
    }

    public Builder packing(Packing v) {
      this.packing = v;
      return this;
    }

    public Builder timeFilter(TimeFilter v) {
      this.timeFilter = v;
      return this;
    }

    public Builder weights(Weights v) {
      this.weights = v;
      return this;
    }

    public Builder halfLives(Map<Category, Duration> v) {
      this.halfLives = v;
      return this;
    }

    public Builder mmrLambda(double v) {
      this.mmrLambda = v;
      return this;
    }

    public Builder duplicateSimilarity(double v) {
      this.duplicateSimilarity = v;
      return this;
    }

    public Builder candidates(int v) {
      this.candidates = v;
      return this;
    }

    public Builder explain(boolean v) {
      this.explain = v;
      return this;
    }

    /** What the recall is about, apart from the message: see {@link Focus}. */
    public Builder focus(Focus v) {
      this.focus = v;
      return this;
    }

    /**
     * The fetch gate's threshold on the relevance probability (see {@link RelevanceModel}): a
     * candidate below it is not selected, whatever k and the budget allow. Null: the relevance
     * model's default. 0 turns the gate off, the fetch decision included (every message is
     * searched, small talk too).
     */
    public Builder minRelevance(Double v) {
      this.minRelevance = v;
      return this;
    }

    /**
     * Exhaustive mode, for aggregation questions ("how many times...", "list every...") where
     * recall matters more than precision: the gate uses the model's lower exhaustive threshold and
     * the relative threshold is off. Null (default): on when the question asks to count or list.
     */
    public Builder exhaustive(Boolean v) {
      this.exhaustive = v;
      return this;
    }

    /** Whether the engine's retrieval log records this recall (default true; false: not logged). */
    public Builder log(boolean v) {
      this.log = v;
      return this;
    }

    /**
     * Half-lives and maximum ages per fact kind, over the store's ({@link Freshness}); null: the
     * store's.
     */
    public Builder freshness(Freshness v) {
      this.freshness = v;
      return this;
    }

    /**
     * The caller's principals ({@code team:..}, {@code role:..}, {@code person:..}); a record with
     * access labels is eligible only when one of them is here. Null or empty: only records without
     * labels (see {@link Access}).
     */
    public Builder principals(Set<String> v) {
      this.principals = v;
      return this;
    }

    /**
     * Each line of the block ends with its relevance, {@code (relevance 0.82)}; counted in the
     * budget.
     */
    public Builder blockRelevance(boolean v) {
      this.blockRelevance = v;
      return this;
    }

    /**
     * A one-line note under the block's header on how to use it (e.g. {@link #USAGE_NOTE}); null:
     * none.
     */
    public Builder usageNote(String v) {
      this.usageNote = v;
      return this;
    }

    public RecallRequest build() {
      return new RecallRequest(
          owner,
          query,
          askedAt,
          mode,
          scope,
          categories,
          metadata,
          k,
          budgetTokens,
          threshold,
          relativeThreshold,
          fusion,
          packing,
          timeFilter,
          weights,
          halfLives,
          mmrLambda,
          duplicateSimilarity,
          candidates,
          explain,
          focus,
          minRelevance,
          exhaustive,
          log,
          freshness,
          principals,
          blockRelevance,
          usageNote);
    }
  }
}
