package dev.mnemo.store.lucene;

import dev.mnemo.spi.Vectors;
import dev.mnemo.store.lucene.LuceneMemoryStore.ReadOptions;
import java.io.IOException;
import java.util.List;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.KnnVectorValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.search.ConstantScoreQuery;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.Weight;

/**
 * The dense signal of a candidate search: the eligible records nearest to the query's vector, by an
 * exact scan when few are eligible (on sign codes first in a large owner's own index) and by the
 * filtered HNSW graph beyond, rescored the same way on every path so that they rank alike.
 */
final class DenseSearch {
  /**
   * Eligible records at or below this count are scored exactly instead of through the HNSW graph.
   * Measured at 1M records: with an owner holding 1 % of the index, Lucene's filtered graph search
   * explored, gave up and then scanned (22 ms) where the scan alone took 4.9 ms; at 10 % the graph
   * search succeeded in 11-12 ms. A scan of the float32 vectors is exact; in an owner's own index
   * from {@link #SCAN_CODES_MIN} eligible records on the scan goes through sign codes first ({@link
   * ScanVectors}), which is approximate, as the graph is.
   */
  static final int EXACT_SCAN_MAX = 20_000;

  /** Bit-per-dimension copies of owners' own segments' vectors for the scan. */
  private static final ScanVectors SCAN = new ScanVectors(ScanVectors.DEFAULT_BYTES);

  private final int exactScanMax;

  /**
   * A search that scans at most {@code exactScanMax} eligible records ({@link #EXACT_SCAN_MAX}).
   */
  DenseSearch(int exactScanMax) {
    this.exactScanMax = exactScanMax;
  }

  /**
   * From this many documents in an owner's index on, the graph gets the whole {@link
   * LuceneMemoryStore#GRAPH_REACH}; a smaller index gets a share in proportion. A smaller graph is
   * easier to search: on one segment of the same owner's first 20,000 / 35,000 / 50,000 / 70,000 /
   * 100,000 vectors, the ask that found about 0.96 of the exact top 50 was k × 4 or less / 4 / 7-8
   * / 12 / 18 (BENCHMARKS.md). Beyond 100,000 records the reach stays 18: larger owners were not
   * measured.
   */
  static final int FULL_REACH_RECORDS = 100_000;

  /**
   * The least share of {@link LuceneMemoryStore#GRAPH_REACH} an index is given: that of one of
   * {@link #EXACT_SCAN_MAX} records, the smallest whose graph the store searches unless opened with
   * a lower exact-scan limit (smaller graphs were not measured, and on hard data, such as random
   * vectors, they need more than their size suggests).
   */
  static final double SMALLEST_SHARE = (double) EXACT_SCAN_MAX / FULL_REACH_RECORDS;

  /**
   * How many times k the graph of the shared index is asked for when an owner there has more than
   * {@link #EXACT_SCAN_MAX} eligible records (only with {@link LuceneMemoryStore.Layout#SHARED} or
   * before a move): measured on a 50,000-record owner of a 200,000-record shared index, dense
   * recall@50 0.75 at 1 and 0.95 at 6 (BENCHMARKS.md). The owner's records are a filtered slice of
   * every segment's graph there, so the reach of an own index does not apply. A quantized graph
   * ({@link VectorFormat}) is asked for at least as much: its formats were measured at 6 × k (int7
   * found as much as float32 there, bbq less), and its neighbours are estimates that the rescoring
   * sorts out.
   */
  static final int FIXED_GRAPH_OVERSAMPLE = 6;

  /**
   * {@link LuceneMemoryStore#graphK(IndexReader, int, int)} with the whole reach from {@code
   * fullReachRecords}.
   */
  static int graphK(IndexReader reader, int k, int reach, int fullReachRecords) {
    int floor = k + RESCORE_MARGIN;
    double total = reader.maxDoc();
    if (total == 0) return floor;
    double sumOfSquares = 0;
    for (LeafReaderContext leaf : reader.leaves()) {
      double share = leaf.reader().maxDoc() / total;
      sumOfSquares += share * share;
    }
    // measured from EXACT_SCAN_MAX records on: a smaller index (graph searched only with a lower
    // exact-scan limit) is asked as one of that size would be, not less
    double size = Math.max(SMALLEST_SHARE, Math.min(1, total / fullReachRecords));
    // less a hair, so that a share's rounding (0.8² + 0.2² is 0.68000000001) does not add one
    double ask = Math.ceil((double) k * reach * size * sumOfSquares - 1e-6);
    return (int) Math.max(floor, Math.min(Integer.MAX_VALUE / 2, ask));
  }

  /**
   * How many hits beyond {@code k} a dense search keeps for {@link #rescored}: Lucene's scores may
   * differ in their last bit from call to call, so the order is settled on the kept hits.
   */
  static final int RESCORE_MARGIN = 8;

