package dev.mnemo.bench;

import dev.mnemo.MemoryRecord;
import dev.mnemo.Mnemo;
import dev.mnemo.RecallResult;
import dev.mnemo.embed.E5SmallEmbedder;
import dev.mnemo.spi.Candidate;
import dev.mnemo.spi.CandidateQuery;
import dev.mnemo.spi.CandidateSet;
import dev.mnemo.spi.Eligibility;
import dev.mnemo.spi.Embedder;
import dev.mnemo.spi.MemoryStore;
import dev.mnemo.store.lucene.LuceneMemoryStore;
import dev.mnemo.store.lucene.VectorFormat;
import dev.mnemo.text.JTokkitTokenizer;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.IntConsumer;

/**
 * The store laid out for owners against one shared index, in one run on the same records: the
 * {@link BenchStore} store opened as one shared index, and a copy of it opened with every hot owner
 * above {@code --above} records moved to a partition of their own. For each hot owner, {@code
 * candidates()} (every signal, as the read path asks) and recall alone (precomputed query vectors)
 * on each layout, the four series alternating call by call.
 *
 * <p>The layouts do not give identical answers, by design: BM25 statistics are per index (an owner
 * with their own partition is scored against their own records), and the HNSW graph of an owner's
 * own index is another graph. So before timing the run reports how far the answers agree: the dense
 * candidates (identical when both layouts scan exactly), the candidate sets, the records a recall
 * selects, and the dense recall@50 of each layout against an exact scan of the owner's eligible
 * vectors.
 *
 * <p>{@code --vectors float32,int7,bbq} lays out one copy per {@link VectorFormat} of the owners'
 * own indexes (default {@code float32} only) and measures them all in the same alternation; the
 * agreement of each quantized copy is reported against the first copy.
 *
 * <p>{@code java ... dev.mnemo.bench.PartitionBench --dir DIR --total N [--hot H,H] [--owners M]
 * [--above A] [--vectors F,F] [--queries Q] [--warmup W] [--samples S] [--seed S] [--probe-reach
 * X,X] [--reuse-copy true]}
 */
public final class PartitionBench {
  private PartitionBench() {}

  public static void main(String[] args) throws IOException {
    Map<String, String> o = BenchStore.options(args);
    Path dir = Path.of(o.getOrDefault("dir", ".mnemo/bench"));
    BenchStore.Layout layout = BenchStore.layout(o);
    List<Integer> hot = layout.hot();
    long above = Long.parseLong(o.getOrDefault("above", "5000"));
    int queries = Integer.parseInt(o.getOrDefault("queries", "200"));
    int samples = Integer.parseInt(o.getOrDefault("samples", "300"));
    int warmup = Integer.parseInt(o.getOrDefault("warmup", Integer.toString(samples / 4)));
    long seed = layout.seed();
    PrintStream out = System.out;
    try (E5SmallEmbedder embedder = new E5SmallEmbedder()) {
      BenchStore.Opened opened =
          BenchStore.openOrBuild(
              dir, layout, embedder, 10_000, out, LuceneMemoryStore.Layout.SHARED);
      boolean reuse = Boolean.parseBoolean(o.getOrDefault("reuse-copy", "false"));
      List<VectorFormat> formats =
          Arrays.stream(o.getOrDefault("vectors", "float32").split(","))
              .map(VectorFormat::forName)
              .toList();
      try (LuceneMemoryStore shared = opened.store()) {
        List<LuceneMemoryStore> parted = new ArrayList<>();
        List<String> names = new ArrayList<>();
        try {
          for (VectorFormat f : formats) {
            // "parted" for float32: the folder earlier runs wrote, so --reuse-copy still finds it
            Path copy =
                dir.resolve(f == VectorFormat.FLOAT32 ? "parted" : "parted-" + f.configName());
            if (!(reuse && Files.isDirectory(copy))) {
              BenchStore.deleteRecursively(copy);
              copyTree(dir.resolve("store"), copy);
            }
            long t = System.nanoTime();
            LuceneMemoryStore p =
                LuceneMemoryStore.open(
                    copy, new LuceneMemoryStore.Layout(above, 8).withPartitionVectors(f));
            p.awaitMoves(); // the moves run in the background
            parted.add(p);
            names.add("own partition " + f.configName());
            out.printf(
                Locale.ROOT,
                "opened a copy with owners above %,d records in their own partition (%s vectors): %.1f s"
                    + " to move them; %,d and %,d records; %,d and %,d bytes on disk%n",
                above,
                f.configName(),
                (System.nanoTime() - t) / 1e9,
                shared.count(),
                p.count(),
                shared.sizeOnDisk(),
                p.sizeOnDisk());
          }
          if (o.containsKey("probe-reach")) {
            probe(
                shared,
                parted,
                names,
                embedder,
                hot,
                queries,
                Arrays.stream(o.get("probe-reach").split(","))
                    .map(String::trim)
                    .map(Integer::valueOf)
                    .toList(),
                seed,
                out);
          } else {
            run(shared, parted, names, embedder, hot, queries, warmup, samples, seed, out);
          }
        } finally {
          for (LuceneMemoryStore p : parted) p.close();
        }
      }
    }
  }

