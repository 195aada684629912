package dev.mnemo.store.lucene;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.ConstantScoreQuery;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.Sort;
import org.apache.lucene.search.SortField;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.Weight;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.QueryBuilder;

/**
 * The lexical signals of a candidate search: the BM25 query over the record text and its context
 * (bounded to Lucene's clause limit), its upper bound and exact scores, and the entity and time
 * queries.
 */
final class LexicalSearch {
  private final Analyzer analyzer;

  LexicalSearch(Analyzer analyzer) {
    this.analyzer = analyzer;
  }

  /**
   * Any of the entities (distinct, at most {@link #MAX_TEXT_CLAUSES}: a long query names many),
   * each match scored alike.
   */
  static Query entityQuery(Collection<String> entities) {
    BooleanQuery.Builder any = new BooleanQuery.Builder();
    for (String e : new LinkedHashSet<>(entities).stream().limit(MAX_TEXT_CLAUSES).toList()) {
      any.add(new ConstantScoreQuery(Queries.term(Schema.ENTITY, e)), Occur.SHOULD);
    }
    return any.build();
  }

  /**
   * Valid time starting inside {@code [from, to)} (epoch milliseconds), or an event time (the time
   * the text is about) overlapping it.
   */
  static Query timeQuery(long from, long to) {
    return new BooleanQuery.Builder()
        .add(LongPoint.newRangeQuery(Schema.VALID_FROM, from, to - 1), Occur.SHOULD)
        .add(
            new BooleanQuery.Builder()
                .add(
                    LongPoint.newRangeQuery(Schema.EVENT_FROM, Long.MIN_VALUE, to - 1),
                    Occur.FILTER)
                .add(
                    LongPoint.newRangeQuery(Schema.EVENT_TO, from + 1, Long.MAX_VALUE),
                    Occur.FILTER)
                .build(),
            Occur.SHOULD)
        .build();
  }

  /**
   * The time signal's order: newest first; equal times in index order. Not by id: ids are random,
   * so a tie at the list's cut (a conversation's turns share their session's time) would change
   * from run to run.
   */
  static final Sort NEWEST = new Sort(new SortField(Schema.RECORDED, SortField.Type.LONG, true));

  /**
   * The highest score BM25 could give any record for {@code text}: the sum of the query tokens' IDF
   * (Lucene's BM25 term score is {@code idf * tf / (tf + k1 * norm)}, which tends to idf as tf
   * grows). Dividing by it puts BM25 on a [0, 1] scale that means the same in a store of ten
   * records and one of ten million.
   */
  double bm25Max(IndexSearcher s, String text, TermStatistics cached) throws IOException {
    if (text == null || text.isBlank()) return 0;
    var stats = s.collectionStatistics(Schema.TEXT);
    if (stats == null) return 0;
    long n = stats.docCount();
    double max = 0;
    try (var ts = analyzer.tokenStream(Schema.TEXT, text)) {
      var term =
          ts.addAttribute(org.apache.lucene.analysis.tokenattributes.TermToBytesRefAttribute.class);
      ts.reset();
      while (ts.incrementToken()) {
        Term t = new Term(Schema.TEXT, BytesRef.deepCopyOf(term.getBytesRef()));
        // a query word no record contains still counts: it is part of what was asked
        int df = cached != null ? cached.of(s, t).docFreq() : s.getIndexReader().docFreq(t);
        max += Math.log(1 + (n - df + 0.5) / (df + 0.5));
      }
      ts.end();
    }
    return max;
  }

  /**
   * BM25 scores of every candidate: the text query's scorer advanced to each candidate doc, segment
   * by segment (the same scores a search would give them, without reading ids back from stored
   * fields or searching again).
   */
  static Map<Integer, Float> exactBm25(IndexSearcher s, Query text, Set<Integer> candidates)
      throws IOException {
    Map<Integer, Float> out = new HashMap<>();
    if (text == null) return out;
    int[] docs = candidates.stream().mapToInt(Integer::intValue).sorted().toArray();
    Weight weight = s.createWeight(s.rewrite(text), ScoreMode.COMPLETE, 1f);
    List<LeafReaderContext> leaves = s.getIndexReader().leaves();
    int i = 0;
    while (i < docs.length) {
      LeafReaderContext leaf = leaves.get(ReaderUtil.subIndex(docs[i], leaves));
      int end = leaf.docBase + leaf.reader().maxDoc();
      Scorer scorer = weight.scorer(leaf);
      DocIdSetIterator it = scorer == null ? null : scorer.iterator();
      for (; i < docs.length && docs[i] < end; i++) {
        if (it == null) continue;
        int local = docs[i] - leaf.docBase;
        if (it.docID() < local) it.advance(local);
        if (it.docID() == local) out.put(docs[i], scorer.score());
      }
    }
    return out;
  }