  /**
   * The {@code k} eligible records nearest to {@code vector}: an exact scan when few are eligible
   * (on sign codes first in an owner's own index from {@link #SCAN_CODES_MIN} on), else the graph,
   * asked for {@link LuceneMemoryStore#graphK} in an owner's own index. Either way the order is
   * {@link #rescored}'s: by {@link Vectors#dot}, then the lower doc.
   */
  TopDocs search(
      IndexSearcher s,
      float[] vector,
      Query filter,
      long eligible,
      int k,
      ReadOptions o,
      boolean ownersOwn)
      throws IOException {
    if (eligible > exactScanMax) {
      boolean quantized = quantized(s);
      int ask =
          ownersOwn
              ? graphK(s.getIndexReader(), k, o.graphReach(), FULL_REACH_RECORDS)
              : k * FIXED_GRAPH_OVERSAMPLE;
      if (quantized) ask = Math.max(ask, k * FIXED_GRAPH_OVERSAMPLE);
      Query knn = new KnnFloatVectorQuery(Schema.VECTOR, vector, ask, filter);
      // a quantized graph's scores are estimates: every hit it found is rescored
      return rescored(s, s.search(knn, quantized ? ask : k + RESCORE_MARGIN), vector, k);
    }
    Weight w =
        s.createWeight(s.rewrite(new ConstantScoreQuery(filter)), ScoreMode.COMPLETE_NO_SCORES, 1f);
    if (ownersOwn && o.quantizedScan() && eligible >= SCAN_CODES_MIN) {
      return quantizedScan(s, w, vector, k);
    }
    TopK heap = new TopK(k + RESCORE_MARGIN);
    for (LeafReaderContext leaf : s.getIndexReader().leaves()) {
      FloatVectorValues values = leaf.reader().getFloatVectorValues(Schema.VECTOR);
      Scorer scorer = values == null ? null : w.scorer(leaf);
      if (scorer == null) continue;
      KnnVectorValues.DocIndexIterator vit = values.iterator();
      DocIdSetIterator docs = scorer.iterator();
      var live = leaf.reader().getLiveDocs();
      for (int doc = docs.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = docs.nextDoc()) {
        if (live != null && !live.get(doc)) continue;
        if (vit.docID() < doc) vit.advance(doc);
        if (vit.docID() != doc) continue;
        float[] v = values.vectorValue(vit.index());
        if (v.length != vector.length) continue;
        // the same score Lucene's DOT_PRODUCT similarity gives, so both paths rank alike
        float score =
            Math.max((1 + org.apache.lucene.util.VectorUtil.dotProduct(vector, v)) / 2, 0);
        heap.offer(leaf.docBase + doc, score);
      }
    }
    return rescored(s, exactly(heap.drain()), vector, k);
  }

  /**
   * How many times k + 8 the scan on sign codes ({@link ScanVectors}) keeps for the float32
   * rescoring: 580 of a 10,000-record owner's records for k = 50. Measured on the 1M bench store's
   * 10,000-record owner (200 questions, BENCHMARKS.md): dense recall@50 against the float32 scan
   * 0.959 (the graph of the 100,000-record owner finds 0.967), recall alone ×0.67-0.81 between
   * recalls. Chosen on the bench's synthetic corpus, not on evaluation data.
   */
  static final int SCAN_OVERSAMPLE = 10;

  /**
   * Owners with fewer eligible records than this are scanned on their float32 vectors, exactly: the
   * codes pay where there is much to read (an owner gets an index of their own above 5,000
   * records), and below it a store reads as a store of the owner's records alone would, to the bit.
   */
  static final int SCAN_CODES_MIN = 5_000;

  /**
   * The scan of {@link #search} on {@link ScanVectors}' codes: every eligible record estimated, the
   * best {@link #SCAN_OVERSAMPLE} × (k + 8) kept and {@link #rescored} with their float32 vectors.
   */
  private static TopDocs quantizedScan(IndexSearcher s, Weight eligible, float[] vector, int k)
      throws IOException {
    TopK heap = new TopK((k + RESCORE_MARGIN) * SCAN_OVERSAMPLE);
    for (LeafReaderContext leaf : s.getIndexReader().leaves()) {
      Scorer scorer = eligible.scorer(leaf);
      if (scorer == null) continue;
      ScanVectors.Segment codes = SCAN.of(leaf.reader(), Schema.VECTOR);
      ScanVectors.Query q = ScanVectors.query(codes, vector);
      if (q == null) continue;
      var live = leaf.reader().getLiveDocs();
      DocIdSetIterator docs = scorer.iterator();
      for (int doc = docs.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = docs.nextDoc()) {
        if (live != null && !live.get(doc)) continue;
        double estimate = ScanVectors.estimate(codes, q, doc);
        if (!Double.isNaN(estimate)) heap.offer(leaf.docBase + doc, (float) estimate);
      }
    }
    return rescored(s, exactly(heap.drain()), vector, k);
  }

