package dev.mnemo.bench;

import dev.mnemo.CandidateTrace;
import dev.mnemo.Mnemo;
import dev.mnemo.Outcome;
import dev.mnemo.RecallResult;
import dev.mnemo.RelevanceModel;
import dev.mnemo.embed.E5SmallEmbedder;
import dev.mnemo.store.lucene.LuceneMemoryStore;
import dev.mnemo.text.JTokkitTokenizer;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.Collectors;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

/**
 * Where recall alone spends its time for one hot owner of a {@link BenchStore} store, and what the
 * fetch gate's relevance model costs on the read path.
 *
 * <ol>
 *   <li><b>Gate census</b>: one traced recall per question; per recall, the candidates and how many
 *       of them the untraced read path scores with the relevance model (those still in the running
 *       after the rank stage: not {@code too_old}, not under the absolute or relative threshold).
 *   <li><b>Gate cost</b>: recall alone (untraced, precomputed query vector) alternating call by
 *       call with scoring one recall's in-the-running candidates by the shipped model and by a
 *       cheaper model of the same features (150 trees of depth 2, the fallback docs/read-path.md
 *       names; random splits, so its time is meaningful and its probabilities are not), and scoring
 *       every candidate (what a traced recall pays).
 *   <li><b>Profile</b>: recall alone in a loop for {@code --seconds} under a JFR recording of
 *       execution samples (the loop only, not the store's opening), aggregated by the innermost
 *       Mnemo frame (method and line: which search of {@code candidates()}), by Mnemo method
 *       (inclusive) and by top frame (self).
 * </ol>
 *
 * <pre>
 * java --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED -Dai.djl.offline=true
 *   -Xmx1g -cp mnemo-bench/target/benchmarks.jar dev.mnemo.bench.RecallProfile --dir DIR
 *   --total 1000000 --hot 10000,100000 --owners 10000 --owner 100000 --seconds 60 [--jfr FILE]
 * </pre>
 *
 * Measures only: no sleeps, no pass/fail.
 */
public final class RecallProfile {
  private RecallProfile() {}

