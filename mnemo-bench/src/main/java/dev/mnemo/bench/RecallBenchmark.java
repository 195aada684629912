package dev.mnemo.bench;

import dev.mnemo.Mnemo;
import dev.mnemo.RecallResult;
import dev.mnemo.embed.E5SmallEmbedder;
import dev.mnemo.spi.Embedder;
import dev.mnemo.spi.Tokenizer;
import dev.mnemo.text.JTokkitTokenizer;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * JMH micro-benchmarks of the read path on a small synthetic store built once per trial (see {@link
 * BenchStore}; {@code total} records, one hot owner of {@code hot} records, the rest over {@code
 * total / 100} owners): recall with a precomputed query vector, the full read path with the real e5
 * embedder, query embedding alone, and token counting of one memory text. Sample-time mode, so JMH
 * reports percentiles. For the million-record store and ingest use {@link ReadPathBench} ({@code
 * mnemo bench}); this one is for comparing code changes quickly.
 *
 * <p>Run: {@code java -jar mnemo-bench/target/benchmarks.jar RecallBenchmark -p total=20000 -p
 * hot=2000}. The forked JVM gets the flags Lucene and ONNX Runtime want from {@link Fork}. Set
 * {@code -p dir=/some/dir} to keep the store between runs (it is reused while its layout matches);
 * by default it is built in a temporary directory and deleted after the trial.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 5)
@Fork(
    value = 1,
    jvmArgsAppend = {
      "--add-modules",
      "jdk.incubator.vector",
      "--enable-native-access=ALL-UNNAMED",
      "-Dai.djl.offline=true",
      "-Xmx1g"
    })
public class RecallBenchmark {

  @Param({"20000"})
  public int total;

  @Param({"2000"})
  public int hot;

  /** Store directory to reuse; empty = a temporary one, deleted after the trial. */
  @Param({""})
  public String dir;

  private Path storeDir;
  private boolean temporary;
  private E5SmallEmbedder embedder;
  private BenchStore.Opened opened;
  private Mnemo precomputed;
  private Mnemo real;
  private Tokenizer tokenizer;
  private String owner;
  private List<String> questions;
  private List<String> texts;
  private final ReadPathBench.Ticker ticker = new ReadPathBench.Ticker();
  private int next;

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    temporary = dir.isEmpty();
    storeDir = temporary ? Files.createTempDirectory("mnemo-jmh-") : Path.of(dir);
    embedder = new E5SmallEmbedder();
    BenchStore.Layout layout =
        new BenchStore.Layout(total, List.of(hot), Math.max(1, total / 100), 42);
    opened =
        BenchStore.openOrBuild(
            storeDir,
            layout,
            embedder,
            10_000,
            new PrintStream(
                OutputStream.nullOutputStream(), false, java.nio.charset.StandardCharsets.UTF_8));
    owner = BenchStore.hotOwner(hot);
    questions = SyntheticCorpus.questions(200, 43);
    Map<String, float[]> vectors = new HashMap<>();
    for (String q : questions) vectors.putIfAbsent(q, embedder.embedQuery(q));
    tokenizer = JTokkitTokenizer.cl100k();
    InstantSource clock = InstantSource.fixed(SyntheticCorpus.NOW);
    ReadPathBench.Unclosed store = new ReadPathBench.Unclosed(opened.store());
    precomputed =
        Mnemo.builder()
            .store(store)
            .embedder(new ReadPathBench.Precomputed(embedder, vectors))
            .tokenizer(tokenizer)
            .clock(clock)
            .build();
    real =
        Mnemo.builder()
            .store(store)
            .embedder(Embedder.shared(embedder))
            .tokenizer(tokenizer)
            .clock(clock)
            .build();
    SyntheticCorpus corpus = new SyntheticCorpus(44, embedder);
    texts = new ArrayList<>();
    for (int i = 0; i < 200; i++) texts.add(corpus.newMemory("x").text());
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    opened.store().close();
    embedder.close();
    if (temporary) BenchStore.deleteRecursively(storeDir);
  }

  private int nextIndex() {
    int i = next++;
    if (next == questions.size()) next = 0;
    return i;
  }

  /** Store + fusion + ranking + packing + render, with a precomputed query vector. */
  @Benchmark
  public RecallResult recallAlone() {
    return precomputed.recall(
        ReadPathBench.request(owner, questions.get(nextIndex()), ticker.next(), false));
  }

  /** Query embedding with e5-small-v2-q, then recall. */
  @Benchmark
  public RecallResult fullReadPath() {
    return real.recall(
        ReadPathBench.request(owner, questions.get(nextIndex()), ticker.next(), false));
  }

  /** {@code embedQuery} alone. */
  @Benchmark
  public float[] queryEmbedding() {
    return embedder.embedQuery(questions.get(nextIndex()));
  }

  /** cl100k_base token count of one memory text, as packing does for every candidate. */
  @Benchmark
  public int tokenCount() {
    return tokenizer.count(texts.get(nextIndex()));
  }
}
