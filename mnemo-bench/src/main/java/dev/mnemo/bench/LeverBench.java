package dev.mnemo.bench;

import dev.mnemo.Mnemo;
import dev.mnemo.RecallResult;
import dev.mnemo.embed.E5SmallEmbedder;
import dev.mnemo.spi.CandidateQuery;
import dev.mnemo.spi.Eligibility;
import dev.mnemo.spi.Embedder;
import dev.mnemo.spi.MemoryStore;
import dev.mnemo.store.lucene.LuceneMemoryStore;
import dev.mnemo.store.lucene.LuceneMemoryStore.ReadOptions;
import dev.mnemo.text.Entities;
import dev.mnemo.text.JTokkitTokenizer;
import dev.mnemo.time.TimeExpressions;
import dev.mnemo.time.TimeRange;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;
import java.time.InstantSource;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.IntConsumer;

/**
 * The store's read levers ({@link ReadOptions}) against each other, in one run on one store: for
 * each hot owner, {@code candidates()} (every signal, as the read path asks) through a view of the
 * store per combination of levers, and recall alone (precomputed query vectors) with every lever
 * off and on, the series alternating call by call so that all see the same machine. Before timing,
 * every question is asked of every combination at the same instant and the answers compared
 * (candidates, their ranks and raw signals, the eligible count and entity frequencies; for recall,
 * the selected records and the rendered block): the levers may change only the time.
 *
 * <p>{@code java ... dev.mnemo.bench.LeverBench --dir DIR --total N [--hot H,H] [--owners M]
 * [--queries Q] [--warmup W] [--samples S] [--seed S]}; the store is the one {@link BenchStore}
 * builds for {@link ReadPathBench} (same manifest, so the two reuse each other's stores).
 */
public final class LeverBench {
  private LeverBench() {}

  private record Variant(String name, ReadOptions options) {}

  /**
   * The first is the store as it read before the levers of issue 15 item 7 (eligibility once and
   * the record cache on), the last is the store's default; recall alone compares the two.
   */
  private static final List<Variant> VARIANTS =
      List.of(
          new Variant(
              "before (eligible once, record cache)",
              new ReadOptions(true, true, LuceneMemoryStore.GRAPH_REACH, false, false)),
          new Variant(
              "+ versions with candidates",
              new ReadOptions(true, true, LuceneMemoryStore.GRAPH_REACH, true, false)),
          new Variant(
              "+ cached term statistics",
              new ReadOptions(true, true, LuceneMemoryStore.GRAPH_REACH, false, true)),
          new Variant("now (every lever)", ReadOptions.DEFAULT));

  public static void main(String[] args) {
    Map<String, String> o = BenchStore.options(args);
    Path dir = Path.of(o.getOrDefault("dir", ".mnemo/bench"));
    BenchStore.Layout layout = BenchStore.layout(o);
    List<Integer> hot = layout.hot();
    int queries = Integer.parseInt(o.getOrDefault("queries", "200"));
    int samples = Integer.parseInt(o.getOrDefault("samples", "400"));
    int warmup = Integer.parseInt(o.getOrDefault("warmup", Integer.toString(samples / 4)));
    long seed = layout.seed();
    PrintStream out = System.out;
    try (E5SmallEmbedder embedder = new E5SmallEmbedder()) {
      BenchStore.Opened opened = BenchStore.openOrBuild(dir, layout, embedder, 10_000, out);
      try (LuceneMemoryStore store = opened.store()) {
        run(store, embedder, hot, queries, warmup, samples, seed, out);
      }
    }
  }

