package dev.mnemo.bench;

import dev.mnemo.embed.E5SmallEmbedder;
import dev.mnemo.store.lucene.LuceneMemoryStore;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.codecs.lucene103.Lucene103Codec;
import org.apache.lucene.codecs.lucene99.Lucene99HnswVectorsFormat;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.FSDirectory;

/**
 * Dense recall@50 against an exact scan, and the graph search's time, for one owner's vectors laid
 * out in segments of chosen sizes and searched with the store's rule ({@link
 * LuceneMemoryStore#graphK}) at several reaches, or with fixed asks. It isolates what the segment
 * layout does to Lucene's HNSW search (each segment is searched with a beam of its share of the
 * ask), which a store's merges decide and a benchmark store cannot choose.
 *
 * <p>The vectors are the live ones of an index the store wrote (an owner's own index of a {@link
 * BenchStore}: {@code DIR/store/owners/oN}); each layout is written once under {@code --work} with
 * the store's graph parameters (M 16, beam 100; {@code --m} and {@code --beam} try others) and no
 * merges, then asked the same questions ({@link SyntheticCorpus#questions}, embedded with
 * e5-small-v2) three times; the third pass is reported.
 *
 * <p>{@code java ... dev.mnemo.bench.GraphReachBench --index DIR --work DIR [--queries 100]
 * [--layouts 1,4,60/25/10/5] [--reach 12,18] [--fixed 300] [--limit N] [--m 16] [--beam 100]
 * [--patience 0.998/20]}: a layout is a segment count (equal segments) or the segments' whole
 * relative sizes separated by {@code /}; {@code --limit} keeps the first N vectors (a smaller
 * owner); {@code --patience} adds, for every reach, Lucene's early termination once the result
 * queue stops changing ({@code PatienceKnnVectorQuery}, saturation/patience pairs).
 */
public final class GraphReachBench {
  private GraphReachBench() {}

  private static final int K = 50;

