package dev.mnemo.store.lucene;

import dev.mnemo.spi.Eligibility;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.lucene.index.IndexReader;
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
    return compute(s, e, columns, false, null);
  }

  /**
   * The same, for an index that holds only {@code e}'s owner's records when {@code ownersOwn}: the
   * owner's rule is then true of every document and is not searched ({@link
   * Filters#fixedBeyondOwner}). With a {@code current} cache, a request whose instants come after
   * the start of every open-ended record of a segment copies that segment's cached open records and
   * checks only the others ({@link Cache}); other requests take the pass over the segment.
   */
  static EligibleDocs compute(
      IndexSearcher s, Eligibility e, TimeColumns.Cache columns, boolean ownersOwn, Cache current)
      throws IOException {
    List<LeafReaderContext> leaves = s.getIndexReader().leaves();
    FixedBitSet[] sets = new FixedBitSet[leaves.size()];
    int[] counts = new int[leaves.size()];
    boolean timed = e.validAt() != null || e.knownAt() != null || e.validOverlap() != null;
    long validAt = e.validAt() == null ? 0 : e.validAt().toEpochMilli();
    long knownAt = e.knownAt() == null ? 0 : e.knownAt().toEpochMilli();
    long overlapFrom = e.validOverlap() == null ? 0 : e.validOverlap().from().toEpochMilli();
    long overlapTo = e.validOverlap() == null ? 0 : e.validOverlap().to().toEpochMilli();
    // With both time rules, a record that ended by the earlier of the request's instants fails
    // one of them: the cached others, ordered by their end, are read down to this bound.
    long bound =
        e.validAt() != null && e.knownAt() != null ? Math.min(validAt, knownAt) : Long.MIN_VALUE;
    Query rules = s.rewrite(ownersOwn ? Filters.fixedBeyondOwner(e) : Filters.fixed(e));
    Weight fixed = s.createWeight(rules, ScoreMode.COMPLETE_NO_SCORES, 1f);
    for (LeafReaderContext leaf : leaves) {
      TimeColumns times = timed || current != null ? columns.of(leaf.reader()) : null;
      FixedBitSet bits;
      int n = 0;
      Open open =
          current == null || e.validOverlap() != null
              ? null
              : current.of(leaf, rules, fixed, times);
      if (open != null
          && open.docs != null
          && (e.validAt() == null || open.validFromMax <= validAt)
          && (e.knownAt() == null || open.recordedMax <= knownAt)) {
        // every open-ended record started before the request's instants: all of them pass
        bits = open.docs.clone();
        n = open.count;
        current.copies.increment();
        // the others by their end, latest first, down to the bound (below)
        for (int i = 0; i < open.others.length && open.ends[i] > bound; i++) {
          int doc = open.others[i];
          if (timed && !times.admits(doc, e, validAt, knownAt, overlapFrom, overlapTo)) continue;
          bits.set(doc);
          n++;
        }
      } else {
        Scorer scorer = fixed.scorer(leaf);
        if (scorer == null) continue;
        Bits live = leaf.reader().getLiveDocs();
        bits = new FixedBitSet(leaf.reader().maxDoc());
        DocIdSetIterator it = scorer.iterator();
        for (int doc = it.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = it.nextDoc()) {
          if (live != null && !live.get(doc)) continue;
          if (timed && !times.admits(doc, e, validAt, knownAt, overlapFrom, overlapTo)) continue;
          bits.set(doc);
          n++;
        }
      }
      if (n > 0) {
        sets[leaf.ord] = bits;
        counts[leaf.ord] = n;
      }
    }
    return new EligibleDocs(sets, counts);
  }

  /**
   * The live documents of one segment that the fixed rules admit, split by their times: {@code
   * docs} those whose valid time and known time never end (most records: nothing superseded or
   * expired them), with the latest start among them, and {@code others} the rest, ordered by their
   * end ({@code ends}: the earlier of valid to and expired), latest first.
   */
  private record Open(
      FixedBitSet docs,
      int count,
      long validFromMax,
      long recordedMax,
      int[] others,
      long[] ends) {}

  /**
   * {@link Open} per segment (with its deletions: a segment whose deletions change is a new reader)
   * and fixed rules, so that a recall copies a bit set instead of passing over every document of
   * the segment: issue 15's "cached current set plus the few time-dependent exceptions". Meant for
   * an owner's own index, where nearly every request brings the same rules; a few rules per segment
   * are kept, the least recently used dropped, and a segment's entries go when its reader closes.
   * Memory: per rule set, a bit per document and 12 bytes per document that is not open; a segment
   * where more than a quarter are not open is not split (the pass is then about as fast), so an
   * entry stays under 3.2 bytes a document, beside the 32 of the segment's {@link TimeColumns}. Why
   * by hand: Lucene's query cache keeps a query's matches, not this split by time, and never keeps
   * the rules of an owner's own index (a match-all query).
   */
  static final class Cache {
    private static final int RULES_PER_SEGMENT = 4;

    /** A segment not worth splitting: the request takes the pass. */
    private static final Open PASS = new Open(null, 0, 0, 0, new int[0], new long[0]);

    private final Map<Object, Map<Query, Open>> byReader = new ConcurrentHashMap<>();

    Open of(LeafReaderContext leaf, Query rules, Weight fixed, TimeColumns times)
        throws IOException {
      IndexReader.CacheHelper helper = leaf.reader().getReaderCacheHelper();
      if (helper == null) return null; // not a segment: nothing to key on
      Map<Query, Open> byRules =
          byReader.computeIfAbsent(
              helper.getKey(),
              key -> {
                helper.addClosedListener(byReader::remove);
                return java.util.Collections.synchronizedMap(
                    new LinkedHashMap<>(16, 0.75f, true) {
                      @Override
                      protected boolean removeEldestEntry(Map.Entry<Query, Open> eldest) {
                        return size() > RULES_PER_SEGMENT;
                      }
                    });
              });
      Open found = byRules.get(rules);
      if (found != null) return found;
      Open computed = open(leaf, fixed, times);
      byRules.put(rules, computed); // two requests racing both compute the same
      return computed;
    }

    /** Segments whose eligible documents were copied from here (for tests). */
    final java.util.concurrent.atomic.LongAdder copies =
        new java.util.concurrent.atomic.LongAdder();

    /** Segments held (for tests). */
    int size() {
      return byReader.size();
    }

    private static Open open(LeafReaderContext leaf, Weight fixed, TimeColumns times)
        throws IOException {
      FixedBitSet docs = new FixedBitSet(leaf.reader().maxDoc());
      int count = 0;
      long validFromMax = Long.MIN_VALUE;
      long recordedMax = Long.MIN_VALUE;
      int[] others = new int[16];
      int nOthers = 0;
      Scorer scorer = fixed.scorer(leaf);
      if (scorer != null) {
        Bits live = leaf.reader().getLiveDocs();
        DocIdSetIterator it = scorer.iterator();
        for (int doc = it.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = it.nextDoc()) {
          if (live != null && !live.get(doc)) continue;
          if (times.validTo[doc] == Long.MAX_VALUE && times.expired[doc] == Long.MAX_VALUE) {
            docs.set(doc);
            count++;
            validFromMax = Math.max(validFromMax, times.validFrom[doc]);
            recordedMax = Math.max(recordedMax, times.recorded[doc]);
          } else {
            if (nOthers == others.length) others = java.util.Arrays.copyOf(others, nOthers * 2);
            others[nOthers++] = doc;
          }
        }
      }
      if (nOthers > leaf.reader().maxDoc() / 4) return PASS;
      Integer[] order = new Integer[nOthers];
      long[] end = new long[nOthers];
      for (int i = 0; i < nOthers; i++) {
        order[i] = i;
        end[i] = Math.min(times.validTo[others[i]], times.expired[others[i]]);
      }
      java.util.Arrays.sort(order, (a, b) -> Long.compare(end[b], end[a]));
      int[] docsByEnd = new int[nOthers];
      long[] ends = new long[nOthers];
      for (int i = 0; i < nOthers; i++) {
        docsByEnd[i] = others[order[i]];
        ends[i] = end[order[i]];
      }
      return new Open(docs, count, validFromMax, recordedMax, docsByEnd, ends);
    }
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
