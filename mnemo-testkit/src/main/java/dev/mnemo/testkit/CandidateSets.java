package dev.mnemo.testkit;

import dev.mnemo.spi.Candidate;
import dev.mnemo.spi.CandidateSet;
import java.util.TreeMap;

/** Candidate sets compared whole in equivalence tests. */
public final class CandidateSets {
  private CandidateSets() {}

  /**
   * Everything a candidate set says but its records' contents, as text: each candidate's id,
   * cosine, BM25 and four ranks (floats exact), then the BM25 maximum, the eligible count and the
   * entity frequencies. Two stores, or two ways of reading one, that answer alike give the same
   * text.
   */
  public static String describe(CandidateSet s) {
    StringBuilder b = new StringBuilder();
    for (Candidate c : s.candidates()) {
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
    return b.append(s.bm25Max())
        .append('|')
        .append(s.eligibleCount())
        .append('|')
        .append(new TreeMap<>(s.entityFrequencies()))
        .toString();
  }
}
