package dev.mnemo.store.lucene;

import java.io.IOException;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.TermStates;
import org.apache.lucene.search.IndexSearcher;

/**
 * The BM25 term statistics of one index, kept for the reader a search used last: a recall builds
 * them for the query's words in the text search, again in the exact BM25 scoring of the candidates,
 * and once more for the normalization ({@code bm25Max}); an owner's next questions repeat many of
 * the words. Each {@link TermStates} holds a term's dictionary entry in every segment (where its
 * postings start) and its document frequency; a {@link org.apache.lucene.search.TermQuery} given
 * them scores exactly as one that seeks the term itself.
 *
 * <p>Only the most recent reader's statistics are kept (a commit opens a new reader and starts an
 * empty table), so the table never holds a closed reader for longer than until the next search; a
 * search on an older reader builds its statistics uncached. At most {@link #MAX_TERMS} terms, then
 * the table starts over. Thread-safe.
 */
final class TermStatistics {
  /** Terms kept per reader before the table starts over. */
  static final int MAX_TERMS = 4096;

  private record Table(IndexReader reader, ConcurrentHashMap<Term, TermStates> states) {}

  private volatile Table table = new Table(null, new ConcurrentHashMap<>());

  /** The statistics of {@code term} in {@code s}'s reader, cached when that reader is the last. */
  TermStates of(IndexSearcher s, Term term) throws IOException {
    IndexReader reader = s.getIndexReader();
    Table t = table;
    if (t.reader() != reader) {
      t = new Table(reader, new ConcurrentHashMap<>());
      table = t;
    }
    TermStates cached = t.states().get(term);
    if (cached != null) return cached;
    TermStates built = TermStates.build(s, term, true);
    if (t.states().size() >= MAX_TERMS) t.states().clear();
    t.states().put(term, built);
    return built;
  }
}
