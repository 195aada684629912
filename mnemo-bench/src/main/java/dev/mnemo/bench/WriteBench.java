package dev.mnemo.bench;

import dev.mnemo.Mnemo;
import dev.mnemo.NewMemory;
import dev.mnemo.embed.E5SmallEmbedder;
import dev.mnemo.spi.Embedder;
import dev.mnemo.spi.ForwardingMemoryStore;
import dev.mnemo.spi.MemoryStore;
import dev.mnemo.spi.RecallLog;
import dev.mnemo.spi.TurnLog;
import dev.mnemo.store.lucene.LuceneMemoryStore;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The write path's latency and throughput, each change against the behaviour before it, in one run
 * and the same JVM, series alternating round by round.
 *
 * <ul>
 *   <li><b>remember latency</b> with 1, 4 and 16 concurrent writers (each its own owner), from the
 *       call to the durable acknowledgement, on two embedded stores filled with {@code --fill}
 *       records each. Vectors come from a hash of the text (no model), so the time is validation,
 *       supersession planning, the write and making it durable. <i>Commit</i>: the store without
 *       its write-ahead log, every write durable once a Lucene commit covers it (shared by
 *       concurrent writers: group commit); <i>log</i>: the store with it (the default), every write
 *       durable once its log entry is synced.
 *   <li><b>ingest</b> at batches of {@code --batch}: {@code rememberAll} with the real e5 embedder
 *       against {@code embedPassages} of the same number of texts alone; one caller on each store,
 *       and two callers at once on the store with the log (one embeds while the other's batch is
 *       written).
 * </ul>
 *
 * <p>{@code java ... dev.mnemo.bench.WriteBench [--dir DIR] [--fill N] [--writes N] [--rounds R]
 * [--batch B] [--batches K] [--seed S]}
 */