  /**
   * The BM25 query: the analyzed query words as optional clauses over the record text, plus the
   * context (neighbouring turns, dates) at the query's context weight. Null for a query with no
   * words.
   */
  Query textQuery(String text, double contextWeight, TermStatistics cached, IndexSearcher s)
      throws IOException {
    if (text == null || text.isBlank()) return null;
    QueryBuilder qb =
        cached == null
            ? new BoundedQueryBuilder(analyzer)
            : new BoundedQueryBuilder(analyzer) {
              @Override
              protected Query newTermQuery(Term term, float boost) {
                try {
                  Query q = new TermQuery(term, cached.of(s, term));
                  return boost == 1f ? q : new BoostQuery(q, boost);
                } catch (IOException e) {
                  throw new java.io.UncheckedIOException(e);
                }
              }
            };
    try {
      return textQuery(qb, text, contextWeight);
    } catch (java.io.UncheckedIOException e) {
      throw e.getCause();
    }
  }

  /**
   * The most term clauses one field's text query keeps: two fields stay under Lucene's limit of
   * 1,024 clauses a query ({@code IndexSearcher.getMaxClauseCount}), which a long text (a record of
   * 8,000 characters, a long recall text: one clause per word, repeated words included) otherwise
   * passes, failing the search, and with it the write's same-fact check or the recall.
   */
  static final int MAX_TEXT_CLAUSES = 500;

  private static Query textQuery(QueryBuilder qb, String text, double contextWeight) {
    Query main = qb.createBooleanQuery(Schema.TEXT, text, Occur.SHOULD);
    if (main == null) return null;
    Query ctx =
        contextWeight <= 0 ? null : qb.createBooleanQuery(Schema.CONTEXT, text, Occur.SHOULD);
    if (ctx == null) return main;
    return new BooleanQuery.Builder()
        .add(main, Occur.SHOULD)
        .add(new BoostQuery(ctx, (float) contextWeight), Occur.SHOULD)
        .build();
  }

  /**
   * Lucene's query builder with every boolean query it builds bounded ({@link BoundedDisjunction}):
   * the builder adds one clause per analyzed token, and Lucene's own {@code BooleanQuery.Builder}
   * throws past 1,024 of them while they are added, before any caller could trim the query.
   */
  static class BoundedQueryBuilder extends QueryBuilder {
    BoundedQueryBuilder(Analyzer analyzer) {
      super(analyzer);
    }

    @Override
    protected BooleanQuery.Builder newBooleanQuery() {
      return new BoundedDisjunction();
    }
  }

  /**
   * A boolean query's builder that holds its clauses until {@link #build}: within {@link
   * #MAX_TEXT_CLAUSES} it builds them as they came; past it, the optional (SHOULD) clauses become
   * one per distinct clause, boosted by how often it occurred (the same score: repeated clauses add
   * up), and when still too many, those of the most frequent terms are kept (ties: the earliest).
   * Other clauses are kept as they are. Hand-written: Lucene has no bounded builder.
   */
  static final class BoundedDisjunction extends BooleanQuery.Builder {
    private final List<org.apache.lucene.search.BooleanClause> held = new ArrayList<>();

    @Override
    public BooleanQuery.Builder add(org.apache.lucene.search.BooleanClause clause) {
      held.add(clause);
      return this;
    }

    @Override
    public BooleanQuery.Builder add(Query query, Occur occur) {
      return add(new org.apache.lucene.search.BooleanClause(query, occur));
    }

    @Override
    public BooleanQuery build() {
      if (held.size() > MAX_TEXT_CLAUSES) {
        LinkedHashMap<Query, int[]> counts = new LinkedHashMap<>();
        for (var c : held) {
          if (c.occur() == Occur.SHOULD) counts.computeIfAbsent(c.query(), k -> new int[1])[0]++;
          else super.add(c);
        }
        List<Map.Entry<Query, int[]>> kept = new ArrayList<>(counts.entrySet());
        kept.sort((x, y) -> Integer.compare(y.getValue()[0], x.getValue()[0])); // stable
        for (var e : kept.subList(0, Math.min(kept.size(), MAX_TEXT_CLAUSES))) {
          int n = e.getValue()[0];
          super.add(
              new org.apache.lucene.search.BooleanClause(
                  n == 1 ? e.getKey() : new BoostQuery(e.getKey(), n), Occur.SHOULD));
        }
      } else {
        for (var c : held) super.add(c);
      }
      return super.build();
    }
  }
}
