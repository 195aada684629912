package dev.mnemo.spi;

import java.util.List;
import java.util.Map;

/**
 * What a store returns for a {@link CandidateQuery}: the candidates and the statistics the read
 * path needs to put their raw signals on an absolute scale.
 *
 * @param candidates eligible candidates, deduplicated by id
 * @param bm25Max the highest BM25 score a record could get for the query text (the sum of the IDF
 *     of every query term, counting terms no record contains at their highest IDF); 0 when the text
 *     has no terms
 * @param eligibleCount how many records pass the eligibility filter (only computed when the query
 *     names entities that match; 0 otherwise)
 * @param entityFrequencies for each query entity key that some eligible record names, how many
 *     eligible records name it
 */
public record CandidateSet(
    List<Candidate> candidates,
    double bm25Max,
    long eligibleCount,
    Map<String, Long> entityFrequencies) {
  public CandidateSet {
    candidates = List.copyOf(candidates);
    entityFrequencies = Map.copyOf(entityFrequencies);
  }

  public static CandidateSet empty() {
    return new CandidateSet(List.of(), 0, 0, Map.of());
  }
}