public final class WriteBench {
  private WriteBench() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> o = BenchStore.options(args);
    Path dir = Path.of(o.getOrDefault("dir", ".mnemo/writebench"));
    int fill = Integer.parseInt(o.getOrDefault("fill", "20000"));
    int writes = Integer.parseInt(o.getOrDefault("writes", "240"));
    int rounds = Integer.parseInt(o.getOrDefault("rounds", "3"));
    int batch = Integer.parseInt(o.getOrDefault("batch", "64"));
    int batches = Integer.parseInt(o.getOrDefault("batches", "8"));
    long seed = Long.parseLong(o.getOrDefault("seed", "42"));
    PrintStream out = System.out;
    BenchStore.deleteRecursively(dir);
    out.printf(
        Locale.ROOT,
        "write bench: fill %,d, %d remember calls per series and round, %d rounds, ingest %d"
            + " batches of %d per series and round; load average %s%n",
        fill,
        writes,
        rounds,
        batches,
        batch,
        loadAverage());
    latency(dir.resolve("latency"), fill, writes, rounds, seed, out);
    ingest(dir.resolve("ingest"), batch, batches, rounds, seed, out);
    out.printf(Locale.ROOT, "load average at the end %s%n", loadAverage());
  }

  /** The layout both series share; with or without the log. */
  private static LuceneMemoryStore.Layout layout(boolean log) {
    return LuceneMemoryStore.Layout.SHARED.withWriteAheadLog(log);
  }

  private static void latency(
      Path dir, int fill, int writes, int rounds, long seed, PrintStream out) throws Exception {
    HashVectors vectors = new HashVectors();
    try (LuceneMemoryStore commits = LuceneMemoryStore.open(dir.resolve("commit"), layout(false));
        LuceneMemoryStore logged = LuceneMemoryStore.open(dir.resolve("log"), layout(true))) {
      for (LuceneMemoryStore store : List.of(commits, logged)) {
        SplittableRandom random = new SplittableRandom(seed);
        try (Mnemo filler = engine(store, vectors)) {
          List<NewMemory> memories = new ArrayList<>();
          for (int i = 0; i < fill; i++) {
            memories.add(memory("fill-" + (i % 50), random));
            if (memories.size() == 1000 || i == fill - 1) {
              filler.rememberAll(memories);
              memories.clear();
            }
          }
        }
      }
      SplittableRandom random = new SplittableRandom(seed + 1);
      out.printf(
          Locale.ROOT, "%nremember, durable acknowledgement (%,d records)%n", logged.count());
      out.println(Stats.header());
      for (int writers : new int[] {1, 4, 16}) {
        List<Long> committed = new ArrayList<>();
        List<Long> logs = new ArrayList<>();
        try (Mnemo before = engine(commits, vectors);
            Mnemo after = engine(logged, vectors)) {
          int perWriter = Math.max(1, writes / writers);
          run(before, writers, 2, random, null); // warm-up
          run(after, writers, 2, random, null);
          for (int r = 0; r < rounds; r++) {
            if ((r & 1) == 0) {
              run(before, writers, perWriter, random, committed);
              run(after, writers, perWriter, random, logs);
            } else {
              run(after, writers, perWriter, random, logs);
              run(before, writers, perWriter, random, committed);
            }
          }
        }
        Stats a = Stats.of(writers + " writers, commit", toArray(committed));
        Stats b = Stats.of(writers + " writers, log", toArray(logs));
        out.println(a.line());
        out.println(b.line());
        out.printf(
            Locale.ROOT,
            "  log / commit: p50 %.2f, p99 %.2f%n",
            b.p50Millis() / a.p50Millis(),
            b.p99Millis() / a.p99Millis());
      }
    }
  }

  /** {@code writers} threads, each {@code perWriter} remember calls as its own owner. */
  private static void run(
      Mnemo m, int writers, int perWriter, SplittableRandom random, List<Long> samples)
      throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    try {
      List<Future<long[]>> done = new ArrayList<>();
      for (int w = 0; w < writers; w++) {
        SplittableRandom mine = random.split();
        String owner = "writer-" + w;
        done.add(
            pool.submit(
                () -> {
                  long[] t = new long[perWriter];
                  for (int i = 0; i < perWriter; i++) {
                    NewMemory memory = memory(owner, mine);
                    long start = System.nanoTime();
                    m.remember(memory);
                    t[i] = System.nanoTime() - start;
                  }
                  return t;
                }));
      }
      for (Future<long[]> f : done) {
        long[] t = f.get();
        if (samples != null) for (long v : t) samples.add(v);
      }
    } finally {
      pool.shutdown();
    }
  }

  private static void ingest(
      Path dir, int batch, int batches, int rounds, long seed, PrintStream out) throws Exception {
    try (E5SmallEmbedder embedder = new E5SmallEmbedder();
        LuceneMemoryStore commits = LuceneMemoryStore.open(dir.resolve("commit"), layout(false));
        LuceneMemoryStore logged = LuceneMemoryStore.open(dir.resolve("log"), layout(true));
        Mnemo before = engine(commits, embedder);
        Mnemo after = engine(logged, embedder)) {
      SyntheticCorpus corpus = new SyntheticCorpus(seed + 2, embedder);
      out.printf(
          Locale.ROOT,
          "%ningest: %d batches of %d per series and round (%d rounds, the order rotating)%n",
          batches,
          batch,
          rounds);
      // warm-up: the model and the writer
      before.rememberAll(batchOf(corpus, "warm", batch));
      after.rememberAll(batchOf(corpus, "warm", batch));
      embedder.embedPassages(texts(batchOf(corpus, "warm", batch)));
      long[] totals = new long[4];
      String[] names = {
        "embedPassages alone",
        "rememberAll, 1 caller, commit",
        "rememberAll, 1 caller, log",
        "rememberAll, 2 callers, log"
      };
      for (int r = 0; r < rounds; r++) {
        List<List<NewMemory>> work = new ArrayList<>();
        for (int b = 0; b < batches; b++) work.add(batchOf(corpus, "ingest-" + r, batch));
        for (int k = 0; k < 4; k++) {
          int series = (k + r) % 4;
          long t = System.nanoTime();
          switch (series) {
            case 0 -> {
              for (List<NewMemory> w : work) embedder.embedPassages(texts(w));
            }
            case 1 -> {
              for (List<NewMemory> w : work) before.rememberAll(w);
            }
            case 2 -> {
              for (List<NewMemory> w : work) after.rememberAll(w);
            }
            default -> callers(after, work, 2);
          }
          totals[series] += System.nanoTime() - t;
          // the same texts again next series: remove what this one wrote
          if (series == 1) commits.deleteOwner("ingest-" + r);
          if (series > 1) logged.deleteOwner("ingest-" + r);
        }
      }
      int texts = rounds * batches * batch;
      double raw = texts / (totals[0] / 1e9);
      for (int k = 0; k < 4; k++) {
        double perSecond = texts / (totals[k] / 1e9);
        out.printf(
            Locale.ROOT,
            "%-40s %8.1f texts/s  %5.1f%% of raw%n",
            names[k],
            perSecond,
            100 * perSecond / raw);
      }
    }
  }

  /** The batches shared out over {@code n} callers, all at once. */
  private static void callers(Mnemo m, List<List<NewMemory>> work, int n) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(n);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int c = 0; c < n; c++) {
        int first = c;
        done.add(
            pool.submit(
                () -> {
                  for (int b = first; b < work.size(); b += n) m.rememberAll(work.get(b));
                  return null;
                }));
      }
      for (Future<?> f : done) f.get();
    } finally {
      pool.shutdown();
    }
  }

  private static List<NewMemory> batchOf(SyntheticCorpus corpus, String owner, int n) {
    List<NewMemory> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) out.add(corpus.newMemory(owner));
    return out;
  }

  private static List<String> texts(List<NewMemory> memories) {
    return memories.stream().map(NewMemory::text).toList();
  }

  /** An engine over the store (which the engine does not close). */
  private static Mnemo engine(MemoryStore store, Embedder embedder) {
    return Mnemo.builder().store(new View(store)).embedder(embedder).build();
  }

  private static final String[] WORDS = {
    "garden",
    "tax",
    "lisbon",
    "piano",
    "dentist",
    "flight",
    "birthday",
    "running",
    "invoice",
    "berlin",
    "sister",
    "recipe",
    "meeting",
    "bike",
    "novel",
    "concert"
  };

  private static NewMemory memory(String owner, SplittableRandom r) {
    StringBuilder text = new StringBuilder("note");
    for (int i = 0; i < 6 + r.nextInt(6); i++) text.append(' ').append(WORDS[r.nextInt(16)]);
    text.append(' ').append(Long.toHexString(r.nextLong()));
    NewMemory.Builder b = NewMemory.builder(owner, text.toString());
    if (r.nextInt(5) == 0) b.factKey("fk-" + r.nextInt(20));
    return b.build();
  }

  private static long[] toArray(List<Long> samples) {
    return samples.stream().mapToLong(Long::longValue).toArray();
  }

  private static String loadAverage() {
    try {
      String s = Files.readString(Path.of("/proc/loadavg"), StandardCharsets.UTF_8).trim();
      String[] f = s.split(" ");
      return f[0] + " " + f[1] + " " + f[2];
    } catch (IOException e) {
      return "unknown";
    }
  }

  /**
   * Unit vectors from a hash of the text: no model, the same text the same vector (384 dimensions).
   */
  static final class HashVectors implements Embedder {
    @Override
    public String modelId() {
      return "bench-hash-384";
    }

    @Override
    public int dimension() {
      return 384;
    }

    @Override
    public float[] embedQuery(String text) {
      SplittableRandom r = new SplittableRandom(text.hashCode());
      float[] v = new float[384];
      double norm = 0;
      for (int i = 0; i < v.length; i++) {
        v[i] = (float) r.nextGaussian();
        norm += v[i] * v[i];
      }
      float inv = (float) (1 / Math.sqrt(norm));
      for (int i = 0; i < v.length; i++) v[i] *= inv;
      return v;
    }

    @Override
    public List<float[]> embedPassages(List<String> texts) {
      return texts.stream().map(this::embedQuery).toList();
    }
  }

  /**
   * The store as an engine sees it, never closed by it. No turn log and no retrieval log: the
   * benchmark times writes, not logging (the engine keeps its turns in memory).
   */
  static final class View extends ForwardingMemoryStore {
    View(MemoryStore s) {
      super(s);
    }

    @Override
    public Optional<TurnLog> turnLog() {
      return Optional.empty();
    }

    @Override
    public Optional<RecallLog> recallLog() {
      return Optional.empty();
    }

    @Override
    public void close() {}
  }
}