  public static void main(String[] args) throws IOException {
    Map<String, String> o = BenchStore.options(args);
    Path index = Path.of(required(o, "index"));
    Path work = Path.of(required(o, "work"));
    int queries = positive(o.getOrDefault("queries", "100"), "--queries");
    List<String> layouts = List.of(o.getOrDefault("layouts", "1,2,4,8").split(","));
    List<Integer> reaches =
        ints(o.getOrDefault("reach", Integer.toString(LuceneMemoryStore.GRAPH_REACH)));
    List<Integer> fixed = o.containsKey("fixed") ? ints(o.get("fixed")) : List.of();
    // Lucene's early termination when the result queue stops changing (PatienceKnnVectorQuery):
    // "saturation/patience" pairs, each tried on every reach
    List<String> patience =
        o.containsKey("patience") ? List.of(o.get("patience").split(",")) : List.of();
    List<double[]> pairs = new ArrayList<>();
    for (String p : patience) pairs.add(patience(p));
    // the graph's build parameters (the store's: M 16, beam 100)
    int m = positive(o.getOrDefault("m", "16"), "--m");
    int beam = positive(o.getOrDefault("beam", "100"), "--beam");
    PrintStream out = System.out;

    List<float[]> vectors = liveVectors(index);
    if (o.containsKey("limit"))
      vectors = vectors.subList(0, Math.min(vectors.size(), positive(o.get("limit"), "--limit")));
    List<float[]> questions = new ArrayList<>();
    try (E5SmallEmbedder e5 = new E5SmallEmbedder()) {
      for (String q : SyntheticCorpus.questions(queries, 43)) questions.add(e5.embedQuery(q));
    }
    List<Set<Integer>> exact = new ArrayList<>();
    for (float[] q : questions) exact.add(exactTop(vectors, q));
    out.printf(Locale.ROOT, "%,d vectors, %d questions, k %d%n", vectors.size(), queries, K);

    for (String layout : layouts) {
      int[] sizes = sizes(layout, vectors.size());
      String built = m == 16 && beam == 100 ? "" : "-m" + m + "-b" + beam;
      Path dir = work.resolve("layout-" + vectors.size() + "-" + layout.replace('/', '_') + built);
      if (!Files.exists(dir.resolve("done"))) write(dir, vectors, sizes, m, beam);
      try (var d = FSDirectory.open(dir);
          DirectoryReader r = DirectoryReader.open(d)) {
        IndexSearcher s = new IndexSearcher(r);
        s.setQueryCache(null);
        int[] original = new int[r.maxDoc()];
        for (LeafReaderContext leaf : r.leaves()) {
          var stored = leaf.reader().storedFields();
          for (int i = 0; i < leaf.reader().maxDoc(); i++)
            original[leaf.docBase + i] = stored.document(i).getField("i").numericValue().intValue();
        }
        List<String> names = new ArrayList<>();
        List<Integer> asks = new ArrayList<>();
        List<double[]> patient = new ArrayList<>(); // {saturation, patience} or null
        for (int reach : reaches) {
          names.add("reach " + reach);
          asks.add(LuceneMemoryStore.graphK(r, K, reach));
          patient.add(null);
          for (int i = 0; i < pairs.size(); i++) {
            names.add("reach " + reach + " patience " + patience.get(i).trim());
            asks.add(LuceneMemoryStore.graphK(r, K, reach));
            patient.add(pairs.get(i));
          }
        }
        for (int ask : fixed) {
          names.add("fixed");
          asks.add(ask);
          patient.add(null);
        }
        for (int round = 0; round < 3; round++) {
          for (int v = 0; v < asks.size(); v++) {
            double recall = 0;
            long[] t = new long[questions.size()];
            for (int i = 0; i < questions.size(); i++) {
              long t0 = System.nanoTime();
              KnnFloatVectorQuery knn =
                  new KnnFloatVectorQuery("vec", questions.get(i), asks.get(v));
              double[] pt = patient.get(v);
              TopDocs td =
                  pt == null
                      ? s.search(knn, K)
                      : s.search(
                          org.apache.lucene.search.PatienceKnnVectorQuery.fromFloatQuery(
                              knn, pt[0], (int) pt[1]),
                          K);
              t[i] = System.nanoTime() - t0;
              int hit = 0;
              for (ScoreDoc sd : td.scoreDocs) if (exact.get(i).contains(original[sd.doc])) hit++;
              recall += hit / (double) K;
            }
            if (round < 2) continue;
            Arrays.sort(t);
            out.printf(
                Locale.ROOT,
                "layout %s (%d segments, effective %.2f): %s, ask %d: recall@50 %.3f, p50 %.2f ms%n",
                layout,
                r.leaves().size(),
                effective(r),
                names.get(v),
                asks.get(v),
                recall / questions.size(),
                t[t.length / 2] / 1e6);
          }
        }
      }
    }
    out.println("load average at end " + ReadPathBench.loadAverage());
  }

  private static String required(Map<String, String> o, String key) {
    String v = o.get(key);
    if (v == null) throw new IllegalArgumentException("--" + key + " is required");
    return v;
  }

  private static List<Integer> ints(String csv) {
    return Arrays.stream(csv.split(",")).map(String::trim).map(x -> positive(x, csv)).toList();
  }

