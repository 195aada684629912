package dev.mnemo.eval;

import dev.mnemo.Focus;
import dev.mnemo.Fusion;
import dev.mnemo.Packing;
import dev.mnemo.RecallRequest;
import dev.mnemo.TimeFilter;
import dev.mnemo.Weights;
import dev.mnemo.llm.QueryRewriter;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.UnaryOperator;

/**
 * The variants of the read path an ablation run compares, each a change to a request that otherwise
 * has the engine's defaults (and the query's own k and budget, the same for every variant).
 *
 * <p>The first seven build the read path up signal by signal: {@code dense}, {@code bm25}, {@code
 * dense+bm25}, {@code +entity}, {@code +window}, {@code +ranking} (recency, importance, frequency,
 * authority and speaker on), then {@code full}, which adds the query's time words as a boost and is
 * exactly the engine's defaults. The rest change one thing of {@code full}: the fusion, how time
 * words act, the packing, the thresholds. "Time words off" means {@link TimeFilter#OFF}: no range
 * is parsed, so no time candidates and no time match. Every variant keeps the default thresholds
 * except the two threshold variants, so a signal's ablation also shows how its scale meets the
 * threshold.
 */
public enum Ablation {
  DENSE(
      "dense",
      "dense only (bm25, entity and window 0, no ranking signals, time words off)",
      b ->
          b.weights(Weights.DEFAULT.withBm25(0).withEntity(0).withWindow(0).relevanceOnly())
              .timeFilter(TimeFilter.OFF),
      true),
  BM25(
      "bm25",
      "BM25 only, over each record's text and context (dense, entity and window 0, no ranking signals, time words off)",
      b ->
          b.weights(Weights.DEFAULT.withDense(0).withEntity(0).withWindow(0).relevanceOnly())
              .timeFilter(TimeFilter.OFF),
      true),
  DENSE_BM25(
      "dense+bm25",
      "dense and BM25, weighted (entity and window 0, no ranking signals, time words off)",
      b ->
          b.weights(Weights.DEFAULT.withEntity(0).withWindow(0).relevanceOnly())
              .timeFilter(TimeFilter.OFF),
      true),
  ENTITY(
      "+entity",
      "dense, BM25 and entity (window 0, no ranking signals, time words off)",
      b -> b.weights(Weights.DEFAULT.withWindow(0).relevanceOnly()).timeFilter(TimeFilter.OFF),
      true),
  WINDOW(
      "+window",
      "+ windowed dense: the default relevance (no ranking signals, time words off)",
      b -> b.weights(Weights.DEFAULT.relevanceOnly()).timeFilter(TimeFilter.OFF),
      true),
  RANKING(
      "+ranking",
      "+ recency, importance, frequency, authority, speaker: the default weights (time words off)",
      b -> b.timeFilter(TimeFilter.OFF),
      true),
  FULL("full", "+ time words as a boost: the engine's defaults", b -> b, true),
  NO_WINDOW(
      "full-no-window",
      "full without the windowed dense signal (weights.window 0)",
      b -> b.weights(Weights.DEFAULT.withWindow(0)),
      true),
  NO_SPEAKER(
      "full-no-speaker",
      "full without the boost for records said by the person the query names",
      b -> b.weights(Weights.DEFAULT.withSpeaker(0)),
      true),
  NO_CONTEXT(
      "full-no-context",
      "full with BM25 over each record's own text only (weights.context 0)",
      b -> b.weights(Weights.DEFAULT.withContext(0)),
      true),
  NOISY(
      "noisy",
      "full, with the question wrapped in everyday chatter, as an agent's latest message brings it",
      b -> b.query(Chatter.wrap(b.query(), b.query())),
      true),
  NOISY_FOCUS_RULE(
      "noisy+focus-rule",
      "noisy, with the focus built from the message by rule (Focus.fromMessage: "
          + "its asking sentences and names)",
      b -> {
        String m = Chatter.wrap(b.query(), b.query());
        return b.query(m).focus(Focus.fromMessage(m));
      },
      true),
  NOISY_FOCUS(
      "noisy+focus",
      "noisy, with the question given as the focus's open question (a structured focus)",
      b -> {
        String q = b.query();
        return b.query(Chatter.wrap(q, q)).focus(new Focus(q, null, null, List.of()));
      },
      true),
  /**
   * The language model's query rewriter ({@link QueryRewriter}) reads the noisy message and writes
   * the query and its names, which become the focus. Runs only with a rewriter ({@link
   * #apply(RecallRequest.Builder, QueryRewriter)}), that is with a language model configured.
   */
  NOISY_REWRITER(
      "noisy+rewriter",
      "noisy, with the focus written by the language model's query rewriter from "
          + "the message (runs only with a model configured)",
      b -> {
        throw new IllegalStateException("noisy+rewriter needs a query rewriter (a language model)");
      },
      true),
  RRF(
      "full-rrf",
      "full with reciprocal rank fusion instead of the weighted sum",
      b -> b.fusion(Fusion.rrf()),
      true),
  TIME_FILTER(
      "full-time-filter",
      "full with time words as a hard filter instead of a boost",
      b -> b.timeFilter(TimeFilter.FILTER),
      true),
  COVERAGE(
      "full-coverage",
      "full with coverage (MMR) packing instead of greedy",
      b -> b.packing(Packing.COVERAGE),
      true),
  NO_RELATIVE(
      "full-no-relative",
      "full without the relative threshold (absolute " + RecallRequest.DEFAULT_THRESHOLD + " kept)",
      b -> b.relativeThreshold(0),
      false),
  NO_THRESHOLD(
      "full-no-threshold",
      "full without any threshold (absolute and relative 0, no fetch gate)",
      b -> b.threshold(0).relativeThreshold(0).minRelevance(0.0),
      false),
  NO_GATE(
      "full-no-gate",
      "full without the fetch gate (min_relevance 0: the engine before the gate)",
      b -> b.minRelevance(0.0),
      false),
  GATE_ONLY(
      "gate-only",
      "the fetch gate alone: absolute and relative thresholds 0",
      b -> b.threshold(0).relativeThreshold(0),
      false),
  GATE_LOOSE(
      "gate-loose",
      "the fetch gate at min_relevance 0.2 (recall first)",
      b -> b.minRelevance(0.2),
      false),
  GATE_STRICT(
      "gate-strict",
      "the fetch gate at min_relevance 0.65 (abstention first)",
      b -> b.minRelevance(0.65),
      false);

