package dev.mnemo.store.lucene;

import dev.mnemo.Category;
import dev.mnemo.spi.Eligibility;
import java.time.Instant;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.util.BytesRef;

/**
 * Eligibility as a Lucene filter query: every rule of {@link Eligibility#admits} as a FILTER clause
 * (keyword terms and point ranges), so it constrains the kNN graph search and BM25 alike.
 */
final class Filters {
  private Filters() {}

  /**
   * {@code e} as this index needs it. The access rule stays only when some record of the index has
   * labels: without any, every record is visible to every caller, and the filter stays exactly what
   * it was before labels existed (the filtered HNSW search plans by the filter, so an always-true
   * clause would change which neighbours an approximate search visits).
   */
  static Eligibility forIndex(Eligibility e, org.apache.lucene.index.IndexReader reader)
      throws java.io.IOException {
    boolean labelled =
        e.principals() != null && reader.docFreq(new Term(Schema.ACCESS, Schema.RESTRICTED)) > 0;
    return labelled ? e : e.withoutAccessRule();
  }

  /** The filter of {@code e} over {@code reader}'s index ({@link #forIndex}). */
  static Query of(Eligibility e, org.apache.lucene.index.IndexReader reader)
      throws java.io.IOException {
    return of(forIndex(e, reader));
  }

  /** The whole eligibility filter: {@link #fixed} clauses and {@link #times} clauses together. */
  static Query of(Eligibility e) {
    BooleanQuery.Builder b = new BooleanQuery.Builder();
    boolean any = fixed(b, e, true);
    any |= times(b, e);
    return any ? b.build() : new MatchAllDocsQuery();
  }

  /**
   * The rules that depend only on the record (owner, scope, categories, metadata), never on the
   * request's time: a query that Lucene's query cache can keep across requests. Every rule of that
   * kind belongs here (and in {@link Eligibility#admits}): {@link EligibleDocs} combines this with
   * its own evaluation of the time rules.
   */
  static Query fixed(Eligibility e) {
    BooleanQuery.Builder b = new BooleanQuery.Builder();
    return fixed(b, e, true) ? b.build() : new MatchAllDocsQuery();
  }

  /**
   * {@link #fixed} without the owner's clause, for an index that holds only that owner's records
   * (their own partition): the clause would match every document, at the cost of reading the
   * owner's postings on every request (Lucene's query cache never keeps a term query).
   */
  static Query fixedBeyondOwner(Eligibility e) {
    BooleanQuery.Builder b = new BooleanQuery.Builder();
    return fixed(b, e, false) ? b.build() : new MatchAllDocsQuery();
  }

  private static boolean fixed(BooleanQuery.Builder b, Eligibility e, boolean owner) {
    boolean any = false;
    if (owner && e.owner() != null) {
      b.add(new TermQuery(new Term(Schema.OWNER, e.owner())), Occur.FILTER);
      any = true;
    }
    if (e.scope() != null) {
      b.add(
          new BooleanQuery.Builder()
              .add(new TermQuery(new Term(Schema.SCOPE, e.scope())), Occur.SHOULD)
              .add(new TermQuery(new Term(Schema.SCOPE, Schema.NO_SCOPE)), Occur.SHOULD)
              .setMinimumNumberShouldMatch(1)
              .build(),
          Occur.FILTER);
      any = true;
    }
    if (!e.categories().isEmpty()) {
      BooleanQuery.Builder cats = new BooleanQuery.Builder().setMinimumNumberShouldMatch(1);
      for (Category c : e.categories())
        cats.add(new TermQuery(new Term(Schema.CATEGORY, c.code())), Occur.SHOULD);
      b.add(cats.build(), Occur.FILTER);
      any = true;
    }
    for (var m : e.metadata().entrySet()) {
      b.add(
          new TermQuery(new Term(Schema.META, Schema.metaTerm(m.getKey(), m.getValue()))),
          Occur.FILTER);
      any = true;
    }
    if (e.principals() != null) {
      // No labels (no RESTRICTED term), or one of the caller's principals among them.
      BooleanQuery.Builder access = new BooleanQuery.Builder().setMinimumNumberShouldMatch(1);
      access.add(
          new BooleanQuery.Builder()
              .add(new MatchAllDocsQuery(), Occur.FILTER)
              .add(new TermQuery(new Term(Schema.ACCESS, Schema.RESTRICTED)), Occur.MUST_NOT)
              .build(),
          Occur.SHOULD);
      if (!e.principals().isEmpty()) {
        access.add(
            new TermInSetQuery(Schema.ACCESS, e.principals().stream().map(BytesRef::new).toList()),
            Occur.SHOULD);
      }
      b.add(access.build(), Occur.FILTER);
      any = true;
    }
    return any;
  }

  /**
   * The rules on the request's instants (valid at, known at, valid-time overlap) as point ranges.
   */
  private static boolean times(BooleanQuery.Builder b, Eligibility e) {
    boolean any = false;
    if (e.validAt() != null) {
      long t = e.validAt().toEpochMilli();
      b.add(LongPoint.newRangeQuery(Schema.VALID_FROM, Long.MIN_VALUE, t), Occur.FILTER);
      b.add(LongPoint.newRangeQuery(Schema.VALID_TO, t + 1, Long.MAX_VALUE), Occur.FILTER);
      any = true;
    }
    if (e.knownAt() != null) {
      long t = e.knownAt().toEpochMilli();
      b.add(LongPoint.newRangeQuery(Schema.RECORDED, Long.MIN_VALUE, t), Occur.FILTER);
      b.add(LongPoint.newRangeQuery(Schema.EXPIRED, t + 1, Long.MAX_VALUE), Occur.FILTER);
      any = true;
    }
    if (e.validOverlap() != null) {
      Instant from = e.validOverlap().from();
      Instant to = e.validOverlap().to();
      b.add(
          LongPoint.newRangeQuery(Schema.VALID_FROM, Long.MIN_VALUE, to.toEpochMilli() - 1),
          Occur.FILTER);
      b.add(
          LongPoint.newRangeQuery(Schema.VALID_TO, from.toEpochMilli() + 1, Long.MAX_VALUE),
          Occur.FILTER);
      any = true;
    }
    return any;
  }
}