  static void run(
      LuceneMemoryStore store,
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
    // Unclosed hides the store's retrieval log, as for ReadPathBench's engines: nothing is logged
    List<ReadPathBench.Unclosed> views =
        VARIANTS.stream()
            .map(v -> new ReadPathBench.Unclosed(store.withReadOptions(v.options())))
            .toList();
    InstantSource clock = InstantSource.fixed(SyntheticCorpus.NOW);
    Embedder precomputed = new ReadPathBench.Precomputed(embedder, vectors);
    Mnemo before =
        Mnemo.builder()
            .store(views.get(0))
            .embedder(precomputed)
            .tokenizer(JTokkitTokenizer.cl100k())
            .clock(clock)
            .build();
    Mnemo after =
        Mnemo.builder()
            .store(views.get(views.size() - 1))
            .embedder(precomputed)
            .tokenizer(JTokkitTokenizer.cl100k())
            .clock(clock)
            .build();
    ReadPathBench.Ticker ticker = new ReadPathBench.Ticker();
    out.printf(
        Locale.ROOT,
        "levers: %,d records, %d questions, %d warm-up + %d timed calls per series, load average %s%n",
        store.count(),
        questions.size(),
        warmup,
        samples,
        ReadPathBench.loadAverage());

    for (int h : hot) {
      String owner = BenchStore.hotOwner(h);
      String tag = String.format(Locale.ROOT, "%,d/owner", h);
      // Same answers from every combination, for every question, at the same instant.
      int differ = 0, recallDiffer = 0;
      long versionsBefore = views.get(0).versionQueries();
      long versionsNow = views.get(views.size() - 1).versionQueries();
      for (String q : questions) {
        Instant at = ticker.next();
        CandidateQuery cq = query(owner, q, vectors.get(q), at);
        String want = views.get(0).candidates(cq).describe();
        for (int v = 1; v < views.size(); v++)
          if (!views.get(v).candidates(cq).describe().equals(want)) differ++;
        RecallResult a = before.recall(ReadPathBench.request(owner, q, at, false));
        RecallResult b = after.recall(ReadPathBench.request(owner, q, at, false));
        if (!a.rendered().equals(b.rendered()) || !ids(a).equals(ids(b))) recallDiffer++;
      }
      out.printf(
          Locale.ROOT,
          "%nhot owner %s: answers differing from the baseline: candidates %d of %d, recall %d of %d"
              + " (load average %s); versions() queries of %d recalls: before %d, now %d%n",
          owner,
          differ,
          questions.size() * (views.size() - 1),
          recallDiffer,
          questions.size(),
          ReadPathBench.loadAverage(),
          questions.size(),
          views.get(0).versionQueries() - versionsBefore,
          views.get(views.size() - 1).versionQueries() - versionsNow);

      List<String> names = new ArrayList<>();
      List<IntConsumer> calls = new ArrayList<>();
      for (int v = 0; v < views.size(); v++) {
        MemoryStore view = views.get(v);
        names.add("candidates, " + VARIANTS.get(v).name() + ", " + tag);
        calls.add(
            i ->
                view.candidates(
                    query(owner, questions.get(i), vectors.get(questions.get(i)), ticker.next())));
      }
      names.add("recall alone, before, " + tag);
      calls.add(
          i -> before.recall(ReadPathBench.request(owner, questions.get(i), ticker.next(), false)));
      names.add("recall alone, now, " + tag);
      calls.add(
          i -> after.recall(ReadPathBench.request(owner, questions.get(i), ticker.next(), false)));
      Stats[] cpu = new Stats[calls.size()];
      Stats[] stats = interleaved(questions.size(), warmup, samples, calls, cpu);
      out.println(Stats.header());
      for (int k = 0; k < stats.length; k++) {
        stats[k] = stats[k].named(names.get(k));
        out.println(stats[k].line());
      }
      out.println("CPU time of the calling thread per call:");
      for (int k = 0; k < cpu.length; k++) {
        cpu[k] = cpu[k].named("cpu, " + names.get(k));
        out.println(cpu[k].line());
      }
      out.printf(
          Locale.ROOT,
          "ratios of CPU time p50 (before / lever): versions %.2f, term statistics %.2f, every"
              + " lever %.2f; recall alone %.2f; p99: every lever %.2f, recall alone %.2f%n",
          ratio(cpu[0].p50Nanos(), cpu[1].p50Nanos()),
          ratio(cpu[0].p50Nanos(), cpu[2].p50Nanos()),
          ratio(cpu[0].p50Nanos(), cpu[3].p50Nanos()),
          ratio(cpu[4].p50Nanos(), cpu[5].p50Nanos()),
          ratio(cpu[0].p99Nanos(), cpu[3].p99Nanos()),
          ratio(cpu[4].p99Nanos(), cpu[5].p99Nanos()));
      out.printf(
          Locale.ROOT,
          "ratios of p50 (before / lever): versions %.2f, term statistics %.2f, every lever %.2f; "
              + "recall alone %.2f; p99: every lever %.2f, recall alone %.2f%n",
          ratio(stats[0].p50Nanos(), stats[1].p50Nanos()),
          ratio(stats[0].p50Nanos(), stats[2].p50Nanos()),
          ratio(stats[0].p50Nanos(), stats[3].p50Nanos()),
          ratio(stats[4].p50Nanos(), stats[5].p50Nanos()),
          ratio(stats[0].p99Nanos(), stats[3].p99Nanos()),
          ratio(stats[4].p99Nanos(), stats[5].p99Nanos()));
    }
    out.println("load average at end " + ReadPathBench.loadAverage());
  }

