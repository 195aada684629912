package dev.mnemo.bench;

import dev.mnemo.MemoryRecord;
import dev.mnemo.Mnemo;
import dev.mnemo.NewMemory;
import dev.mnemo.RecallRequest;
import dev.mnemo.RecallResult;
import dev.mnemo.embed.E5SmallEmbedder;
import dev.mnemo.spi.CandidateQuery;
import dev.mnemo.spi.Eligibility;
import dev.mnemo.spi.Embedder;
import dev.mnemo.spi.ForwardingEmbedder;
import dev.mnemo.spi.ForwardingMemoryStore;
import dev.mnemo.spi.MemoryStore;
import dev.mnemo.text.Entities;
import dev.mnemo.text.JTokkitTokenizer;
import dev.mnemo.time.TimeExpressions;
import dev.mnemo.time.TimeRange;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.InstantSource;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The read-path benchmark: latency of recall for one owner inside a large store of many owners,
 * query embedding, ingest throughput against raw embedding, memory and index size.
 *
 * <p>What {@link #run} does, in order:
 *
 * <ol>
 *   <li>Opens the store of {@link Config#dir()} if it holds this layout, else fills it with {@link
 *       BenchStore} (synthetic records through {@code MemoryStore.apply}, one commit per batch) and
 *       reports the fill time.
 *   <li>Generates {@link Config#queries()} questions and embeds them once.
 *   <li><b>query embedding</b>: {@code embedQuery} alone.
 *   <li>For each hot owner: <b>recall alone</b> (an engine whose embedder returns the precomputed
 *       query vector, so the time is store + fusion + ranking + packing + render), its per-stage
 *       split (from {@code explain} traces), the store's {@code candidates()} call with only the
 *       dense signal, only BM25, and all signals, and the <b>full read path</b> (an engine with the
 *       real e5 embedder: embedding + recall).
 *   <li>Memory (RSS from {@code /proc/self/status}, Java heap) and index size on disk.
 *   <li><b>ingest</b>: batches of {@link Config#ingestBatch()} new memories through {@code
 *       rememberAll} (validation, embedding, entity extraction, durable commit) against raw {@code
 *       embedPassages} of the same texts, alternating which goes first; the ingested records are
 *       deleted afterwards so the store keeps its layout.
 * </ol>
 *
 * <p>Each latency series is preceded by {@link Config#warmup()} untimed calls and then takes {@link
 * Config#samples()} timed calls, cycling through the questions, each asked at its own instant (the
 * clock advances one second per request, as a real one would, so Lucene's query cache cannot serve
 * the time filters from an earlier request). Single-threaded: latencies, not throughput under load.
 * Measures only: no sleeps, nothing hard-coded, no pass/fail.
 */
public final class ReadPathBench {

  /**
   * Candidates per signal, the read path's default ({@code RecallRequest.Builder}'s {@code
   * candidates}).
   */
  static final int CANDIDATES = 50;

  /**
   * What to build and how much to measure.
   *
   * @param dir directory holding the benchmark store ({@code dir/store}) and its manifest
   * @param total records in the store
   * @param hot record counts of the hot owners, each measured on its own
   * @param owners other owners sharing the remaining records
   * @param queries distinct questions
   * @param warmup untimed calls before each timed series
   * @param samples timed calls per series
   * @param fillBatch records per {@code apply} call while filling
   * @param ingestTexts memories written in the ingest measurement (0 = skip it)
   * @param ingestBatch memories per {@code rememberAll} call
   * @param seed corpus seed
   */
  public record Config(
      Path dir,
      int total,
      List<Integer> hot,
      int owners,
      int queries,
      int warmup,
      int samples,
      int fillBatch,
      int ingestTexts,
      int ingestBatch,
      long seed) {

    public Config {
      hot = List.copyOf(hot);
      if (queries < 1) throw new IllegalArgumentException("queries must be >= 1, was " + queries);
      if (warmup < 0) throw new IllegalArgumentException("warmup must be >= 0, was " + warmup);
      if (samples < 1) throw new IllegalArgumentException("samples must be >= 1, was " + samples);
      if (fillBatch < 1)
        throw new IllegalArgumentException("fill batch must be >= 1, was " + fillBatch);
      if (ingestTexts < 0)
        throw new IllegalArgumentException("ingest texts must be >= 0, was " + ingestTexts);
      if (ingestBatch < 1)
        throw new IllegalArgumentException("ingest batch must be >= 1, was " + ingestBatch);
      new BenchStore.Layout(total, hot, owners, seed); // validates the layout
    }

    /**
     * Defaults scaled to {@code total}: hot owners of 1% and 10% of it, the rest over {@code total
     * / 100} owners (about 90 records each), 200 questions, 2,000 timed calls per series from 500k
     * records up (500 below), a quarter as many warm-up calls, fill batches of 10,000, 2,048
     * ingested memories (512 below 500k) in batches of 64, seed 42.
     */
    public static Config defaults(Path dir, int total) {
      boolean big = total >= 500_000;
      List<Integer> hot = new ArrayList<>();
      if (total >= 100) hot.add(total / 100);
      if (total >= 10) hot.add(total / 10);
      int samples = big ? 2_000 : 500;
      return new Config(
          dir,
          total,
          hot,
          Math.max(1, total / 100),
          200,
          samples / 4,
          samples,
          10_000,
          big ? 2_048 : 512,
          64,
          42);
    }

    /** The full benchmark: 1M records, hot owners of 10k and 100k, 10k other owners. */
    public static Config full(Path dir) {
      return defaults(dir, 1_000_000);
    }

    /** A run of about a minute: 50k records, hot owners of 500 and 5k. */
    public static Config quick(Path dir) {
      return defaults(dir, 50_000);
    }

    BenchStore.Layout layout() {
      return new BenchStore.Layout(total, hot, owners, seed);
    }
  }

  /**
   * Results for one hot owner.
   *
   * @param records the owner's record count
   * @param recallAlone recall with a precomputed query vector
   * @param fullReadPath embedding + recall
   * @param fullParallel the same with parallel signals: the query embedded on a thread of its own
   *     while the store searches BM25, entities and time
   * @param stages recall alone split by stage (from traces; {@code explain} adds its own cost to
   *     total)
   * @param storeDense {@code candidates()} with only the query vector
   * @param storeBm25 {@code candidates()} with only the query text
   * @param storeAll {@code candidates()} with vector, text, entities and time range, as the read
   *     path asks
   * @param meanCandidates candidates per recall (all signals, deduplicated)
   * @param meanSelected records selected per recall
   * @param denseRecallAt50 the share of the exact 50 nearest eligible records (a scan of the
   *     owner's exported vectors) that the store's dense signal returns, over the questions (NaN
   *     until measured)
   */
  public record HotOwner(
      int records,
      Stats recallAlone,
      Stats fullReadPath,
      Stats fullParallel,
      Map<String, Stats> stages,
      Stats storeDense,
      Stats storeBm25,
      Stats storeAll,
      double meanCandidates,
      double meanSelected,
      double denseRecallAt50) {

    /** This result with the dense recall measured. */
    HotOwner withDenseRecall(double recall) {
      return new HotOwner(
          records,
          recallAlone,
          fullReadPath,
          fullParallel,
          stages,
          storeDense,
          storeBm25,
          storeAll,
          meanCandidates,
          meanSelected,
          recall);
    }
  }

  /**
   * Ingest against raw embedding of the same texts.
   *
   * @param texts memories written (timed; warm-up batches excluded)
   * @param batch memories per call
   * @param rawPerSecond texts per second through {@code embedPassages} alone
   * @param ingestPerSecond memories per second through {@code rememberAll}
   * @param rawBatch time of one {@code embedPassages} batch
   * @param ingestBatch time of one {@code rememberAll} batch
   * @param commitBatch time of the store's {@code apply} (write, commit with fsync, searcher
   *     refresh) inside one {@code rememberAll} batch
   */
  public record Ingest(
      int texts,
      int batch,
      double rawPerSecond,
      double ingestPerSecond,
      Stats rawBatch,
      Stats ingestBatch,
      Stats commitBatch) {
    /** Ingest throughput as a share of raw embedding throughput. */
    public double ratio() {
      return rawPerSecond == 0 ? 0 : ingestPerSecond / rawPerSecond;
    }
  }

  /**
   * Everything one run measured.
   *
   * @param config the configuration
   * @param machine processors, memory, JDK, OS, JVM arguments, date
   * @param reused whether the store existed already
   * @param fillNanos time to fill the store (of the run that built it)
   * @param fillBatchP50Nanos median time of one fill batch
   * @param storeRecords records in the store
   * @param indexBytes index size on disk
   * @param indexByKind index size per Lucene file kind
   * @param queryEmbedding {@code embedQuery} alone
   * @param hot results per hot owner
   * @param ingest the ingest measurement, or null when skipped
   * @param memoryAfterOpen memory once the store was open (after the fill when it was built)
   * @param memoryAfterReads memory after the read measurements
   * @param memoryAfterIngest memory after the ingest, or null when skipped
   */
  public record Result(
      Config config,
      Map<String, String> machine,
      boolean reused,
      long fillNanos,
      long fillBatchP50Nanos,
      long storeRecords,
      long indexBytes,
      Map<String, Long> indexByKind,
      Stats queryEmbedding,
      List<HotOwner> hot,
      Ingest ingest,
      ProcessMemory memoryAfterOpen,
      ProcessMemory memoryAfterReads,
      ProcessMemory memoryAfterIngest) {

    /** The result as one JSON object. */
    public String json() {
      StringBuilder s = new StringBuilder(4096);
      s.append('{');
      s.append("\"config\":{");
      s.append(
          String.format(
              Locale.ROOT,
              "\"dir\":\"%s\",\"total\":%d,\"hot\":%s,\"owners\":%d,\"queries\":%d,\"warmup\":%d,\"samples\":%d,"
                  + "\"fill_batch\":%d,\"ingest_texts\":%d,\"ingest_batch\":%d,\"seed\":%d",
              Json.escape(config.dir().toString()),
              config.total(),
              config.hot(),
              config.owners(),
              config.queries(),
              config.warmup(),
              config.samples(),
              config.fillBatch(),
              config.ingestTexts(),
              config.ingestBatch(),
              config.seed()));
      s.append("},\"machine\":{");
      s.append(
          machine.entrySet().stream()
              .map(e -> "\"" + Json.escape(e.getKey()) + "\":\"" + Json.escape(e.getValue()) + "\"")
              .collect(Collectors.joining(",")));
      s.append("},");
      s.append(
          String.format(
              Locale.ROOT,
              "\"reused\":%b,\"fill_seconds\":%.1f,\"fill_batch_p50_ms\":%.1f,\"store_records\":%d,\"index_bytes\":%d,",
              reused,
              fillNanos / 1e9,
              fillBatchP50Nanos / 1e6,
              storeRecords,
              indexBytes));
      s.append("\"index_by_kind\":{");
      s.append(
          indexByKind.entrySet().stream()
              .map(e -> "\"" + Json.escape(e.getKey()) + "\":" + e.getValue())
              .collect(Collectors.joining(",")));
      s.append("},\"query_embedding\":").append(queryEmbedding.json());
      s.append(",\"hot\":[");
      for (int i = 0; i < hot.size(); i++) {
        HotOwner h = hot.get(i);
        if (i > 0) s.append(',');
        s.append("{\"records\":").append(h.records());
        s.append(",\"recall_alone\":").append(h.recallAlone().json());
        s.append(",\"full_read_path\":").append(h.fullReadPath().json());
        s.append(",\"full_read_path_parallel\":").append(h.fullParallel().json());
        s.append(",\"store_dense\":").append(h.storeDense().json());
        s.append(",\"store_bm25\":").append(h.storeBm25().json());
        s.append(",\"store_all\":").append(h.storeAll().json());
        if (!Double.isNaN(h.denseRecallAt50()))
          s.append(",\"dense_recall_at_50\":")
              .append(String.format(Locale.ROOT, "%.4f", h.denseRecallAt50()));
        s.append(",\"stages\":{");
        s.append(
            h.stages().entrySet().stream()
                .map(e -> "\"" + e.getKey() + "\":" + e.getValue().json())
                .collect(Collectors.joining(",")));
        s.append(
            String.format(
                Locale.ROOT,
                "},\"mean_candidates\":%.1f,\"mean_selected\":%.2f}",
                h.meanCandidates(),
                h.meanSelected()));
      }
      s.append(']');
      if (ingest != null) {
        s.append(
            String.format(
                Locale.ROOT,
                ",\"ingest\":{\"texts\":%d,\"batch\":%d,\"raw_per_second\":%.1f,\"ingest_per_second\":%.1f,\"ratio\":%.3f,",
                ingest.texts(),
                ingest.batch(),
                ingest.rawPerSecond(),
                ingest.ingestPerSecond(),
                ingest.ratio()));
        s.append("\"raw_batch\":").append(ingest.rawBatch().json());
        s.append(",\"ingest_batch\":").append(ingest.ingestBatch().json());
        s.append(",\"commit_batch\":").append(ingest.commitBatch().json()).append('}');
      }
      s.append(",\"memory_after_open\":").append(memoryAfterOpen.json());
      s.append(",\"memory_after_reads\":").append(memoryAfterReads.json());
      if (memoryAfterIngest != null)
        s.append(",\"memory_after_ingest\":").append(memoryAfterIngest.json());
      s.append('}');
      return s.toString();
    }
  }

  private ReadPathBench() {}

  /**
   * Runs from the command line: {@code java ... dev.mnemo.bench.ReadPathBench [--dir DIR] [--total
   * N] [--hot H[,H...]] [--owners M] [--queries Q] [--warmup W] [--samples S] [--ingest N] [--seed
   * S] [--json]}; defaults as {@link Config#defaults}. The same options as {@code mnemo bench}.
   */
  public static void main(String[] args) {
    Map<String, String> opts = new HashMap<>();
    boolean json = false;
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("--json")) {
        json = true;
      } else if (args[i].startsWith("--") && i + 1 < args.length) {
        opts.put(args[i].substring(2), args[++i]);
      } else {
        System.err.println("unknown argument: " + args[i]);
        System.exit(2);
      }
    }
    Path dir = Path.of(opts.getOrDefault("dir", ".mnemo/bench"));
    Config d = Config.defaults(dir, Integer.parseInt(opts.getOrDefault("total", "1000000")));
    Config c =
        new Config(
            dir,
            d.total(),
            opts.containsKey("hot")
                ? java.util.Arrays.stream(opts.get("hot").split(","))
                    .map(String::trim)
                    .map(Integer::valueOf)
                    .toList()
                : d.hot(),
            intOr(opts, "owners", d.owners()),
            intOr(opts, "queries", d.queries()),
            intOr(opts, "warmup", d.warmup()),
            intOr(opts, "samples", d.samples()),
            intOr(opts, "fill-batch", d.fillBatch()),
            intOr(opts, "ingest", d.ingestTexts()),
            intOr(opts, "ingest-batch", d.ingestBatch()),
            Long.parseLong(opts.getOrDefault("seed", Long.toString(d.seed()))));
    PrintStream log = json ? System.err : System.out;
    Result r = run(c, log);
    if (json) System.out.println(r.json());
  }

  private static int intOr(Map<String, String> opts, String key, int fallback) {
    return opts.containsKey(key) ? Integer.parseInt(opts.get(key)) : fallback;
  }

  /**
   * Runs the benchmark with the local e5-small-v2-q embedder; progress and the report go to {@code
   * out}.
   */
  public static Result run(Config config, PrintStream out) {
    try (E5SmallEmbedder embedder = new E5SmallEmbedder()) {
      return run(config, embedder, out);
    }
  }

  /** Runs the benchmark with {@code embedder} (not closed here). */
  public static Result run(Config config, Embedder embedder, PrintStream out) {
    try {
      Files.createDirectories(config.dir());
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    Map<String, String> machine = machine();
    out.printf(
        Locale.ROOT,
        "mnemo bench: %s processors, %s memory, JDK %s, %s%n",
        machine.get("processors"),
        machine.get("memory"),
        machine.get("jdk"),
        machine.get("date"));
    BenchStore.Opened opened =
        BenchStore.openOrBuild(config.dir(), config.layout(), embedder, config.fillBatch(), out);
    ProcessMemory afterOpen = ProcessMemory.now();
    out.println("memory after open: " + afterOpen.line());
    try (MemoryStore store = opened.store()) {
      return measure(config, machine, opened, new Unclosed(store), embedder, afterOpen, out);
    }
  }

  private static Result measure(
      Config config,
      Map<String, String> machine,
      BenchStore.Opened opened,
      Unclosed store,
      Embedder embedder,
      ProcessMemory afterOpen,
      PrintStream out) {
    List<String> questions = SyntheticCorpus.questions(config.queries(), config.seed() + 1);
    Map<String, float[]> vectors = new HashMap<>();
    for (String q : questions) vectors.putIfAbsent(q, embedder.embedQuery(q));

    InstantSource clock = InstantSource.fixed(SyntheticCorpus.NOW);
    Mnemo precomputed =
        Mnemo.builder()
            .store(store)
            .embedder(new Precomputed(embedder, vectors))
            .tokenizer(JTokkitTokenizer.cl100k())
            .clock(clock)
            .build();
    Mnemo real = withEmbedder(store, embedder, clock, false);
    // the same, embedding the query on a thread of its own while the store searches the other
    // signals
    Mnemo overlapped = withEmbedder(store, embedder, clock, true);
    Ticker ticker = new Ticker();

    out.printf(
        Locale.ROOT,
        "%n%d questions, %d warm-up + %d timed calls per series%n",
        questions.size(),
        config.warmup(),
        config.samples());
    out.println(Stats.header());
    Stats embedding =
        series(
            "query embedding (e5, embedQuery)",
            config,
            questions.size(),
            i -> embedder.embedQuery(questions.get(i)));
    out.println(embedding.line());

    List<HotOwner> hot = new ArrayList<>();
    for (int h : config.hot()) {
      String owner = BenchStore.hotOwner(h);
      String tag = String.format(Locale.ROOT, "%,d/owner", h);
      out.println("hot owner " + owner + " (load average " + loadAverage() + ")");
      // One recall of each question first: recall alone's companion query vectors (see
      // Precomputed#companion) and every engine's name-free record vectors are then in place.
      for (String q : questions) {
        precomputed.recall(request(owner, q, ticker.next(), false));
        real.recall(request(owner, q, ticker.next(), false));
        overlapped.recall(request(owner, q, ticker.next(), false));
      }
      // Recall alone and the full path alternate call by call (on different questions), so that
      // both
      // see the same machine: on a shared box the load moves more between series than within one.
      Stats[] paths =
          interleaved(
              config,
              questions.size(),
              new String[] {
                "recall alone, " + tag,
                "full read path, " + tag,
                "full read path, parallel signals, " + tag
              },
              i -> precomputed.recall(request(owner, questions.get(i), ticker.next(), false)),
              i -> real.recall(request(owner, questions.get(i), ticker.next(), false)),
              i -> overlapped.recall(request(owner, questions.get(i), ticker.next(), false)));
      Stats alone = paths[0];
      Stats full = paths[1];
      Stats fullParallel = paths[2];
      out.println(alone.line());
      out.println(full.line());
      out.println(fullParallel.line());

      // Per-stage split and candidate counts, from traces (explain adds the trace's cost to total
      // only).
      Map<String, long[]> stageSamples = new LinkedHashMap<>();
      int traced = Math.min(config.samples(), 500);
      long candidates = 0, selected = 0;
      for (int i = 0; i < traced; i++) {
        RecallResult r =
            precomputed.recall(
                request(owner, questions.get(i % questions.size()), ticker.next(), true));
        candidates += r.trace().candidates().size();
        selected += r.selected().size();
        for (var e : r.trace().stageNanos().entrySet()) {
          stageSamples.computeIfAbsent(e.getKey(), k -> new long[traced])[i] = e.getValue();
        }
      }
      Map<String, Stats> stages = new LinkedHashMap<>();
      for (var e : stageSamples.entrySet()) {
        stages.put(e.getKey(), Stats.of("  stage " + e.getKey() + ", " + tag, e.getValue()));
      }
      stages.values().forEach(s -> out.println(s.line()));

      Stats[] parts =
          interleaved(
              config,
              questions.size(),
              new String[] {
                "  store dense only, " + tag,
                "  store BM25 only, " + tag,
                "  store all signals, " + tag
              },
              i ->
                  store.candidates(
                      storeQuery(owner, questions.get(i), vectors, ticker.next(), true, false)),
              i ->
                  store.candidates(
                      storeQuery(owner, questions.get(i), vectors, ticker.next(), false, true)),
              i ->
                  store.candidates(
                      storeQuery(owner, questions.get(i), vectors, ticker.next(), true, true)));
      Stats dense = parts[0];
      Stats bm25 = parts[1];
      Stats all = parts[2];
      for (Stats p : parts) out.println(p.line());
      hot.add(
          new HotOwner(
              h,
              alone,
              full,
              fullParallel,
              stages,
              dense,
              bm25,
              all,
              (double) candidates / traced,
              (double) selected / traced,
              Double.NaN));
    }

    ProcessMemory afterReads = ProcessMemory.now();
    out.println();
    out.println("memory after reads: " + afterReads.line());
    // after the memory reading: the exact scan reads every record of the owner
    for (int i = 0; i < hot.size(); i++) {
      HotOwner h = hot.get(i);
      double recall = denseRecallAt50(store, BenchStore.hotOwner(h.records()), questions, vectors);
      out.printf(
          Locale.ROOT,
          "dense recall@50 against an exact scan, %,d/owner: %.3f (%d questions)%n",
          h.records(),
          recall,
          questions.size());
      hot.set(i, h.withDenseRecall(recall));
    }
    LuceneSize size = luceneSize(opened, config);
    out.printf(
        Locale.ROOT,
        "index: %s on disk for %,d records (%,.0f bytes/record); by kind: %s%n",
        ProcessMemory.mb(size.bytes()),
        opened.store().count(),
        (double) size.bytes() / Math.max(1, opened.store().count()),
        size.byKind().entrySet().stream()
            .map(e -> e.getKey() + " " + ProcessMemory.mb(e.getValue()))
            .collect(Collectors.joining(", ")));

    Ingest ingest = null;
    ProcessMemory afterIngest = null;
    if (config.ingestTexts() > 0) {
      ingest = ingest(config, store, embedder, real, out);
      afterIngest = ProcessMemory.now();
      out.println("memory after ingest: " + afterIngest.line());
    }
    machine.put("load_average_at_end", loadAverage());
    Result result =
        new Result(
            config,
            machine,
            opened.reused(),
            opened.fillNanos(),
            opened.batchP50Nanos(),
            opened.store().count(),
            size.bytes(),
            size.byKind(),
            embedding,
            hot,
            ingest,
            afterOpen,
            afterReads,
            afterIngest);
    summary(result, out);
    return result;
  }

  private record LuceneSize(long bytes, Map<String, Long> byKind) {}

  private static LuceneSize luceneSize(BenchStore.Opened opened, Config config) {
    return new LuceneSize(
        opened.store().sizeOnDisk(), BenchStore.sizeByKind(config.dir().resolve("store")));
  }

  /** An engine on {@code store} with the real embedder, embedding first or beside the search. */
  private static Mnemo withEmbedder(
      MemoryStore store, Embedder embedder, InstantSource clock, boolean parallelSignals) {
    return Mnemo.builder()
        .store(store)
        .embedder(Embedder.shared(embedder))
        .tokenizer(JTokkitTokenizer.cl100k())
        .clock(clock)
        .parallelSignals(parallelSignals)
        .build();
  }

  /**
   * Several series measured together: each round calls every one of {@code calls} once, in turn,
   * the k-th on question {@code (i + k * cycle / calls.length) % cycle}, so that no call finds the
   * previous one's question in the caches. Warm-up rounds first, untimed.
   */
  private static Stats[] interleaved(
      Config config, int cycle, String[] names, java.util.function.IntConsumer... calls) {
    int n = calls.length;
    for (int i = 0; i < config.warmup(); i++) {
      for (int k = 0; k < n; k++) calls[k].accept((i + k * cycle / n) % cycle);
    }
    long[][] samples = new long[n][config.samples()];
    for (int i = 0; i < config.samples(); i++) {
      for (int k = 0; k < n; k++) {
        long t = System.nanoTime();
        calls[k].accept((i + k * cycle / n) % cycle);
        samples[k][i] = System.nanoTime() - t;
      }
    }
    Stats[] out = new Stats[n];
    for (int k = 0; k < n; k++) out[k] = Stats.of(names[k], samples[k]);
    return out;
  }

  /** Warm-up calls, then timed calls; {@code call} gets the call's index modulo {@code cycle}. */
  private static Stats series(
      String name, Config config, int cycle, java.util.function.IntConsumer call) {
    for (int i = 0; i < config.warmup(); i++) call.accept(i % cycle);
    long[] samples = new long[config.samples()];
    for (int i = 0; i < samples.length; i++) {
      long t = System.nanoTime();
      call.accept(i % cycle);
      samples[i] = System.nanoTime() - t;
    }
    return Stats.of(name, samples);
  }

  /**
   * The share of each question's exact 50 nearest eligible records that the store's dense signal
   * returns, averaged over the questions: the owner's records exported once, each scored against
   * every question (a bounded heap per question), eligibility as of {@link SyntheticCorpus#NOW}.
   */
  static double denseRecallAt50(
      MemoryStore store, String owner, List<String> questions, Map<String, float[]> vectors) {
    int k = CANDIDATES;
    Eligibility e =
        new Eligibility(
            owner, null, Set.of(), Map.of(), SyntheticCorpus.NOW, SyntheticCorpus.NOW, null);
    record Hit(String id, float score) {}
    List<java.util.PriorityQueue<Hit>> best = new ArrayList<>();
    for (int i = 0; i < questions.size(); i++)
      best.add(new java.util.PriorityQueue<>(java.util.Comparator.comparingDouble(Hit::score)));
    store.export(
        owner,
        r -> {
          float[] v = r.embedding();
          if (v == null || !e.admits(r)) return;
          for (int i = 0; i < questions.size(); i++) {
            float[] q = vectors.get(questions.get(i));
            if (q == null || q.length != v.length) continue;
            var heap = best.get(i);
            float score = org.apache.lucene.util.VectorUtil.dotProduct(q, v);
            if (heap.size() < k) heap.add(new Hit(r.id(), score));
            else if (score > heap.peek().score()) {
              heap.poll();
              heap.add(new Hit(r.id(), score));
            }
          }
        });
    double sum = 0;
    for (int i = 0; i < questions.size(); i++) {
      Set<String> exact = new HashSet<>();
      for (Hit h : best.get(i)) exact.add(h.id());
      if (exact.isEmpty()) {
        sum += 1;
        continue;
      }
      CandidateQuery dense =
          new CandidateQuery(e, vectors.get(questions.get(i)), null, Set.of(), null, k);
      long found =
          store.candidates(dense).candidates().stream()
              .filter(c -> c.denseRank() > 0 && exact.contains(c.record().id()))
              .count();
      sum += (double) found / exact.size();
    }
    return questions.isEmpty() ? Double.NaN : sum / questions.size();
  }

  static RecallRequest request(String owner, String query, Instant askedAt, boolean explain) {
    return RecallRequest.builder(owner, query).askedAt(askedAt).explain(explain).build();
  }

  /** The store query the read path would make for this question (signals switched on or off). */
  private static CandidateQuery storeQuery(
      String owner,
      String q,
      Map<String, float[]> vectors,
      Instant at,
      boolean dense,
      boolean text) {
    Eligibility e = new Eligibility(owner, null, Set.of(), Map.of(), at, at, null);
    if (dense && !text)
      return new CandidateQuery(e, vectors.get(q), null, Set.of(), null, CANDIDATES);
    if (text && !dense) return new CandidateQuery(e, null, q, Set.of(), null, CANDIDATES);
    TimeRange range = TimeExpressions.parse(q, at, ZoneOffset.UTC).orElse(null);
    return new CandidateQuery(
        e, vectors.get(q), q, Set.copyOf(Entities.queryKeys(q)), range, CANDIDATES);
  }

  private static Ingest ingest(
      Config config, Unclosed store, Embedder embedder, Mnemo real, PrintStream out) {
    int batch = config.ingestBatch();
    int batches = Math.max(1, config.ingestTexts() / batch);
    int warm = Math.min(2, batches);
    SyntheticCorpus corpus = new SyntheticCorpus(config.seed() + 2, embedder);
    String owner = "bench-ingest";
    List<String> ids = new ArrayList<>();
    long[] raw = new long[batches];
    long[] ingest = new long[batches];
    long[] commit = new long[batches];
    out.printf(
        Locale.ROOT,
        "%ningest: %d warm-up + %d timed batches of %d (rememberAll vs embedPassages of the same "
            + "texts, alternating order)%n",
        warm,
        batches,
        batch);
    try {
      for (int b = -warm; b < batches; b++) {
        List<NewMemory> memories = new ArrayList<>(batch);
        for (int i = 0; i < batch; i++) memories.add(corpus.newMemory(owner));
        List<String> texts = memories.stream().map(NewMemory::text).toList();
        long r, w;
        long applied = store.applyNanos();
        if ((b & 1) == 0) {
          r = time(() -> embedder.embedPassages(texts));
          w = time(() -> real.rememberAll(memories).forEach(m -> ids.add(m.id())));
        } else {
          w = time(() -> real.rememberAll(memories).forEach(m -> ids.add(m.id())));
          r = time(() -> embedder.embedPassages(texts));
        }
        if (b >= 0) {
          raw[b] = r;
          ingest[b] = w;
          commit[b] = store.applyNanos() - applied;
        }
      }
    } finally {
      // Supersession may have expired earlier versions in place: drop every record of the owner.
      List<String> all = new ArrayList<>();
      store.export(owner, rec -> all.add(rec.id()));
      if (!all.isEmpty()) store.apply(List.of(), all);
    }
    long rawSum = 0, ingestSum = 0;
    for (int b = 0; b < batches; b++) {
      rawSum += raw[b];
      ingestSum += ingest[b];
    }
    int texts = batches * batch;
    Ingest result =
        new Ingest(
            texts,
            batch,
            texts / (rawSum / 1e9),
            texts / (ingestSum / 1e9),
            Stats.of("embedPassages, batch of " + batch, raw),
            Stats.of("rememberAll, batch of " + batch, ingest),
            Stats.of("  of which store apply + commit", commit));
    out.println(Stats.header());
    out.println(result.rawBatch().line());
    out.println(result.ingestBatch().line());
    out.println(result.commitBatch().line());
    out.printf(
        Locale.ROOT,
        "raw embedding %.1f texts/s, ingest %.1f memories/s: %.1f%% of raw%n",
        result.rawPerSecond(),
        result.ingestPerSecond(),
        100 * result.ratio());
    return result;
  }

  private static long time(Runnable r) {
    long t = System.nanoTime();
    r.run();
    return System.nanoTime() - t;
  }

  /** One line of the summary: {@code label} and the series' p50 / p99 / p99.9 in milliseconds. */
  private static void percentiles(PrintStream out, String label, Stats s) {
    out.printf(
        Locale.ROOT,
        "%s %8.2f / %8.2f / %8.2f%n",
        label,
        s.p50Nanos() / 1e6,
        s.p99Nanos() / 1e6,
        s.p999Nanos() / 1e6);
  }

  private static void summary(Result r, PrintStream out) {
    out.println();
    out.println("summary (milliseconds; p50 / p99 / p99.9):");
    percentiles(out, "  query embedding           ", r.queryEmbedding());
    for (HotOwner h : r.hot()) {
      String owner = String.format(Locale.ROOT, "%,9d/owner", h.records());
      percentiles(out, "  recall alone, " + owner, h.recallAlone());
      percentiles(out, "  full path,    " + owner, h.fullReadPath());
      percentiles(out, "  full path, parallel signals, " + owner.strip(), h.fullParallel());
      if (!Double.isNaN(h.denseRecallAt50()))
        out.printf(
            Locale.ROOT,
            "  dense recall@50 vs exact, %,d/owner %.3f%n",
            h.records(),
            h.denseRecallAt50());
    }
    if (r.ingest() != null) {
      out.printf(
          Locale.ROOT,
          "  ingest %.1f/s vs raw embedding %.1f/s = %.1f%%%n",
          r.ingest().ingestPerSecond(),
          r.ingest().rawPerSecond(),
          100 * r.ingest().ratio());
    }
    ProcessMemory m = r.memoryAfterIngest() != null ? r.memoryAfterIngest() : r.memoryAfterReads();
    out.printf(
        Locale.ROOT,
        "  store %,d records, index %s, RSS %s (peak %s), heap used %s of max %s%n",
        r.storeRecords(),
        ProcessMemory.mb(r.indexBytes()),
        ProcessMemory.mb(m.rssBytes()),
        ProcessMemory.mb(m.peakRssBytes()),
        ProcessMemory.mb(m.heapUsedBytes()),
        ProcessMemory.mb(m.heapMaxBytes()));
    if (!r.reused()) out.printf(Locale.ROOT, "  fill %.0f s%n", r.fillNanos() / 1e9);
    out.println(
        "  load average at start "
            + r.machine().get("load_average_at_start")
            + ", at end "
            + r.machine().get("load_average_at_end")
            + " (on "
            + r.machine().get("processors")
            + " processors)");
  }

  /** Processors, memory, JDK, OS, JVM arguments and date, for the report. */
  static Map<String, String> machine() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("processors", Integer.toString(Runtime.getRuntime().availableProcessors()));
    String mem = "n/a";
    try {
      for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
        if (line.startsWith("MemTotal:")) {
          mem =
              String.format(
                  Locale.ROOT, "%.1f GB", Long.parseLong(line.replaceAll("\\D", "")) / 1048576.0);
        }
      }
    } catch (IOException | RuntimeException e) {
      // not Linux
    }
    m.put("memory", mem);
    m.put("jdk", System.getProperty("java.vm.vendor") + " " + Runtime.version());
    m.put(
        "os",
        System.getProperty("os.name")
            + " "
            + System.getProperty("os.version")
            + " "
            + System.getProperty("os.arch"));
    m.put("jvm_args", String.join(" ", ManagementFactory.getRuntimeMXBean().getInputArguments()));
    m.put("load_average_at_start", loadAverage());
    m.put("date", Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString());
    return m;
  }

  /** The 1, 5 and 15 minute load averages from {@code /proc/loadavg}, or "n/a". */
  static String loadAverage() {
    try {
      String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
      return f[0] + " " + f[1] + " " + f[2];
    } catch (IOException | RuntimeException e) {
      return "n/a";
    }
  }

  /**
   * Hands out request instants one second apart, starting at the corpus's "now". Not thread-safe.
   */
  static final class Ticker {
    private long n;

    Instant next() {
      return SyntheticCorpus.NOW.plusSeconds(n++);
    }
  }

  /**
   * The real embedder for passages, a precomputed vector for every known query: the engine's read
   * path runs unchanged, but its embedding stage costs a map look-up. An unknown query fails rather
   * than being embedded, so a timing can never include the model by accident; the companion's
   * queries (below) are embedded once each instead, the bench priming them before it times.
   */
  static final class Precomputed extends ForwardingEmbedder {
    private final Map<String, float[]> queries;

    /** Whether an unknown query fails (else it is embedded once and kept). */
    private final boolean strict;

    private Precomputed companion;

    Precomputed(Embedder delegate, Map<String, float[]> queries) {
      this(delegate, new java.util.concurrent.ConcurrentHashMap<>(queries), true);
    }

    private Precomputed(Embedder delegate, Map<String, float[]> queries, boolean strict) {
      super(delegate);
      this.queries = queries;
      this.strict = strict;
    }

    /**
     * The delegate's companion with its query vectors kept like this embedder's: the fetch gate's
     * name-free comparison embeds the message a second time, which is query embedding (the full
     * path pays it), while comparing and embedding records not seen before is recall.
     */
    @Override
    public synchronized Embedder companion() {
      Embedder c = delegate().companion();
      if (c != null && companion == null)
        companion = new Precomputed(c, new java.util.concurrent.ConcurrentHashMap<>(), false);
      return c == null ? null : companion;
    }

    @Override
    public float[] embedQuery(String text) {
      if (!strict) return queries.computeIfAbsent(text, delegate()::embedQuery);
      float[] v = queries.get(text);
      if (v == null)
        throw new IllegalStateException("no precomputed vector for the query '" + text + "'");
      return v;
    }

    /** The bench closes the real embedder. */
    @Override
    public void close() {}
  }

  /**
   * A store the engines share and may not close (the benchmark closes the real one), timing its
   * writes so that ingest can say how much of a batch the durable commit takes, and counting {@link
   * #versions} queries. No turn log and no retrieval log: the read path is timed without logging
   * ({@code bench log} measures the retrieval log's cost).
   */
  static final class Unclosed extends ForwardingMemoryStore {
    private final java.util.concurrent.atomic.LongAdder applyNanos =
        new java.util.concurrent.atomic.LongAdder();

    private final java.util.concurrent.atomic.LongAdder versionQueries =
        new java.util.concurrent.atomic.LongAdder();

    Unclosed(MemoryStore s) {
      super(s);
    }

    /** How many {@link #versions} queries were made so far. */
    long versionQueries() {
      return versionQueries.sum();
    }

    /** Total time spent in {@link #apply} so far. */
    long applyNanos() {
      return applyNanos.sum();
    }

    @Override
    public void apply(List<MemoryRecord> upserts, Collection<String> deleteIds) {
      long t = System.nanoTime();
      try {
        super.apply(upserts, deleteIds);
      } finally {
        applyNanos.add(System.nanoTime() - t);
      }
    }

    @Override
    public Durable applyVisible(List<MemoryRecord> upserts, Collection<String> deleteIds) {
      long t = System.nanoTime();
      Durable d;
      try {
        d = super.applyVisible(upserts, deleteIds);
      } finally {
        applyNanos.add(System.nanoTime() - t);
      }
      return () -> {
        long w = System.nanoTime();
        try {
          d.await();
        } finally {
          applyNanos.add(System.nanoTime() - w);
        }
      };
    }

    @Override
    public List<MemoryRecord> versions(String owner, String factKey) {
      versionQueries.increment();
      return super.versions(owner, factKey);
    }

    @Override
    public Optional<dev.mnemo.spi.TurnLog> turnLog() {
      return Optional.empty();
    }

    @Override
    public Optional<dev.mnemo.spi.RecallLog> recallLog() {
      return Optional.empty();
    }

    @Override
    public void close() {}
  }
}
