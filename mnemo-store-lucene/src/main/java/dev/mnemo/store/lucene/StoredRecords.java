package dev.mnemo.store.lucene;

import dev.mnemo.MemoryRecord;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.index.KnnVectorValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TopDocs;

/**
 * Records read back from an index's documents: stored fields and the vector of the segment, decoded
 * once per segment and document into the JVM-wide {@link RecordCache} when a read asks for it.
 */
final class StoredRecords {
  private StoredRecords() {}

  /**
   * One cache for the JVM, shared by every open store: a server opens a store per tenant, and the
   * bound must hold for all of them together (keys are segments, which no two stores share).
   */
  private static final RecordCache RECORDS = new RecordCache(RecordCache.DEFAULT_BYTES);

  /** The records matching {@code q} in one index, oldest first ({@code limit} of them, or all). */
  static List<MemoryRecord> find(IndexSearcher s, Query q, int limit, boolean cached)
      throws IOException {
    int n = limit == Integer.MAX_VALUE ? Math.max(1, s.count(q)) : limit;
    TopDocs top = s.search(q, n, Queries.OLDEST_FIRST);
    List<MemoryRecord> out = new ArrayList<>();
    for (ScoreDoc sd : top.scoreDocs) out.add(load(s, sd.doc, cached));
    return out;
  }

  static MemoryRecord load(IndexSearcher s, int doc) throws IOException {
    List<LeafReaderContext> leaves = s.getIndexReader().leaves();
    LeafReaderContext leaf = leaves.get(ReaderUtil.subIndex(doc, leaves));
    return load(leaf, doc - leaf.docBase);
  }

  /**
   * The record of {@code doc}, from the cache when {@code cached} (records of a segment never
   * change).
   */
  static MemoryRecord load(IndexSearcher s, int doc, boolean cached) throws IOException {
    if (!cached) return load(s, doc);
    List<LeafReaderContext> leaves = s.getIndexReader().leaves();
    LeafReaderContext leaf = leaves.get(ReaderUtil.subIndex(doc, leaves));
    return RECORDS.get(leaf.reader(), doc - leaf.docBase, () -> load(leaf, doc - leaf.docBase));
  }

  private static MemoryRecord load(LeafReaderContext leaf, int local) throws IOException {
    Document d = leaf.reader().storedFields().document(local);
    return Schema.fromDocument(d, vector(leaf, local));
  }

  /** The record's raw vector, read from the vector values of its segment (not stored twice). */
  private static float[] vector(LeafReaderContext leaf, int local) throws IOException {
    FloatVectorValues values = leaf.reader().getFloatVectorValues(Schema.VECTOR);
    if (values == null) return null;
    KnnVectorValues.DocIndexIterator it = values.iterator();
    if (it.advance(local) != local) return null;
    return values.vectorValue(it.index()).clone();
  }
}
