package dev.mnemo;

import java.util.List;

/**
 * One selected record of a recall.
 *
 * @param record the record
 * @param score its final score
 * @param match how well its own evidence matches the query: the fusion of dense, BM25 and entity
 *     ({@link Signals#match()}; what the request's {@code threshold} tests)
 * @param relevance the fetch gate's probability that it helps answer the message (what {@code
 *     minRelevance} tests), {@code NaN} when no relevance model applies (the gate turned off by the
 *     request with an embedder the model was not fitted with)
 * @param tokens tokens of its text
 * @param conflictsWith ids of other selected records of the same fact key that disagree with it
 *     (surfaced together, with their dates, rather than silently resolved)
 */
public record Recalled(
    MemoryRecord record,
    double score,
    double match,
    double relevance,
    int tokens,
    List<String> conflictsWith) {
  public Recalled {
    conflictsWith = List.copyOf(conflictsWith);
  }
}
