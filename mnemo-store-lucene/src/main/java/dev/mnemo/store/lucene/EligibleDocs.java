package dev.mnemo.store.lucene;

import dev.mnemo.spi.Eligibility;
import java.io.IOException;
import java.util.List;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.ConstantScoreScorer;
import org.apache.lucene.search.ConstantScoreWeight;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.QueryVisitor;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.ScorerSupplier;
import org.apache.lucene.search.Weight;
import org.apache.lucene.util.BitSetIterator;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.FixedBitSet;

/**
 * The eligible documents of one request, computed once and shared by every search of the request
 * (dense, BM25, entities, time, counts) as a filter that Lucene neither re-evaluates nor caches.
 *
 * <p>The fixed rules ({@link Filters#fixed}: owner, scope, categories, metadata) run as a query,
 * which the query cache keeps across requests; the time rules are checked on {@link TimeColumns}
 * for the documents it admits, and deleted documents are left out, so each segment's bit set holds
 * exactly the live eligible documents (what {@link Filters#of} matches).
 */
final class EligibleDocs {
  private final FixedBitSet[] bySegment; // null: none eligible in that segment
  private final int[] counts;
  private final long total;

  private EligibleDocs(FixedBitSet[] bySegment, int[] counts) {
    this.bySegment = bySegment;
    this.counts = counts;
    long t = 0;
    for (int c : counts) t += c;
    this.total = t;
  }

  static EligibleDocs compute(IndexSearcher s, Eligibility e, TimeColumns.Cache columns)
      throws IOException {
    return compute(s, e, columns, false);
  }

  /**
   * The same, for an index that holds only {@code e}'s owner's records when {@code ownersOwn}: the
   * owner's rule is then true of every document and is not searched ({@link
   * Filters#fixedBeyondOwner}).
   */
  static EligibleDocs compute(
      IndexSearcher s, Eligibility e, TimeColumns.Cache columns, boolean ownersOwn)
      throws IOException {
    List<LeafReaderContext> leaves = s.getIndexReader().leaves();
    FixedBitSet[] sets = new FixedBitSet[leaves.size()];
    int[] counts = new int[leaves.size()];
    boolean timed = e.validAt() != null || e.knownAt() != null || e.validOverlap() != null;
    long validAt = e.validAt() == null ? 0 : e.validAt().toEpochMilli();
    long knownAt = e.knownAt() == null ? 0 : e.knownAt().toEpochMilli();
    long overlapFrom = e.validOverlap() == null ? 0 : e.validOverlap().from().toEpochMilli();
    long overlapTo = e.validOverlap() == null ? 0 : e.validOverlap().to().toEpochMilli();
    Query rules = ownersOwn ? Filters.fixedBeyondOwner(e) : Filters.fixed(e);
    Weight fixed = s.createWeight(s.rewrite(rules), ScoreMode.COMPLETE_NO_SCORES, 1f);
    for (LeafReaderContext leaf : leaves) {
      Scorer scorer = fixed.scorer(leaf);
      if (scorer == null) continue;
      TimeColumns times = timed ? columns.of(leaf.reader()) : null;
      Bits live = leaf.reader().getLiveDocs();
      FixedBitSet bits = new FixedBitSet(leaf.reader().maxDoc());
      int n = 0;
      DocIdSetIterator it = scorer.iterator();
      for (int doc = it.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = it.nextDoc()) {
        if (live != null && !live.get(doc)) continue;
        if (times != null && !times.admits(doc, e, validAt, knownAt, overlapFrom, overlapTo))
          continue;
        bits.set(doc);
        n++;
      }
      if (n > 0) {
        sets[leaf.ord] = bits;
        counts[leaf.ord] = n;
      }
    }
    return new EligibleDocs(sets, counts);
  }

  /** How many documents are eligible. */
  long count() {
    return total;
  }

  /** The eligible documents of segment {@code ord}, or null when it has none. */
  FixedBitSet segment(int ord) {
    return bySegment[ord];
  }

  /** How many documents of segment {@code ord} are eligible. */
  int count(int ord) {
    return counts[ord];
  }

  /** These documents as a filter query, valid only with the searcher they were computed on. */
  Query asQuery() {
    return new Filter(this);
  }

  /** Matches the precomputed documents; never cached (it is one request's). */
  private static final class Filter extends Query {
    private final EligibleDocs docs;

    Filter(EligibleDocs docs) {
      this.docs = docs;
    }

    @Override
    public Weight createWeight(IndexSearcher searcher, ScoreMode scoreMode, float boost) {
      return new ConstantScoreWeight(this, boost) {
        @Override
        public ScorerSupplier scorerSupplier(LeafReaderContext context) {
          FixedBitSet bits = docs.segment(context.ord);
          if (bits == null) return null;
          int cost = docs.count(context.ord);
          float score = score();
          return new ScorerSupplier() {
            @Override
            public Scorer get(long leadCost) {
              return new ConstantScoreScorer(score, scoreMode, new BitSetIterator(bits, cost));
            }

            @Override
            public long cost() {
              return cost;
            }
          };
        }

        @Override
        public boolean isCacheable(LeafReaderContext ctx) {
          return false;
        }
      };
    }

    @Override
    public void visit(QueryVisitor visitor) {
      visitor.visitLeaf(this);
    }

    @Override
    public String toString(String field) {
      return "eligible(" + docs.total + " docs)";
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof Filter f && f.docs == docs;
    }

    @Override
    public int hashCode() {
      return System.identityHashCode(docs);
    }
  }
}
