package dev.mnemo.spi;

import dev.mnemo.time.TimeRange;
import java.util.Objects;
import java.util.Set;

/**
 * What the read path asks a store for: up to {@code perSignal} eligible records from each signal.
 *
 * @param eligibility the hard filters, applied inside every search
 * @param vector the query vector for the dense kNN search, or null
 * @param text the query text for the BM25 search, or null/blank
 * @param entities normalized entity keys; records naming any of them are entity candidates
 * @param timeRange when set, records whose valid time starts inside it, or whose event time ({@link
 *     dev.mnemo.MemoryRecord#eventTime}) overlaps it, are candidates too
 * @param perSignal how many candidates each signal contributes at most
 * @param contextWeight the weight of a record's context (neighbouring turns) in the BM25 search,
 *     relative to its text's weight of 1: the text search is over the record as read in its
 *     conversation; 0 searches the text alone
 */
public record CandidateQuery(
    Eligibility eligibility,
    float[] vector,
    String text,
    Set<String> entities,
    TimeRange timeRange,
    int perSignal,
    double contextWeight) {
  /**
   * The default weight of the context in BM25 ({@link dev.mnemo.Weights#DEFAULT}'s {@code
   * context}).
   */
  public static final double DEFAULT_CONTEXT_WEIGHT = dev.mnemo.Weights.DEFAULT.context();

  public CandidateQuery {
    Objects.requireNonNull(eligibility, "eligibility");
    entities = entities == null ? Set.of() : Set.copyOf(entities);
    if (perSignal < 1)
      throw new IllegalArgumentException("perSignal must be >= 1, was " + perSignal);
    if (!(contextWeight >= 0) || Double.isInfinite(contextWeight)) {
      throw new IllegalArgumentException(
          "contextWeight must be a finite number >= 0, was " + contextWeight);
    }
  }

  /** With the default context weight. */
  public CandidateQuery(
      Eligibility eligibility,
      float[] vector,
      String text,
      Set<String> entities,
      TimeRange timeRange,
      int perSignal) {
    this(eligibility, vector, text, entities, timeRange, perSignal, DEFAULT_CONTEXT_WEIGHT);
  }

  /** This query with {@code v} as its vector (null: no dense signal). */
  public CandidateQuery withVector(float[] v) {
    return new CandidateQuery(eligibility, v, text, entities, timeRange, perSignal, contextWeight);
  }
}
