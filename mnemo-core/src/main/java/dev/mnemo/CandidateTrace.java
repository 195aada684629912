package dev.mnemo;

import java.time.Instant;
import java.util.List;
import java.util.Set;

/**
 * One candidate of a recall in the trace: which signals found it, each signal's value, its final
 * score, and what happened to it and why.
 *
 * @param id record id
 * @param sources the record's source ids
 * @param text the record's text
 * @param factKey the record's fact key or null
 * @param validFrom start of valid time
 * @param validTo end of valid time or null
 * @param recordedAt when it was recorded
 * @param foundBy the candidate lists it came from: dense, bm25, entity, time
 * @param signals every signal's value
 * @param outcome selected or the reason it was left out
 * @param reason a readable reason, e.g. {@code "relevance 0.041 < threshold 0.060"}
 * @param tokens tokens of its text under the configured tokenizer
 * @param conflictsWith ids of eligible records of the same fact key that disagree with it
 * @param relevance the fetch gate's view of it: the relevance probability, the feature values and
 *     each feature's contribution (null where the gate did not run)
 */
public record CandidateTrace(
    String id,
    List<String> sources,
    String text,
    String factKey,
    Instant validFrom,
    Instant validTo,
    Instant recordedAt,
    Set<String> foundBy,
    Signals signals,
    Outcome outcome,
    String reason,
    int tokens,
    List<String> conflictsWith,
    RelevanceTrace relevance) {

  /** A candidate the fetch gate did not score. */
  public CandidateTrace(
      String id,
      List<String> sources,
      String text,
      String factKey,
      Instant validFrom,
      Instant validTo,
      Instant recordedAt,
      Set<String> foundBy,
      Signals signals,
      Outcome outcome,
      String reason,
      int tokens,
      List<String> conflictsWith) {
    this(
        id,
        sources,
        text,
        factKey,
        validFrom,
        validTo,
        recordedAt,
        foundBy,
        signals,
        outcome,
        reason,
        tokens,
        conflictsWith,
        null);
  }

  /** This candidate with {@code relevance} as the fetch gate's part of its trace. */
  public CandidateTrace withRelevance(RelevanceTrace relevance) {
    return new CandidateTrace(
        id,
        sources,
        text,
        factKey,
        validFrom,
        validTo,
        recordedAt,
        foundBy,
        signals,
        outcome,
        reason,
        tokens,
        conflictsWith,
        relevance);
  }
}
