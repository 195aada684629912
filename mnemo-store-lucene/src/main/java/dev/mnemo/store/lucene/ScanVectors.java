package dev.mnemo.store.lucene;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.io.IOException;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.index.KnnVectorValues;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.search.DocIdSetIterator;

/**
 * A bit-per-dimension copy of a segment's vectors for the scan of an owner's own index. The float32
 * scan of a 10,000-record owner read 15 MB per recall and was bound by that; a byte per dimension
 * (4 MB) did not stay in the caches between recalls either (BENCHMARKS.md). One bit per dimension
 * is 48 bytes a vector for 384 dimensions, 480 KB for 10,000: the scan estimates every record from
 * these, and only the best few hundred are scored again with their float32 vectors.
 *
 * <p>Each segment's vectors are centered on their mean c (what all of an owner's records share
 * would otherwise set most bits alike). A vector v is kept as the signs of {@code v - c}, its
 * length {@code |v - c|} and the correction {@code ⟨o, ō⟩}, where o is the unit vector of {@code v
 * - c} and ō its signs over √d. A query q is estimated against v as {@code q·c + |v - c| ⟨q - c, ō⟩
 * / ⟨o, ō⟩}: the query is not reduced to bits (an asymmetric estimate, as in RaBitQ; estimating
 * from the two sign patterns alone found 0.90 of the exact top 50 where this finds 0.96), and ⟨q -
 * c, ō⟩ is summed a code byte at a time from a table of the query's 256 signed sums per byte.
 * Written here: Lucene's binary quantization is an index format (its float vectors kept beside it
 * on disk), not a scan over a copy in memory.
 *
 * <p>A segment never changes, so its copy is made once, when first scanned, and dropped when the
 * segment closes; all copies together are bounded by their bytes (Caffeine's weighted eviction),
 * and an evicted one is made again from the index on its next scan.
 */
final class ScanVectors {
  /** The default bound: 32 MB of codes (about 570,000 vectors of 384 dimensions). */
  static final long DEFAULT_BYTES = 32L << 20;

  /**
   * One segment's codes: the mean vector, each doc's sign bits ({@code bytes} bytes from {@code doc
   * × bytes}), its length from the mean (negative for a doc without a vector) and its correction
   * {@code ⟨o, ō⟩} (o the unit vector from the mean, ō its signs over √d).
   */
  record Segment(float[] mean, int bytes, byte[] codes, float[] lengths, float[] corrections) {
    long size() {
      return 64L + 4L * mean.length + codes.length + 8L * lengths.length;
    }
  }

  /**
   * A query against one segment: its dot product with the mean, and per code byte the sum of the
   * query's components (less the mean, over √d) signed by each of the byte's 256 patterns.
   */
  record Query(float dotMean, float[] table) {}

  private final SegmentCache<Object, Segment> cache;

  ScanVectors(long maxBytes) {
    Cache<Object, Segment> segments =
        Caffeine.newBuilder()
            .maximumWeight(maxBytes)
            .weigher((Object k, Segment s) -> (int) Math.min(Integer.MAX_VALUE, s.size()))
            .build();
    this.cache = new SegmentCache<>(segments, closed -> k -> k == closed);
  }

  /** {@code q} against {@code segment}'s codes, or null if its dimension differs. */
  static Query query(Segment segment, float[] q) {
    int d = segment.mean().length;
    if (q.length != d || d == 0) return null;
    double dotMean = 0;
    float[] centered = new float[d];
    double scale = 1 / Math.sqrt(d);
    for (int i = 0; i < d; i++) {
      dotMean += (double) q[i] * segment.mean()[i];
      centered[i] = (float) ((q[i] - segment.mean()[i]) * scale);
    }
    float[] table = new float[segment.bytes() * 256];
    double[] sums = new double[256];
    for (int p = 0; p < segment.bytes(); p++) {
      // pattern 0 is every sign negative; each set bit turns one negative term positive, so a
      // pattern's sum is that of the pattern without its lowest bit plus twice that component
      double none = 0;
      for (int j = 0; j < 8 && p * 8 + j < d; j++) none -= centered[p * 8 + j];
      sums[0] = none;
      table[p * 256] = (float) none;
      for (int pattern = 1; pattern < 256; pattern++) {
        int dim = p * 8 + Integer.numberOfTrailingZeros(pattern);
        double flip = dim < d ? 2.0 * centered[dim] : 0;
        sums[pattern] = sums[pattern & (pattern - 1)] + flip;
        table[p * 256 + pattern] = (float) sums[pattern];
      }
    }
    return new Query((float) dotMean, table);
  }

  /** The estimated dot product of the query with {@code doc}'s vector; NaN if it has none. */
  static double estimate(Segment segment, Query q, int doc) {
    float length = segment.lengths()[doc];
    if (length < 0) return Double.NaN;
    float correction = segment.corrections()[doc];
    if (length == 0 || correction == 0) return q.dotMean();
    int bytes = segment.bytes();
    byte[] codes = segment.codes();
    float[] table = q.table();
    int at = doc * bytes;
    float sum = 0;
    for (int p = 0; p < bytes; p++) sum += table[(p << 8) | (codes[at + p] & 0xFF)];
    return q.dotMean() + (double) length * sum / correction;
  }

  /** The codes of {@code reader}'s segment for {@code field}, made when not held. */
  Segment of(LeafReader reader, String field) throws IOException {
    return cache.get(reader, segment -> segment, () -> build(reader, field));
  }

  private static Segment build(LeafReader reader, String field) throws IOException {
    FloatVectorValues values = reader.getFloatVectorValues(field);
    int d = values == null ? 0 : values.dimension();
    int bytes = (d + 7) >>> 3;
    int maxDoc = reader.maxDoc();
    double[] sum = new double[d];
    int n = 0;
    if (values != null) {
      KnnVectorValues.DocIndexIterator it = values.iterator();
      for (int doc = it.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = it.nextDoc()) {
        float[] v = values.vectorValue(it.index());
        for (int i = 0; i < d; i++) sum[i] += v[i];
        n++;
      }
    }
    float[] mean = new float[d];
    for (int i = 0; i < d; i++) mean[i] = n == 0 ? 0 : (float) (sum[i] / n);
    byte[] codes = new byte[maxDoc * bytes];
    float[] lengths = new float[maxDoc];
    float[] corrections = new float[maxDoc];
    java.util.Arrays.fill(lengths, -1f);
    if (values != null) {
      double root = Math.sqrt(d);
      KnnVectorValues.DocIndexIterator it = values.iterator();
      for (int doc = it.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = it.nextDoc()) {
        float[] v = values.vectorValue(it.index());
        double length = 0;
        double absolute = 0;
        for (int i = 0; i < d; i++) {
          double x = v[i] - mean[i];
          length += x * x;
          absolute += Math.abs(x);
          if (x > 0) codes[doc * bytes + (i >>> 3)] |= (byte) (1 << (i & 7));
        }
        length = Math.sqrt(length);
        lengths[doc] = (float) length;
        corrections[doc] = length == 0 ? 0 : (float) (absolute / length / root);
      }
    }
    return new Segment(mean, bytes, codes, lengths, corrections);
  }
}
