package dev.mnemo.store.lucene;

import java.io.IOException;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.PointValues;
import org.apache.lucene.util.NumericUtils;

/**
 * The four times of every document of a segment (valid from, valid to, recorded, expired) as arrays
 * indexed by doc id, read once per segment from the points the store indexes anyway and kept until
 * the segment is closed. Segments never change (a rewritten record is a new document), so the
 * arrays stay true for the segment's life; deleted documents keep their values and are excluded by
 * the live docs where they are used.
 *
 * <p>Why by hand: the time rules of eligibility depend on the request's instant, so Lucene's query
 * cache cannot keep them (each request brings new ranges, and its bit sets of a whole segment churn
 * the cache). With the times in arrays, the rules are checked only for the documents the fixed
 * rules (owner, scope...) admit, a few array reads each. 32 bytes per document on the heap.
 */
final class TimeColumns {
  /** Per-document times, milliseconds; an open end is {@link Long#MAX_VALUE}, as indexed. */
  final long[] validFrom;

  final long[] validTo;
  final long[] recorded;
  final long[] expired;

  private TimeColumns(int maxDoc) {
    validFrom = new long[maxDoc];
    validTo = new long[maxDoc];
    recorded = new long[maxDoc];
    expired = new long[maxDoc];
  }

  /**
   * Whether document {@code doc} passes the time rules (the same as {@link Filters}'s point
   * ranges).
   */
  boolean admits(
      int doc,
      dev.mnemo.spi.Eligibility e,
      long validAt,
      long knownAt,
      long overlapFrom,
      long overlapTo) {
    if (e.validAt() != null && !(validFrom[doc] <= validAt && validTo[doc] > validAt)) return false;
    if (e.knownAt() != null && !(recorded[doc] <= knownAt && expired[doc] > knownAt)) return false;
    if (e.validOverlap() != null && !(validFrom[doc] < overlapTo && validTo[doc] > overlapFrom))
      return false;
    return true;
  }

  /**
   * The columns of each open segment, by the segment's core key; dropped when the segment closes.
   */
  static final class Cache {
    private final Map<Object, TimeColumns> bySegment = new ConcurrentHashMap<>();

    /** The columns of {@code reader}'s segment, read from its points on first use. */
    TimeColumns of(LeafReader reader) throws IOException {
      IndexReader.CacheHelper helper = reader.getCoreCacheHelper();
      if (helper == null) return read(reader); // not a segment: nothing to key on
      Object key = helper.getKey();
      TimeColumns found = bySegment.get(key);
      if (found != null) return found;
      TimeColumns read = read(reader);
      // two readers racing both read; either result is the same
      if (bySegment.putIfAbsent(key, read) == null) helper.addClosedListener(bySegment::remove);
      return read;
    }

    /** Segments held (for tests). */
    int size() {
      return bySegment.size();
    }
  }

  static TimeColumns read(LeafReader reader) throws IOException {
    TimeColumns c = new TimeColumns(reader.maxDoc());
    column(reader, Schema.VALID_FROM, c.validFrom);
    column(reader, Schema.VALID_TO, c.validTo);
    column(reader, Schema.RECORDED, c.recorded);
    column(reader, Schema.EXPIRED, c.expired);
    return c;
  }

  /** Every (doc, value) of a one-dimensional long point field, by visiting the whole tree. */
  private static void column(LeafReader reader, String field, long[] into) throws IOException {
    // Every document has each time (Schema indexes an open end as Long.MAX_VALUE); a document
    // without one (none should exist) must never pass a time rule: MIN/MAX make both sides fail.
    Arrays.fill(
        into,
        field.equals(Schema.VALID_FROM) || field.equals(Schema.RECORDED)
            ? Long.MAX_VALUE
            : Long.MIN_VALUE);
    PointValues points = reader.getPointValues(field);
    if (points == null) return;
    points.intersect(
        new PointValues.IntersectVisitor() {
          @Override
          public void visit(int docID) {
            throw new IllegalStateException("every cell crosses: visit(doc, value) only");
          }

          @Override
          public void visit(int docID, byte[] packedValue) {
            into[docID] = NumericUtils.sortableBytesToLong(packedValue, 0);
          }

          @Override
          public PointValues.Relation compare(byte[] minPackedValue, byte[] maxPackedValue) {
            return PointValues.Relation.CELL_CROSSES_QUERY;
          }
        });
  }
}
