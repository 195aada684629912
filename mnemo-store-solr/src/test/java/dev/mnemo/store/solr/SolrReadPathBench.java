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
 *
 * <p>{@code --compare CLASS} measures another {@link dev.mnemo.spi.MemoryStore} class with {@link
 * SolrMemoryStore}'s constructor {@code (SolrClient, boolean, String, String, int)} (an earlier
 * version compiled beside this one, for a before/after) on the same collection, alternating the two
 * call by call, each series under its own name.
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
    String compare = a.get("compare");
    int replicas = Integer.parseInt(a.getOrDefault("replicas", "1"));
    // the embedded store's `mnemo bench --json` report of the same corpus (bin/solr-bench): the
    // last line printed is then the side-by-side JSON object
    Map<Integer, double[]> embedded =
        a.containsKey("embedded")
            ? embeddedRecallAlone(java.nio.file.Path.of(a.get("embedded")))
            : Map.of();
    List<String> summary = new ArrayList<>();
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
        cluster.createCollection(collection, shards, replicas, e5.dimension());
        CountingSolrClient counting =
            new CountingSolrClient(SolrStoreProvider.client(Map.of("zk", cluster.zk())));
        try (SolrMemoryStore store =
            new SolrMemoryStore(
                counting,
                true,
                collection,
                SolrMemoryStore.DEFAULT_TENANT,
                SolrMemoryStore.EXACT_SCAN_MAX)) {
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
          long bytes = cluster.indexBytes(collection);
          System.out.printf(
              Locale.ROOT,
              "index on disk: %,d bytes over %d replica(s) of each shard (%,.0f bytes a record a replica)%n",
              bytes,
              replicas,
              bytes / (double) total / replicas);
          System.out.println(Stats.header());
          java.util.List<dev.mnemo.spi.MemoryStore> stores = new ArrayList<>();
          java.util.List<String> names = new ArrayList<>();
          if (compare != null) {
            stores.add(other(compare, cluster, collection));
            names.add("before");
          }
          stores.add(store);
          names.add(compare == null ? "" : "after");
          List<Mnemo> engines = new ArrayList<>();
          Embedder fixed = fixedVectors(queryVectors, e5);
          for (dev.mnemo.spi.MemoryStore s : stores) {
            // not closed: it would close the store, which is closed once below
            engines.add(
                Mnemo.builder()
                    .store(s)
                    .embedder(fixed)
                    .tokenizer(JTokkitTokenizer.cl100k())
                    .clock(InstantSource.fixed(SyntheticCorpus.NOW))
                    .build());
          }
          for (int h : hot) {
            String owner = "hot-" + h;
            long[] at = {SyntheticCorpus.NOW.toEpochMilli()};
            List<Stats> candidates =
                alternate(
                    String.format(Locale.ROOT, "store candidates, %,d/owner", h),
                    names,
                    warmup,
                    samples,
                    (k, i) -> {
                      String q = questions.get(i % questions.size());
                      stores
                          .get(k)
                          .candidates(
                              new CandidateQuery(
                                  Eligibility.current(owner, Instant.ofEpochMilli(at[0] += 1000)),
                                  queryVectors.get(q),
                                  q,
                                  Set.copyOf(Entities.queryKeys(q)),
                                  null,
                                  50));
                    });
            for (Stats st : candidates) System.out.println(st.line());
            List<Stats> recall =
                alternate(
                    String.format(Locale.ROOT, "recall alone, %,d/owner", h),
                    names,
                    warmup,
                    samples,
                    (k, i) -> {
                      String q = questions.get(i % questions.size());
                      engines
                          .get(k)
                          .recall(
                              RecallRequest.builder(owner, q)
                                  .askedAt(Instant.ofEpochMilli(at[0] += 1000))
                                  .build());
                    });
            for (Stats st : recall) System.out.println(st.line());
            // requests per recall, counted on the client over one more pass of the questions
            // (untimed; every request a SolrJ call, one HTTP request to a node)
            int counted = Math.min(questions.size(), samples);
            int before = counting.requests.get();
            for (int i = 0; i < counted; i++) {
              engines
                  .get(engines.size() - 1)
                  .recall(
                      RecallRequest.builder(owner, questions.get(i))
                          .askedAt(Instant.ofEpochMilli(at[0] += 1000))
                          .build());
            }
            double perRecall = (counting.requests.get() - before) / (double) counted;
            System.out.printf(
                Locale.ROOT, "  requests per recall, %,d/owner: %.2f%n", h, perRecall);
            Stats solr = recall.get(recall.size() - 1);
            double[] emb = embedded.get(h);
            if (emb != null) {
              summary.add(
                  String.format(
                      Locale.ROOT,
                      "{\"per_owner\": %d, \"shards\": %d, \"fill_records_per_s\": %.0f, \"index_bytes_per_record\": %.0f, \"solr_p50_ms\": %.3f, \"solr_p99_ms\": %.3f, "
                          + "\"embedded_p50_ms\": %.3f, \"embedded_p99_ms\": %.3f, \"ratio_p50\": %.2f, "
                          + "\"ratio_p99\": %.2f, \"requests_per_recall\": %.2f}",
                      h,
                      shards,
                      total / fillSecs,
                      bytes / (double) total / replicas,
                      solr.p50Millis(),
                      solr.p99Millis(),
                      emb[0],
                      emb[1],
                      solr.p50Millis() / emb[0],
                      solr.p99Millis() / emb[1],
                      perRecall));
            }
          }
          for (int k = 0; k + 1 < stores.size(); k++) stores.get(k).close();
        }
      }
    }
    if (!embedded.isEmpty()) {
      System.out.printf(
          Locale.ROOT,
          "{\"records\": %d, \"nodes\": %d, \"replicas\": %d, \"owners\": [%s]}%n",
          total,
          nodes,
          replicas,
          String.join(", ", summary));
    }
    System.out.flush();
    // MiniSolrCloudCluster leaves non-daemon threads behind
    System.exit(0);
  }

  /**
   * Recall alone's p50 and p99 (ms) per hot owner size from {@code mnemo bench --json}'s report:
   * its {@code "hot"} entries, each {@code
   * {"records":N,"recall_alone":{...,"p50_ms":..,"p99_ms":..}}} (a pattern over that one known
   * shape, not a JSON parser: the bench's own output).
   */
  static Map<Integer, double[]> embeddedRecallAlone(java.nio.file.Path report)
      throws java.io.IOException {
    String json = java.nio.file.Files.readString(report).strip();
    json = json.substring(json.lastIndexOf("\n") + 1); // the report is the last line
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile(
                "\\{\"records\":(\\d+),\"recall_alone\":\\{[^}]*\"p50_ms\":([0-9.]+)[^}]*\"p99_ms\":([0-9.]+)")
            .matcher(json);
    Map<Integer, double[]> out = new LinkedHashMap<>();
    while (m.find()) {
      out.put(
          Integer.parseInt(m.group(1)),
          new double[] {Double.parseDouble(m.group(2)), Double.parseDouble(m.group(3))});
    }
    if (out.isEmpty())
      throw new IllegalArgumentException(
          "no hot owner's recall_alone in " + report + ": is it `mnemo bench --json`'s output?");
    return out;
  }

  interface Call {
    void run(int store, int i);
  }

  /**
   * {@code warmup} untimed then {@code samples} timed calls of each store, alternating call by call
   * (the first store first on even calls, last on odd ones), so that load on the machine falls on
   * every series alike.
   */
  private static List<Stats> alternate(
      String name, List<String> names, int warmup, int samples, Call call) {
    int n = names.size();
    for (int i = 0; i < warmup; i++) for (int k = 0; k < n; k++) call.run(k, i);
    long[][] t = new long[n][samples];
    long[] cpu = new long[n];
    for (int i = 0; i < samples; i++) {
      for (int j = 0; j < n; j++) {
        int k = i % 2 == 0 ? j : n - 1 - j;
        long c0 = cpuTicks();
        long t0 = System.nanoTime();
        call.run(k, warmup + i);
        t[k][i] = System.nanoTime() - t0;
        cpu[k] += cpuTicks() - c0;
      }
    }
    List<Stats> out = new ArrayList<>();
    for (int k = 0; k < n; k++) {
      String series = names.get(k).isEmpty() ? name : name + " (" + names.get(k) + ")";
      out.add(Stats.of(series, t[k]));
      // the whole JVM's CPU (client, both nodes, ZooKeeper): what one call costs the machine,
      // which a loaded machine does not inflate as it does wall time
      System.out.printf(
          Locale.ROOT,
          "  CPU %s: %.1f ms a call (process CPU time, %d ms ticks)%n",
          series,
          cpu[k] * TICK_MS / (double) samples,
          TICK_MS);
    }
    return out;
  }

  /** Linux's USER_HZ tick of {@code /proc/self/stat}'s CPU times, in milliseconds. */
  static final int TICK_MS = 10;

  /**
   * User plus system CPU time of every thread of this process so far, in ticks ({@code
   * /proc/self/stat} fields 14 and 15); 0 where there is no such file.
   */
  static long cpuTicks() {
    try {
      String stat =
          java.nio.file.Files.readString(
              java.nio.file.Path.of("/proc/self/stat"), java.nio.charset.StandardCharsets.UTF_8);
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      // after "pid (comm) ", field 3 (state) is f[0]: utime (14) is f[11], stime (15) f[12]
      return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    } catch (java.io.IOException | RuntimeException e) {
      return 0;
    }
  }

  /** A store of class {@code className} on {@code collection}, with its own client. */
  private static dev.mnemo.spi.MemoryStore other(
      String className, TestCluster cluster, String collection) throws Exception {
    return (dev.mnemo.spi.MemoryStore)
        Class.forName(className)
            .getConstructor(
                org.apache.solr.client.solrj.SolrClient.class,
                boolean.class,
                String.class,
                String.class,
                int.class)
            .newInstance(
                SolrStoreProvider.client(Map.of("zk", cluster.zk())),
                true,
                collection,
                SolrMemoryStore.DEFAULT_TENANT,
                SolrMemoryStore.EXACT_SCAN_MAX);
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