  public static void main(String[] args) throws IOException {
    Map<String, String> o = BenchStore.options(args);
    Path dir = Path.of(o.getOrDefault("dir", ".mnemo/bench"));
    BenchStore.Layout layout = BenchStore.layout(o);
    int hot = Integer.parseInt(o.getOrDefault("owner", Integer.toString(layout.hot().get(0))));
    int queries = Integer.parseInt(o.getOrDefault("queries", "200"));
    int rounds = Integer.parseInt(o.getOrDefault("rounds", "400"));
    int seconds = Integer.parseInt(o.getOrDefault("seconds", "60"));
    int top = Integer.parseInt(o.getOrDefault("top", "40"));
    Path jfr = Path.of(o.getOrDefault("jfr", dir.resolve("recall-" + hot + ".jfr").toString()));
    PrintStream out = System.out;
    String owner = BenchStore.hotOwner(hot);
    try (E5SmallEmbedder embedder = new E5SmallEmbedder()) {
      BenchStore.Opened opened = BenchStore.openOrBuild(dir, layout, embedder, 10_000, out);
      try (LuceneMemoryStore store = opened.store()) {
        List<String> questions = SyntheticCorpus.questions(queries, layout.seed() + 1);
        Map<String, float[]> vectors = new HashMap<>();
        for (String q : questions) vectors.putIfAbsent(q, embedder.embedQuery(q));
        Mnemo engine =
            Mnemo.builder()
                .store(new ReadPathBench.Unclosed(store))
                .embedder(new ReadPathBench.Precomputed(embedder, vectors))
                .tokenizer(JTokkitTokenizer.cl100k())
                .clock(InstantSource.fixed(SyntheticCorpus.NOW))
                .build();
        ReadPathBench.Ticker ticker = new ReadPathBench.Ticker();
        java.util.function.IntConsumer recall =
            i ->
                engine.recall(
                    ReadPathBench.request(
                        owner, questions.get(i % questions.size()), ticker.next(), false));
        out.printf(Locale.ROOT, "%s, load average %s%n", owner, ReadPathBench.loadAverage());
        for (int i = 0; i < 500; i++) recall.accept(i);

        // 1. Gate census from traces.
        List<List<Map<String, Double>>> inRunning = new ArrayList<>();
        List<List<Map<String, Double>>> every = new ArrayList<>();
        long candidates = 0, scored = 0;
        for (int i = 0; i < questions.size(); i++) {
          RecallResult r =
              engine.recall(ReadPathBench.request(owner, questions.get(i), ticker.next(), true));
          List<Map<String, Double>> running = new ArrayList<>();
          List<Map<String, Double>> all = new ArrayList<>();
          for (CandidateTrace c : r.trace().candidates()) {
            candidates++;
            if (c.relevance() == null) continue;
            all.add(c.relevance().features());
            if (scoredUntraced(c)) running.add(c.relevance().features());
          }
          scored += running.size();
          inRunning.add(running);
          every.add(all);
        }
        out.printf(
            Locale.ROOT,
            "gate census (%d traced recalls): %.1f candidates per recall, %.1f scored by the"
                + " relevance model when untraced (%.0f %%)%n",
            questions.size(),
            (double) candidates / questions.size(),
            (double) scored / questions.size(),
            100.0 * scored / Math.max(1, candidates));

        // 2. Gate cost, alternating with recall alone.
        RelevanceModel shipped = RelevanceModel.defaultModel();
        RelevanceModel cheap = synthetic(150, 2, 7);
        RelevanceModel sameShape = synthetic(400, 4, 7);
        double[] sink = new double[1];
        Stats[] cost =
            interleaved(
                rounds,
                questions.size(),
                new String[] {
                  "recall alone",
                  "shipped model, in the running",
                  "400x4 random, in the running",
                  "150x2 random, in the running",
                  "shipped model, every candidate"
                },
                recall,
                i -> score(shipped, inRunning.get(i), sink),
                i -> score(sameShape, inRunning.get(i), sink),
                i -> score(cheap, inRunning.get(i), sink),
                i -> score(shipped, every.get(i), sink));
        out.println(Stats.header());
        for (Stats s : cost) out.println(s.line());
        out.printf(
            Locale.ROOT,
            "share of recall alone at the median: shipped %.1f %%, 150x2 %.1f %% (sink %.3f)%n",
            100.0 * cost[1].p50Nanos() / cost[0].p50Nanos(),
            100.0 * cost[3].p50Nanos() / cost[0].p50Nanos(),
            sink[0]);

        // 3. Profile.
        Files.deleteIfExists(jfr);
        long[] samples = new long[1 << 20];
        int n = 0;
        try (Recording rec = new Recording()) {
          rec.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(2));
          rec.start();
          long end = System.nanoTime() + seconds * 1_000_000_000L;
          for (int i = 0; System.nanoTime() < end && n < samples.length; i++) {
            long t = System.nanoTime();
            recall.accept(i);
            samples[n++] = System.nanoTime() - t;
          }
          rec.stop();
          rec.dump(jfr);
        }
        out.println(Stats.of("recall alone under JFR", java.util.Arrays.copyOf(samples, n)).line());
        out.printf(
            Locale.ROOT, "load average %s; recording %s%n", ReadPathBench.loadAverage(), jfr);
        aggregate(jfr, Thread.currentThread().getName(), top, out);
      }
    }
  }

  /** Whether the untraced read path scores this candidate (it was in the running after rank). */
  private static boolean scoredUntraced(CandidateTrace c) {
    if (c.outcome() == Outcome.TOO_OLD) return false;
    if (c.outcome() == Outcome.BELOW_THRESHOLD)
      return c.reason() != null && c.reason().startsWith("relevance probability");
    return true;
  }

  private static void score(RelevanceModel m, List<Map<String, Double>> xs, double[] sink) {
    double s = 0;
    for (Map<String, Double> x : xs) s += m.probability(x);
    sink[0] += s;
  }

  /**
   * A model with the shipped model's features and header and {@code trees} full trees of {@code
   * depth}, splits on random features at random thresholds: for timing only.
   */
  static RelevanceModel synthetic(int trees, int depth, long seed) {
    Properties p = new Properties();
    try (InputStream in = RelevanceModel.class.getResourceAsStream(RelevanceModel.RESOURCE)) {
      if (in == null) throw new IllegalStateException("no " + RelevanceModel.RESOURCE);
      p.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    p.keySet().removeIf(k -> k.toString().startsWith("tree."));
    int features = p.getProperty("features").split(",").length;
    SplittableRandom random = new SplittableRandom(seed);
    p.setProperty("trees", Integer.toString(trees));
    p.setProperty("model", "synthetic-" + trees + "x" + depth);
    int splits = (1 << depth) - 1;
    for (int t = 0; t < trees; t++) {
      StringBuilder sb = new StringBuilder();
      for (int i = 0; i < splits; i++) {
        sb.append(
            String.format(
                Locale.ROOT,
                "s%d,%.4f,%d,%d,%d,100;",
                random.nextInt(features),
                random.nextDouble(),
                2 * i + 1,
                2 * i + 2,
                2 * i + 2));
      }
      for (int i = 0; i <= splits; i++) {
        sb.append(String.format(Locale.ROOT, "l%.4f,50", random.nextDouble() - 0.5));
        if (i < splits) sb.append(';');
      }
      p.setProperty("tree." + t, sb.toString());
    }
    StringWriter w = new StringWriter();
    try {
      p.store(w, null);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return RelevanceModel.parse(w.toString());
  }

  /** As {@link ReadPathBench}: each round calls every series once, on different questions. */
  private static Stats[] interleaved(
      int rounds, int cycle, String[] names, java.util.function.IntConsumer... calls) {
    int n = calls.length;
    for (int i = 0; i < rounds / 4; i++) {
      for (int k = 0; k < n; k++) calls[k].accept((i + k * cycle / n) % cycle);
    }
    long[][] samples = new long[n][rounds];
    for (int i = 0; i < rounds; i++) {
      for (int k = 0; k < n; k++) {
        long t = System.nanoTime();
        calls[k].accept((i + k * cycle / n) % cycle);
        samples[k][i] = System.nanoTime() - t;
      }
    }
    Stats[] s = new Stats[n];
    for (int k = 0; k < n; k++) s[k] = Stats.of(names[k], samples[k]);
    return s;
  }

  /** Execution samples of {@code thread}: by innermost Mnemo frame, Mnemo method, top frame. */
  static void aggregate(Path jfr, String thread, int top, PrintStream out) throws IOException {
    Map<String, Integer> innermost = new HashMap<>();
    Map<String, Integer> inclusive = new HashMap<>();
    Map<String, Integer> self = new HashMap<>();
    int total = 0;
    for (RecordedEvent e : RecordingFile.readAllEvents(jfr)) {
      if (!e.getEventType().getName().equals("jdk.ExecutionSample")) continue;
      var t = e.getThread("sampledThread");
      if (t == null || !thread.equals(t.getJavaName()) || e.getStackTrace() == null) continue;
      List<RecordedFrame> frames = e.getStackTrace().getFrames();
      if (frames.isEmpty()) continue;
      total++;
      self.merge(name(frames.get(0)), 1, Integer::sum);
      Set<String> seen = new HashSet<>();
      String inner = null;
      for (RecordedFrame f : frames) {
        String type = f.getMethod().getType().getName();
        if (!type.startsWith("dev.mnemo.") || type.startsWith("dev.mnemo.bench.")) continue;
        if (inner == null) inner = name(f) + ":" + f.getLineNumber();
        seen.add(name(f));
      }
      innermost.merge(inner == null ? "(no Mnemo frame)" : inner, 1, Integer::sum);
      for (String s : seen) inclusive.merge(s, 1, Integer::sum);
    }
    out.printf(Locale.ROOT, "%d execution samples of thread %s%n", total, thread);
    print("innermost Mnemo frame (method:line)", innermost, total, top, out);
    print("Mnemo methods, inclusive", inclusive, total, top, out);
    print("top frame, self", self, total, top, out);
  }

  private static String name(RecordedFrame f) {
    String type = f.getMethod().getType().getName();
    return type.substring(type.lastIndexOf('.') + 1) + "." + f.getMethod().getName();
  }

  private static void print(
      String title, Map<String, Integer> counts, int total, int top, PrintStream out) {
    out.println();
    out.println(title + ":");
    String lines =
        counts.entrySet().stream()
            .sorted(Map.Entry.<String, Integer>comparingByValue(Comparator.reverseOrder()))
            .limit(top)
            .map(
                e ->
                    String.format(
                        Locale.ROOT,
                        "  %5.1f %%  %6d  %s",
                        100.0 * e.getValue() / Math.max(1, total),
                        e.getValue(),
                        e.getKey()))
            .collect(Collectors.joining("\n"));
    out.println(lines);
  }
}
