package dev.mnemo.store.lucene;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.mnemo.MemoryRecord;
import java.io.IOException;
import org.apache.lucene.index.LeafReader;

/**
 * Records already decoded from a segment's stored fields and vectors, by (segment, doc): a segment
 * never changes (a rewritten record is a new document in a new segment), so an entry stays true for
 * the segment's life and is dropped when the segment closes. Bounded by an estimate of the records'
 * heap size (Caffeine's weighted eviction); a recall's candidates are mostly records that earlier
 * recalls of the same owner loaded, and the versions of a fact key the read path asks for next.
 */
final class RecordCache {
  /**
   * The default bound: 64 MB of records (about 30,000 records of 384 dimensions), for all open
   * stores together.
   */
  static final long DEFAULT_BYTES = 64L << 20;

  private record Key(Object segment, int doc) {}

  private final SegmentCache<Key, MemoryRecord> cache;

  RecordCache(long maxBytes) {
    Cache<Key, MemoryRecord> records =
        Caffeine.newBuilder()
            .maximumWeight(maxBytes)
            .weigher((Key k, MemoryRecord r) -> weight(r))
            .build();
    this.cache = new SegmentCache<>(records, closed -> k -> k.segment() == closed);
  }

  /**
   * The record of {@code doc} in {@code reader}'s segment, loaded by {@code loader} when not
   * cached.
   */
  MemoryRecord get(LeafReader reader, int doc, SegmentCache.Loader<MemoryRecord> loader)
      throws IOException {
    return cache.get(reader, segment -> new Key(segment, doc), loader);
  }

  /** A rough heap size: the vector, the strings' characters, and a fixed share for the rest. */
  static int weight(MemoryRecord r) {
    long w = 400L + 2L * r.text().length() + (r.context() == null ? 0 : 2L * r.context().length());
    if (r.embedding() != null) w += 4L * r.embedding().length;
    for (String e : r.entities()) w += 48 + 2L * e.length();
    for (String src : r.sources()) w += 48 + 2L * src.length();
    return (int) Math.min(Integer.MAX_VALUE, w);
  }
}