  private static void copyTree(Path from, Path to) {
    try (var files = Files.walk(from)) {
      for (Path f : files.toList()) {
        Path target = to.resolve(from.relativize(f).toString());
        if (Files.isDirectory(f)) Files.createDirectories(target);
        else if (!f.getFileName().toString().equals("write.lock")) Files.copy(f, target);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static void run(
      LuceneMemoryStore shared,
      List<LuceneMemoryStore> parted,
      List<String> partedNames,
      Embedder embedder,
      List<Integer> hot,
      int queries,
      int warmup,
      int samples,
      long seed,
      PrintStream out) {
    List<String> questions = SyntheticCorpus.questions(queries, seed + 1);
    Map<String, float[]> vectors = new HashMap<>();
    for (String q : questions) vectors.putIfAbsent(q, embedder.embedQuery(q));
    // before: the shared index (its graph, when an owner there is large enough to need it, is
    // asked for 6 × k: runs before 2026-12-03 asked it for k); after: the owner's own index
    List<MemoryStore> stores = new ArrayList<>();
    stores.add(new ReadPathBench.Unclosed(shared));
    for (LuceneMemoryStore p : parted) stores.add(new ReadPathBench.Unclosed(p));
    List<String> layouts = new ArrayList<>();
    layouts.add("shared index (before)");
    layouts.addAll(partedNames);
    InstantSource clock = InstantSource.fixed(SyntheticCorpus.NOW);
    Embedder precomputed = new ReadPathBench.Precomputed(embedder, vectors);
    List<Mnemo> engines =
        stores.stream()
            .map(
                s ->
                    Mnemo.builder()
                        .store(s)
                        .embedder(precomputed)
                        .tokenizer(JTokkitTokenizer.cl100k())
                        .clock(clock)
                        .build())
            .toList();
    // the full read path (the query embedded by the model) on the first own partition, the query
    // embedded first or while the store searches BM25, entities and time (parallel signals)
    List<Mnemo> full = new ArrayList<>();
    for (boolean parallel : new boolean[] {false, true}) {
      full.add(
          Mnemo.builder()
              .store(stores.get(1))
              .embedder(embedder)
              .tokenizer(JTokkitTokenizer.cl100k())
              .clock(clock)
              .parallelSignals(parallel)
              .build());
    }
    ReadPathBench.Ticker ticker = new ReadPathBench.Ticker();
    out.printf(
        Locale.ROOT,
        "partitions: %,d records, %d questions, %d warm-up + %d timed calls per series, load average %s%n",
        shared.count(),
        questions.size(),
        warmup,
        samples,
        ReadPathBench.loadAverage());
    for (int h : hot) {
      String owner = BenchStore.hotOwner(h);
      String tag = String.format(Locale.ROOT, "%,d/owner", h);
      // the shared index against the first own partition, then that one against each other format
      for (int v = 1; v < stores.size(); v++) {
        int a = v == 1 ? 0 : 1;
        agreement(
            owner,
            layouts.get(a),
            layouts.get(v),
            List.of(stores.get(a), stores.get(v)),
            List.of(engines.get(a), engines.get(v)),
            questions,
            vectors,
            ticker,
            out);
      }
      int n = stores.size();
      List<String> names = new ArrayList<>();
      List<IntConsumer> calls = new ArrayList<>();
      for (int v = 0; v < n; v++) {
        MemoryStore s = stores.get(v);
        names.add("candidates, " + layouts.get(v) + ", " + tag);
        calls.add(
            i ->
                s.candidates(
                    LeverBench.query(
                        owner, questions.get(i), vectors.get(questions.get(i)), ticker.next())));
      }
      for (int v = 0; v < n; v++) {
        Mnemo m = engines.get(v);
        names.add("recall alone, " + layouts.get(v) + ", " + tag);
        calls.add(
            i -> m.recall(ReadPathBench.request(owner, questions.get(i), ticker.next(), false)));
      }
      String[] modes = {"sequential", "parallel signals"};
      for (int v = 0; v < 2; v++) {
        Mnemo m = full.get(v);
        names.add("full read path, " + layouts.get(1) + ", " + modes[v] + ", " + tag);
        calls.add(
            i -> m.recall(ReadPathBench.request(owner, questions.get(i), ticker.next(), false)));
      }
      sameAnswers(owner, full, questions, ticker, out);
      Stats[] stats = LeverBench.interleaved(questions.size(), warmup, samples, calls);
      out.println(Stats.header());
      for (int k = 0; k < stats.length; k++) {
        stats[k] = stats[k].named(names.get(k));
        out.println(stats[k].line());
      }
      for (int v = 1; v < n; v++) {
        int a = v == 1 ? 0 : 1;
        out.printf(
            Locale.ROOT,
            "ratios (%s / %s): candidates p50 %.2f p99 %.2f; recall alone p50 %.2f p99 %.2f"
                + " (load average %s)%n",
            layouts.get(a),
            layouts.get(v),
            ratio(stats[a].p50Nanos(), stats[v].p50Nanos()),
            ratio(stats[a].p99Nanos(), stats[v].p99Nanos()),
            ratio(stats[n + a].p50Nanos(), stats[n + v].p50Nanos()),
            ratio(stats[n + a].p99Nanos(), stats[n + v].p99Nanos()),
            ReadPathBench.loadAverage());
      }
      out.printf(
          Locale.ROOT,
          "ratio (sequential / parallel signals), full read path: p50 %.2f p99 %.2f (load average"
              + " %s)%n",
          ratio(stats[2 * n].p50Nanos(), stats[2 * n + 1].p50Nanos()),
          ratio(stats[2 * n].p99Nanos(), stats[2 * n + 1].p99Nanos()),
          ReadPathBench.loadAverage());
    }
    out.println("load average at end " + ReadPathBench.loadAverage());
  }

  /**
   * Dense alone (k = 50) on the shared index and each laid-out copy, for each graph reach of
   * owners' own indexes ({@link LuceneMemoryStore.ReadOptions#graphReach}; the shared index's ask
   * is fixed): recall@50 against an exact scan and the median time, stores and factors alternating
   * call by call.
   */
  static void probe(
      LuceneMemoryStore shared,
      List<LuceneMemoryStore> parted,
      List<String> partedNames,
      Embedder embedder,
      List<Integer> hot,
      int queries,
      List<Integer> factors,
      long seed,
      PrintStream out) {
    List<String> questions = SyntheticCorpus.questions(queries, seed + 1);
    Map<String, float[]> vectors = new HashMap<>();
    for (String q : questions) vectors.putIfAbsent(q, embedder.embedQuery(q));
    List<LuceneMemoryStore> stores = new ArrayList<>();
    stores.add(shared);
    stores.addAll(parted);
    List<String> layouts = new ArrayList<>();
    layouts.add("shared index");
    layouts.addAll(partedNames);
    int m = stores.size();
    out.printf(
        Locale.ROOT,
        "dense alone, k = 50, %d questions, load average %s%n",
        questions.size(),
        ReadPathBench.loadAverage());
    for (int h : hot) {
      String owner = BenchStore.hotOwner(h);
      List<MemoryRecord> records = new ArrayList<>();
      shared.export(owner, records::add);
      Eligibility e = Eligibility.current(owner, SyntheticCorpus.NOW);
      List<List<String>> exact = new ArrayList<>();
      for (String q : questions) exact.add(exactTop(records, e, vectors.get(q), 50));
      int n = factors.size() * m;
      double[] recall = new double[n];
      long[][] t = new long[n][questions.size()];
      List<MemoryStore> views = new ArrayList<>();
      for (int k = 0; k < n; k++) {
        views.add(
            stores
                .get(k % m)
                .withReadOptions(
                    new LuceneMemoryStore.ReadOptions(true, true, factors.get(k / m))));
      }
      for (int round = 0; round < 2; round++) {
        for (int i = 0; i < questions.size(); i++) {
          CandidateQuery cq =
              new CandidateQuery(e, vectors.get(questions.get(i)), null, Set.of(), null, 50);
          for (int k = 0; k < n; k++) {
            long t0 = System.nanoTime();
            Set<String> got = ids(views.get(k).candidates(cq));
            t[k][i] = System.nanoTime() - t0;
            if (round == 1) {
              List<String> want = exact.get(i);
              recall[k] +=
                  want.isEmpty()
                      ? 1
                      : (double) want.stream().filter(got::contains).count() / want.size();
            }
          }
        }
      }
      for (int k = 0; k < n; k++) {
        out.printf(
            Locale.ROOT,
            "%s, %s, graph reach %d: dense recall@50 against exact %.3f, p50 %.2f ms%n",
            owner,
            layouts.get(k % m),
            factors.get(k / m),
            recall[k] / questions.size(),
            Stats.of("", t[k]).p50Nanos() / 1e6);
      }
    }
    out.println("load average at end " + ReadPathBench.loadAverage());
  }

  /**
   * How far the two layouts' answers agree, and each one's dense recall@50 against an exact scan.
   */
  private static void agreement(
      String owner,
      String nameA,
      String nameB,
      List<MemoryStore> stores,
      List<Mnemo> engines,
      List<String> questions,
      Map<String, float[]> vectors,
      ReadPathBench.Ticker ticker,
      PrintStream out) {
    List<MemoryRecord> records = new ArrayList<>();
    stores.get(0).export(owner, records::add);
    int sameDense = 0, sameSets = 0, sameRecall = 0;
    double jaccard = 0;
    double[] recallAt50 = new double[2];
    for (String q : questions) {
      Instant at = ticker.next();
      CandidateQuery cq = LeverBench.query(owner, q, vectors.get(q), at);
      CandidateSet a = stores.get(0).candidates(cq);
      CandidateSet b = stores.get(1).candidates(cq);
      if (dense(a).equals(dense(b))) sameDense++;
      Set<String> ia = ids(a), ib = ids(b);
      if (ia.equals(ib)) sameSets++;
      Set<String> union = new HashSet<>(ia);
      union.addAll(ib);
      Set<String> both = new HashSet<>(ia);
      both.retainAll(ib);
      jaccard += union.isEmpty() ? 1 : (double) both.size() / union.size();
      RecallResult ra = engines.get(0).recall(ReadPathBench.request(owner, q, at, false));
      RecallResult rb = engines.get(1).recall(ReadPathBench.request(owner, q, at, false));
      if (selected(ra).equals(selected(rb))) sameRecall++;
      // dense alone, k = 50, against the exact top 50 of the eligible vectors
      Eligibility e = cq.eligibility();
      CandidateQuery denseOnly = new CandidateQuery(e, cq.vector(), null, Set.of(), null, 50);
      List<String> exact = exactTop(records, e, cq.vector(), 50);
      for (int v = 0; v < 2; v++) {
        Set<String> got = ids(stores.get(v).candidates(denseOnly));
        long hit = exact.stream().filter(got::contains).count();
        recallAt50[v] += exact.isEmpty() ? 1 : (double) hit / exact.size();
      }
    }
    int n = questions.size();
    out.printf(
        Locale.ROOT,
        "%nhot owner %s (%,d records), %s against %s: same dense candidates %d of %d, same candidate set %d of %d "
            + "(mean Jaccard %.3f), same recall selection %d of %d; dense recall@50 against exact: %s %.3f, %s"
            + " %.3f (load average %s)%n",
        owner,
        records.size(),
        nameA,
        nameB,
        sameDense,
        n,
        sameSets,
        n,
        jaccard / n,
        sameRecall,
        n,
        nameA,
        recallAt50[0] / n,
        nameB,
        recallAt50[1] / n,
        ReadPathBench.loadAverage());
  }

  /** Whether parallel signals change any answer: the selected records and scores compared. */
  private static void sameAnswers(
      String owner,
      List<Mnemo> engines,
      List<String> questions,
      ReadPathBench.Ticker ticker,
      PrintStream out) {
    int same = 0;
    for (String q : questions) {
      Instant at = ticker.next();
      RecallResult a = engines.get(0).recall(ReadPathBench.request(owner, q, at, false));
      RecallResult b = engines.get(1).recall(ReadPathBench.request(owner, q, at, false));
      if (scored(a).equals(scored(b))) same++;
    }
    out.printf(
        Locale.ROOT,
        "hot owner %s: sequential and parallel signals select the same records with the same scores"
            + " for %d of %d questions%n",
        owner,
        same,
        questions.size());
  }

  private static List<String> exactTop(
      List<MemoryRecord> records, Eligibility e, float[] vector, int k) {
    record Scored(String id, double score) {}
    List<Scored> all = new ArrayList<>();
    for (MemoryRecord r : records) {
      if (r.embedding() == null || !e.admits(r)) continue;
      double dot = 0;
      for (int i = 0; i < vector.length; i++) dot += vector[i] * r.embedding()[i];
      all.add(new Scored(r.id(), dot));
    }
    all.sort((x, y) -> Double.compare(y.score(), x.score()));
    return all.stream().limit(k).map(Scored::id).toList();
  }

  private static List<String> dense(CandidateSet s) {
    return s.candidates().stream()
        .filter(c -> c.denseRank() > 0)
        .sorted((x, y) -> Integer.compare(x.denseRank(), y.denseRank()))
        .map(c -> c.record().id())
        .toList();
  }

  private static Set<String> ids(CandidateSet s) {
    Set<String> out = new HashSet<>();
    for (Candidate c : s.candidates()) out.add(c.record().id());
    return out;
  }

  private static List<String> scored(RecallResult r) {
    return r.selected().stream()
        .map(x -> x.record().id() + " " + x.score() + " " + x.relevance())
        .toList();
  }

  private static List<String> selected(RecallResult r) {
    return r.selected().stream().map(x -> x.record().id()).toList();
  }

  private static double ratio(long a, long b) {
    return b == 0 ? 0 : (double) a / b;
  }
}