  private final String code;
  private final String description;
  private final UnaryOperator<RecallRequest.Builder> change;
  private final boolean ranks;

  Ablation(
      String code, String description, UnaryOperator<RecallRequest.Builder> change, boolean ranks) {
    this.code = code;
    this.description = description;
    this.change = change;
    this.ranks = ranks;
  }

  public String code() {
    return code;
  }

  public String description() {
    return description;
  }

  /** Applies this variant's change to a request builder, returning it. */
  public RecallRequest.Builder apply(RecallRequest.Builder b) {
    return change.apply(b);
  }

  /**
   * Applies this variant's change; {@link #NOISY_REWRITER} asks {@code rewriter} for the query and
   * names of the noisy message.
   *
   * @throws IllegalStateException for a variant that needs a rewriter when {@code rewriter} is null
   */
  public RecallRequest.Builder apply(RecallRequest.Builder b, QueryRewriter rewriter) {
    if (!needsModel() || rewriter == null)
      return change.apply(b); // without a rewriter noisy+rewriter throws
    String message = Chatter.wrap(b.query(), b.query());
    QueryRewriter.Rewrite r = rewriter.rewrite(message, null);
    return b.query(message).focus(new Focus(r.query(), null, null, r.entities()));
  }

  /** Whether the variant calls a language model (runs only when one is configured). */
  public boolean needsModel() {
    return this == NOISY_REWRITER;
  }

  /** Every variant that runs without a language model, or every variant when one is configured. */
  public static List<Ablation> available(boolean model) {
    return Arrays.stream(values()).filter(a -> model || !a.needsModel()).toList();
  }

  /**
   * Whether the variant changes the ranking. The threshold variants do not: where the ranking is
   * measured with the thresholds already off (LoCoMo's recall@k) they equal {@code full}.
   */
  public boolean changesRanking() {
    return ranks;
  }

  public static Ablation fromCode(String code) {
    for (Ablation a : values())
      if (a.code.equals(code == null ? "" : code.trim().toLowerCase(Locale.ROOT))) return a;
    throw new IllegalArgumentException(
        "ablation must be one of "
            + Arrays.stream(values()).map(Ablation::code).toList()
            + ", was '"
            + code
            + "'");
  }
}
