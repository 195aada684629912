package dev.mnemo.store.lucene;

import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.Sort;
import org.apache.lucene.search.SortField;
import org.apache.lucene.search.TermQuery;

/** The small queries and the one sort every part of the store builds its searches from. */
final class Queries {
  private Queries() {}

  /**
   * Oldest first, then by id: the order records were written in when they arrive in time, whatever
   * order an index's merges left its segments in (finds, moves and exports read in it).
   */
  static final Sort OLDEST_FIRST =
      new Sort(
          new SortField(Schema.RECORDED, SortField.Type.LONG),
          new SortField(Schema.ID, SortField.Type.STRING));

  static Query term(String field, String value) {
    return new TermQuery(new Term(field, value));
  }

  static Query and(Query must, Query filter) {
    return new BooleanQuery.Builder().add(must, Occur.MUST).add(filter, Occur.FILTER).build();
  }
}