  /** Hits counted exactly: every one of them is in {@code hits}. */
  private static TopDocs exactly(ScoreDoc[] hits) {
    return new TopDocs(
        new org.apache.lucene.search.TotalHits(
            hits.length, org.apache.lucene.search.TotalHits.Relation.EQUAL_TO),
        hits);
  }

  /**
   * Whether any segment of the index stores its graph's vectors quantized ({@link VectorFormat}).
   */
  private static boolean quantized(IndexSearcher s) {
    for (LeafReaderContext leaf : s.getIndexReader().leaves()) {
      var field = leaf.reader().getFieldInfos().fieldInfo(Schema.VECTOR);
      if (field != null
          && VectorFormat.quantized(
              field.getAttribute(
                  org.apache.lucene.codecs.perfield.PerFieldKnnVectorsFormat
                      .PER_FIELD_FORMAT_KEY))) {
        return true;
      }
    }
    return false;
  }

  /**
   * The {@code k} best of {@code found} by {@link Vectors#dot} with their float32 vectors, the
   * lower doc first among equals: each hit's vector read from its segment. Scores are Lucene's
   * DOT_PRODUCT score of that dot.
   */
  private static TopDocs rescored(IndexSearcher s, TopDocs found, float[] vector, int k)
      throws IOException {
    int[] docs = new int[found.scoreDocs.length];
    for (int i = 0; i < docs.length; i++) docs[i] = found.scoreDocs[i].doc;
    java.util.Arrays.sort(docs);
    double[] dots = new double[docs.length];
    boolean[] scored = new boolean[docs.length];
    List<LeafReaderContext> leaves = s.getIndexReader().leaves();
    int i = 0;
    while (i < docs.length) {
      LeafReaderContext leaf = leaves.get(ReaderUtil.subIndex(docs[i], leaves));
      int end = leaf.docBase + leaf.reader().maxDoc();
      FloatVectorValues values = leaf.reader().getFloatVectorValues(Schema.VECTOR);
      KnnVectorValues.DocIndexIterator it = values == null ? null : values.iterator();
      for (; i < docs.length && docs[i] < end; i++) {
        if (it == null) continue;
        int doc = docs[i] - leaf.docBase;
        if (it.docID() < doc) it.advance(doc);
        if (it.docID() != doc) continue;
        float[] v = values.vectorValue(it.index());
        if (v.length != vector.length) continue;
        dots[i] = Vectors.dot(vector, v);
        scored[i] = true;
      }
    }
    // docs ascending and a stable sort: the lower doc first among equal dots
    Integer[] order = new Integer[docs.length];
    int n = 0;
    for (int j = 0; j < docs.length; j++) if (scored[j]) order[n++] = j;
    java.util.Arrays.sort(order, 0, n, (x, y) -> Double.compare(dots[y], dots[x]));
    ScoreDoc[] out = new ScoreDoc[Math.min(k, n)];
    for (int j = 0; j < out.length; j++)
      out[j] = new ScoreDoc(docs[order[j]], (float) Math.max((1 + dots[order[j]]) / 2, 0));
    return exactly(out);
  }

  /**
   * The {@code k} best (score, doc) pairs, higher score first and the lower doc first among equal
   * scores, in a heap of primitive longs (score's sortable bits above, the inverted doc below)
   * rather than one boxed {@link ScoreDoc} per scanned vector.
   */
  static final class TopK {
    private final org.apache.lucene.util.LongHeap heap;
    private final int k;

    TopK(int k) {
      this.k = k;
      this.heap = new org.apache.lucene.util.LongHeap(k);
    }

    void offer(int doc, float score) {
      long v =
          ((long) org.apache.lucene.util.NumericUtils.floatToSortableInt(score) << 32)
              | (0xFFFFFFFFL - doc);
      if (heap.size() < k) {
        heap.push(v);
      } else if (v > heap.top()) {
        heap.updateTop(v);
      }
    }

    /** The kept pairs, best first; empties the heap. */
    ScoreDoc[] drain() {
      ScoreDoc[] out = new ScoreDoc[heap.size()];
      for (int i = out.length - 1; i >= 0; i--) {
        long v = heap.pop();
        out[i] =
            new ScoreDoc(
                (int) (0xFFFFFFFFL - (v & 0xFFFFFFFFL)),
                org.apache.lucene.util.NumericUtils.sortableIntToFloat((int) (v >>> 32)));
      }
      return out;
    }
  }
}
