package dev.mnemo.spi;

import dev.mnemo.MemoryRecord;
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
 * @param versions null when the store does not return versions with its candidates (the read path
 *     then asks {@link MemoryStore#versions} for the fact keys it selects); otherwise, for each
 *     fact key of a candidate, every <em>eligible</em> record of the owner with that key (the
 *     candidates among them included), read from the same state of the store as the candidates, so
 *     that the read path's conflict stage needs no second query and cannot mix two states of the
 *     store. A key whose only eligible record is the candidate itself may be left out.
 */
public record CandidateSet(
    List<Candidate> candidates,
    double bm25Max,
    long eligibleCount,
    Map<String, Long> entityFrequencies,
    Map<String, List<MemoryRecord>> versions) {
  public CandidateSet {
    candidates = List.copyOf(candidates);
    entityFrequencies = Map.copyOf(entityFrequencies);
    if (versions != null) {
      Map<String, List<MemoryRecord>> copy = new java.util.HashMap<>();
      versions.forEach((k, v) -> copy.put(k, List.copyOf(v)));
      versions = Map.copyOf(copy);
    }
  }

  /** Without versions: the read path asks {@link MemoryStore#versions} for those it needs. */
  public CandidateSet(
      List<Candidate> candidates,
      double bm25Max,
      long eligibleCount,
      Map<String, Long> entityFrequencies) {
    this(candidates, bm25Max, eligibleCount, entityFrequencies, null);
  }

  public static CandidateSet empty() {
    return new CandidateSet(List.of(), 0, 0, Map.of());
  }

  /**
   * Everything this set says but its records' contents and the versions, as text: each candidate's
   * id, cosine, BM25 and four ranks (floats exact), then the BM25 maximum, the eligible count and
   * the entity frequencies. Two stores, or two ways of reading one, that answer alike give the same
   * text (equivalence tests and benchmarks compare reads with it).
   */
  public String describe() {
    StringBuilder b = new StringBuilder();
    for (Candidate c : candidates) {
      b.append(c.record().id())
          .append(' ')
          .append(c.cosine())
          .append(' ')
          .append(c.bm25())
          .append(' ')
          .append(c.denseRank())
          .append(' ')
          .append(c.bm25Rank())
          .append(' ')
          .append(c.entityRank())
          .append(' ')
          .append(c.timeRank())
          .append('\n');
    }
    return b.append(bm25Max)
        .append('|')
        .append(eligibleCount)
        .append('|')
        .append(new java.util.TreeMap<>(entityFrequencies))
        .toString();
  }
}