  private static double ratio(long a, long b) {
    return b == 0 ? 0 : (double) a / b;
  }

  /**
   * The read path's store query for a question: vector, text, entities, time range; eligibility at
   * {@code at}.
   */
  static CandidateQuery query(String owner, String q, float[] vector, Instant at) {
    Eligibility e = new Eligibility(owner, null, Set.of(), Map.of(), at, at, null);
    TimeRange range = TimeExpressions.parse(q, at, ZoneOffset.UTC).orElse(null);
    return new CandidateQuery(
        e, vector, q, Set.copyOf(Entities.queryKeys(q)), range, ReadPathBench.CANDIDATES);
  }

  private static List<String> ids(RecallResult r) {
    return r.selected().stream()
        .map(
            x ->
                x.record().id()
                    + " "
                    + x.score()
                    + " "
                    + x.relevance()
                    + " "
                    + x.tokens()
                    + " "
                    + x.conflictsWith())
        .toList();
  }

  /**
   * Each round calls every series once, the k-th on a question offset by k, after untimed warm-up
   * rounds.
   */
  static Stats[] interleaved(int cycle, int warmup, int samples, List<IntConsumer> calls) {
    return interleaved(cycle, warmup, samples, calls, null);
  }

  /**
   * As {@link #interleaved(int, int, int, List)}; when {@code cpu} is not null, it receives each
   * series' CPU time of the calling thread per call (what a call costs, whatever else waits for the
   * two cores: on a loaded machine the wall time mostly measures the wait).
   */
  static Stats[] interleaved(
      int cycle, int warmup, int samples, List<IntConsumer> calls, Stats[] cpu) {
    java.lang.management.ThreadMXBean threads =
        java.lang.management.ManagementFactory.getThreadMXBean();
    int n = calls.size();
    for (int i = 0; i < warmup; i++)
      for (int k = 0; k < n; k++) calls.get(k).accept((i + k * cycle / n) % cycle);
    long[][] t = new long[n][samples];
    long[][] c = new long[n][samples];
    for (int i = 0; i < samples; i++) {
      for (int k = 0; k < n; k++) {
        long c0 = cpu == null ? 0 : threads.getCurrentThreadCpuTime();
        long t0 = System.nanoTime();
        calls.get(k).accept((i + k * cycle / n) % cycle);
        t[k][i] = System.nanoTime() - t0;
        if (cpu != null) c[k][i] = threads.getCurrentThreadCpuTime() - c0;
      }
    }
    Stats[] s = new Stats[n];
    for (int k = 0; k < n; k++) {
      s[k] = Stats.of("", t[k]);
      if (cpu != null) cpu[k] = Stats.of("", c[k]);
    }
    return s;
  }
}
