package dev.mnemo.store.solr;

import dev.mnemo.MemoryRecord;
import dev.mnemo.Mnemo;
import dev.mnemo.RecallRequest;
import dev.mnemo.bench.Stats;
import dev.mnemo.bench.SyntheticCorpus;
import dev.mnemo.embed.E5SmallEmbedder;
import dev.mnemo.spi.CandidateQuery;
import dev.mnemo.spi.Eligibility;
import dev.mnemo.spi.Embedder;
import dev.mnemo.text.Entities;
import dev.mnemo.text.JTokkitTokenizer;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * The read-path benchmark on SolrCloud: a local cluster of {@code --nodes} nodes (embedded
 * ZooKeeper, every node in this JVM, on loopback), one collection per shard count in {@code
 * --shards} (replication factor 1), each filled with the same {@code --total} synthetic records of
 * mnemo-bench's corpus (hot owners of 1% and 10% of the records, the rest over {@code total/100}
 * owners, interleaved), then per hot owner: the store's {@code candidates()} with every signal as
 * the read path asks (vector, text, query entities; 50 per signal) and recall alone (the engine
 * with a precomputed query vector), {@code --warmup} untimed then {@code --samples} timed calls
 * over 200 questions, each asked one second after the previous (so no cache serves a time filter
 * twice). Single-threaded latencies. Not a test: run with this module's test class path, {@code
 * java -Xmx3g -cp ... dev.mnemo.store.solr.SolrReadPathBench --total 100000 --shards 1,2,4}.
 * Measures only: no sleeps, nothing hard-coded, no pass/fail.
 */
public final class SolrReadPathBench {
  private SolrReadPathBench() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> a = new HashMap<>();
    for (int i = 0; i + 1 < args.length; i += 2)
      a.put(args[i].replaceFirst("^--", ""), args[i + 1]);
    int total = Integer.parseInt(a.getOrDefault("total", "100000"));
    int nodes = Integer.parseInt(a.getOrDefault("nodes", "2"));
    int samples = Integer.parseInt(a.getOrDefault("samples", "300"));
    int warmup = Integer.parseInt(a.getOrDefault("warmup", "75"));
    int batch = Integer.parseInt(a.getOrDefault("batch", "2000"));
    List<Integer> shardCounts = new ArrayList<>();
    for (String s : a.getOrDefault("shards", "2").split(","))
      shardCounts.add(Integer.parseInt(s.trim()));
    long seed = 42;

    List<Integer> hot = List.of(total / 100, total / 10);
    String[] ownerOf = owners(total, hot, Math.max(1, total / 100), seed);
    List<String> questions = SyntheticCorpus.questions(200, seed + 1);
    try (E5SmallEmbedder e5 = new E5SmallEmbedder();
        TestCluster cluster = TestCluster.start(nodes)) {
      Map<String, float[]> queryVectors = new LinkedHashMap<>();
      for (String q : questions) queryVectors.put(q, e5.embedQuery(q));
      System.out.printf(
          Locale.ROOT,
          "SolrCloud read path: %,d records, %d nodes, shards %s, %d samples after %d warm-up%n",
          total,
          nodes,
          shardCounts,
          samples,
          warmup);
      for (int shards : shardCounts) {
        String collection = "bench-" + shards;
        cluster.createCollection(collection, shards, 1, e5.dimension());
        try (SolrMemoryStore store = cluster.store(collection)) {
          SyntheticCorpus corpus = new SyntheticCorpus(seed, e5);
          long start = System.nanoTime();
          List<MemoryRecord> pending = new ArrayList<>(batch);
          for (int i = 0; i < total; i++) {
            pending.add(corpus.record(ownerOf[i]));
            if (pending.size() == batch || i == total - 1) {
              store.apply(pending, List.of());
              pending.clear();
            }
          }
          double fillSecs = (System.nanoTime() - start) / 1e9;
          System.out.printf(
              Locale.ROOT,
              "%n%d shard(s): filled %,d records in %.0f s (%,.0f records/s, batches of %,d)%n",
              shards,
              store.count(),
              fillSecs,
              total / fillSecs,
              batch);
          System.out.println(Stats.header());
          for (int h : hot) {
            String owner = "hot-" + h;
            long[] at = {SyntheticCorpus.NOW.toEpochMilli()};
            Stats candidates =
                time(
                    String.format(Locale.ROOT, "store candidates, %,d/owner", h),
                    warmup,
                    samples,
                    i -> {
                      String q = questions.get(i % questions.size());
                      store.candidates(
                          new CandidateQuery(
                              Eligibility.current(owner, Instant.ofEpochMilli(at[0] += 1000)),
                              queryVectors.get(q),
                              q,
                              Set.copyOf(Entities.queryKeys(q)),
                              null,
                              50));
                    });
            System.out.println(candidates.line());
            Embedder fixed = fixedVectors(queryVectors, e5);
            // not closed: it would close the store, which the try closes once
            Mnemo engine =
                Mnemo.builder()
                    .store(store)
                    .embedder(fixed)
                    .tokenizer(JTokkitTokenizer.cl100k())
                    .clock(InstantSource.fixed(SyntheticCorpus.NOW))
                    .build();
            Stats recall =
                time(
                    String.format(Locale.ROOT, "recall alone, %,d/owner", h),
                    warmup,
                    samples,
                    i -> {
                      String q = questions.get(i % questions.size());
                      engine.recall(
                          RecallRequest.builder(owner, q)
                              .askedAt(Instant.ofEpochMilli(at[0] += 1000))
                              .build());
                    });
            System.out.println(recall.line());
          }
        }
      }
    }
  }

  interface Call {
    void run(int i);
  }

  private static Stats time(String name, int warmup, int samples, Call call) {
    for (int i = 0; i < warmup; i++) call.run(i);
    long[] t = new long[samples];
    for (int i = 0; i < samples; i++) {
      long t0 = System.nanoTime();
      call.run(warmup + i);
      t[i] = System.nanoTime() - t0;
    }
    return Stats.of(name, t);
  }

  /**
   * Which owner each record index belongs to: exact counts per owner, in a seeded random order; the
   * order of mnemo-bench's {@code BenchStore.owners}, which this class cannot call (BenchStore
   * links the Lucene store, kept off this class path).
   */
  static String[] owners(int total, List<Integer> hot, int others, long seed) {
    String[] out = new String[total];
    int i = 0;
    for (int h : hot) for (int n = 0; n < h; n++) out[i++] = "hot-" + h;
    for (int n = 0; i < total; n++) out[i++] = String.format(Locale.ROOT, "user-%06d", n % others);
    SplittableRandom r = new SplittableRandom(seed * 31 + 7);
    for (int j = out.length - 1; j > 0; j--) {
      int k = r.nextInt(j + 1);
      String t = out[j];
      out[j] = out[k];
      out[k] = t;
    }
    return out;
  }

  /**
   * An embedder that answers each question with its precomputed vector (recall without embedding);
   * passages (the engine's one-off calibration bank) go to the real model.
   */
  private static Embedder fixedVectors(Map<String, float[]> vectors, Embedder model) {
    return new Embedder() {
      @Override
      public String modelId() {
        return model.modelId();
      }

      @Override
      public int dimension() {
        return model.dimension();
      }

      @Override
      public float[] embedQuery(String text) {
        return vectors.get(text);
      }

      @Override
      public List<float[]> embedPassages(List<String> texts) {
        return model.embedPassages(texts);
      }

      @Override
      public double unrelatedSimilarity() {
        return model.unrelatedSimilarity();
      }
    };
  }
}