  /** A whole number of at least 1, or an error naming the value and where it was given. */
  private static int positive(String value, String given) {
    try {
      int n = Integer.parseInt(value.trim());
      if (n >= 1) return n;
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(
        "expected a whole number of at least 1, got \"" + value + "\" in \"" + given + "\"");
  }

  /**
   * A "saturation/patience" pair of {@code --patience}: a saturation above 0 and at most 1, a
   * patience of at least 1; or an error naming the value.
   */
  private static double[] patience(String pair) {
    String[] sp = pair.trim().split("/");
    double saturation = Double.NaN;
    try {
      if (sp.length == 2) saturation = Double.parseDouble(sp[0].trim());
    } catch (NumberFormatException e) {
      // reported below
    }
    if (!(saturation > 0 && saturation <= 1))
      throw new IllegalArgumentException(
          "--patience takes saturation/patience pairs with a saturation in (0, 1], such as"
              + " 0.998/20; got \""
              + pair
              + "\"");
    return new double[] {saturation, positive(sp[1], pair)};
  }

  private static double effective(DirectoryReader r) {
    double sum = 0;
    for (LeafReaderContext leaf : r.leaves()) {
      double share = leaf.reader().maxDoc() / (double) r.maxDoc();
      sum += share * share;
    }
    return 1 / sum;
  }

  /** Segment sizes for a layout: a count of equal segments, or relative sizes "60/25/10/5". */
  static int[] sizes(String layout, int total) {
    double[] weights;
    if (layout.contains("/")) {
      weights = Arrays.stream(layout.split("/")).mapToDouble(w -> positive(w, layout)).toArray();
    } else {
      weights = new double[positive(layout, layout)];
      Arrays.fill(weights, 1);
    }
    if (weights.length > total)
      throw new IllegalArgumentException(
          "layout " + layout + " has more segments than the " + total + " vectors");
    double sum = Arrays.stream(weights).sum();
    int[] sizes = new int[weights.length];
    int given = 0;
    for (int i = 0; i < sizes.length; i++) {
      sizes[i] = (int) Math.round(total * weights[i] / sum);
      given += sizes[i];
    }
    sizes[sizes.length - 1] += total - given;
    return sizes;
  }

  private static List<float[]> liveVectors(Path index) throws IOException {
    List<float[]> all = new ArrayList<>();
    try (var d = FSDirectory.open(index);
        DirectoryReader r = DirectoryReader.open(d)) {
      for (LeafReaderContext leaf : r.leaves()) {
        FloatVectorValues v = leaf.reader().getFloatVectorValues("vec");
        if (v == null) continue;
        var live = leaf.reader().getLiveDocs();
        var it = v.iterator();
        for (int doc = it.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = it.nextDoc())
          if (live == null || live.get(doc)) all.add(v.vectorValue(it.index()).clone());
      }
    }
    if (all.isEmpty()) throw new IllegalArgumentException("no vectors in " + index);
    return all;
  }

  private static Set<Integer> exactTop(List<float[]> vectors, float[] q) {
    Integer[] order = new Integer[vectors.size()];
    float[] score = new float[vectors.size()];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
      score[i] = org.apache.lucene.util.VectorUtil.dotProduct(q, vectors.get(i));
    }
    Arrays.sort(order, (a, b) -> Float.compare(score[b], score[a]));
    return new HashSet<>(Arrays.asList(order).subList(0, Math.min(K, order.length)));
  }

  /** The vectors in segments of these sizes, with the given graph parameters, never merged. */
  private static void write(Path dir, List<float[]> vectors, int[] sizes, int m, int beam)
      throws IOException {
    KnnVectorsFormat format = new Lucene99HnswVectorsFormat(m, beam);
    IndexWriterConfig cfg =
        new IndexWriterConfig()
            .setCodec(
                new Lucene103Codec() {
                  @Override
                  public KnnVectorsFormat getKnnVectorsFormatForField(String field) {
                    return format;
                  }
                })
            .setMergePolicy(NoMergePolicy.INSTANCE)
            .setRAMBufferSizeMB(1024)
            .setMaxBufferedDocs(vectors.size() + 1);
    try (var d = FSDirectory.open(dir);
        IndexWriter w = new IndexWriter(d, cfg)) {
      int i = 0;
      for (int size : sizes) {
        for (int j = 0; j < size; j++, i++) {
          Document doc = new Document();
          doc.add(
              new KnnFloatVectorField("vec", vectors.get(i), VectorSimilarityFunction.DOT_PRODUCT));
          doc.add(new StoredField("i", i));
          w.addDocument(doc);
        }
        w.flush();
      }
      w.commit();
    }
    Files.createFile(dir.resolve("done"));
  }
}
