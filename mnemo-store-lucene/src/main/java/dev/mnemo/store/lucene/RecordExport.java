package dev.mnemo.store.lucene;

import dev.mnemo.MemoryRecord;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.Sort;
import org.apache.lucene.util.BytesRef;

/**
 * The export of an owner's records (or everyone's): each index read through one point-in-time view,
 * a page at a time, the pages merged oldest first, so that memory holds one page per index however
 * large the store.
 */
final class RecordExport {
  private final Partitions partitions;

  RecordExport(Partitions partitions) {
    this.partitions = partitions;
  }

  /** Hits per page of {@link #export} (and of the turn log's export). */
  static final int EXPORT_PAGE = 1000;

  /** Every record of {@code owner} (of every owner for null) to {@code sink}, oldest first. */
  void export(String owner, Consumer<MemoryRecord> sink) {
    Query q = owner == null ? new MatchAllDocsQuery() : Queries.term(Schema.OWNER, owner);
    Sort sort = Queries.OLDEST_FIRST;
    List<Partition> parts = new ArrayList<>();
    List<IndexSearcher> searchers = new ArrayList<>();
    try {
      // The indexes to read (the owner's, or all), each through one searcher (a point-in-time
      // view), acquired before anything reaches the sink; if an owner moved meanwhile, again. (A
      // move
      // switches the table before it deletes from the shared index, so an unchanged table after
      // acquiring means every record is in exactly one of the searchers.)
      while (true) {
        Map<String, String> before = partitions.table();
        parts.add(partitions.pin(owner));
        if (owner == null) for (String o : before.keySet()) parts.add(partitions.pin(o));
        for (Partition p : parts) searchers.add(Partitions.acquire(p));
        if (partitions.table() == before) break;
        releaseAll(parts, searchers);
      }
      // Each index read a page at a time with searchAfter, the pages merged in the sort's order:
      // the records reach the sink as they are read, and memory holds one page of hits per index.
      java.util.PriorityQueue<ExportCursor> next = new java.util.PriorityQueue<>();
      for (int i = 0; i < parts.size(); i++) {
        ExportCursor c = new ExportCursor(searchers.get(i), q, sort, i);
        if (c.advance()) next.add(c);
      }
      while (!next.isEmpty()) {
        ExportCursor c = next.poll();
        sink.accept(StoredRecords.load(c.searcher, c.current().doc));
        if (c.advance()) next.add(c);
      }
    } catch (IOException e) {
      throw Partitions.readFailed(e);
    } finally {
      releaseAll(parts, searchers);
    }
  }

  private void releaseAll(List<Partition> parts, List<IndexSearcher> searchers) {
    for (int i = 0; i < searchers.size(); i++) Partitions.release(parts.get(i), searchers.get(i));
    for (Partition p : parts) partitions.unpin(p);
    searchers.clear();
    parts.clear();
  }

  /** One index's hits in (recorded, id) order, a page of {@link #EXPORT_PAGE} at a time. */
  private static final class ExportCursor implements Comparable<ExportCursor> {
    final IndexSearcher searcher;
    private final Query query;
    private final Sort sort;
    private final int index;
    private ScoreDoc[] page;
    private int at = -1;

    ExportCursor(IndexSearcher searcher, Query query, Sort sort, int index) {
      this.searcher = searcher;
      this.query = query;
      this.sort = sort;
      this.index = index;
    }

    org.apache.lucene.search.FieldDoc current() {
      return (org.apache.lucene.search.FieldDoc) page[at];
    }

    /**
     * Moves to the next hit, reading the next page when this one is done; false when there is none.
     */
    boolean advance() throws IOException {
      if (page == null) {
        page = searcher.search(query, EXPORT_PAGE, sort).scoreDocs;
        at = 0;
        return page.length > 0;
      }
      if (++at < page.length) return true;
      if (page.length < EXPORT_PAGE) return false;
      page = searcher.searchAfter(page[page.length - 1], query, EXPORT_PAGE, sort).scoreDocs;
      at = 0;
      return page.length > 0;
    }

    @Override
    public int compareTo(ExportCursor o) {
      Object[] a = current().fields, b = o.current().fields;
      int c = Long.compare((Long) a[0], (Long) b[0]);
      if (c == 0) c = ((BytesRef) a[1]).compareTo((BytesRef) b[1]);
      return c != 0 ? c : Integer.compare(index, o.index);
    }
  }
}
