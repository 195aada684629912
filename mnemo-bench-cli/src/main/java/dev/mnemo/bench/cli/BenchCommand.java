package dev.mnemo.bench.cli;

import dev.mnemo.bench.ReadPathBench;
import dev.mnemo.cli.CommandPlugin;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code mnemo bench}: the read-path benchmark of {@link ReadPathBench} on a synthetic store (built
 * in {@code --dir} on first use, reused while its layout matches). Prints progress and a report;
 * with {@code --json} the report goes to stdout as one JSON object and progress to stderr. Uses the
 * local e5-small-v2-q embedder. Measures only; the exit code does not depend on any time.
 *
 * <p>Not in the product jar: the CLI finds it as a {@link CommandPlugin} when this module is on the
 * class path (the {@code ./mnemo} launcher runs {@code mnemo bench} from {@code
 * mnemo-bench-cli/target/mnemo-bench.jar}).
 */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    subcommands = {BenchLoadCommand.class, BenchLogCommand.class},
    description = {
      "Benchmark the read path: recall latency (p50/p99/p99.9) for hot owners inside a store of many owners, "
          + "with a precomputed query vector and with the real embedder; query embedding alone; ingest "
          + "throughput against raw embedding; RSS and index size.",
      "The store is filled once with synthetic records (1M takes several minutes) and reused while "
          + "--total, --hot, --owners and --seed stay the same. Run the JVM with -Xmx1g to judge memory."
    })
public final class BenchCommand implements Callable<Integer>, CommandPlugin {

  @Option(
      names = "--total",
      paramLabel = "N",
      description = "Records in the store (default: ${DEFAULT-VALUE}).",
      defaultValue = "1000000")
  int total;

  @Option(
      names = "--hot",
      paramLabel = "H",
      split = ",",
      description =
          "Record counts of the hot owners, each measured on its own (default: 1%% and 10%% of --total).")
  List<Integer> hot;

  @Option(
      names = "--owners",
      paramLabel = "M",
      description = "Other owners sharing the rest (default: --total / 100).")
  Integer owners;

  @Option(
      names = "--dir",
      paramLabel = "DIR",
      description = "Benchmark store directory (default: ${DEFAULT-VALUE}).",
      defaultValue = ".mnemo/bench")
  Path dir;

  @Option(names = "--queries", paramLabel = "Q", description = "Distinct questions (default: 200).")
  Integer queries;

  @Option(
      names = "--samples",
      paramLabel = "S",
      description = "Timed calls per series (default: 2000 from 500k records up, else 500).")
  Integer samples;

  @Option(
      names = "--warmup",
      paramLabel = "W",
      description = "Untimed calls before each series (default: samples / 4).")
  Integer warmup;

  @Option(
      names = "--ingest",
      paramLabel = "N",
      description =
          "Memories written in the ingest measurement, 0 to skip it (default: 2048 from 500k records up, else 512).")
  Integer ingest;

  @Option(names = "--seed", paramLabel = "S", description = "Corpus seed (default: 42).")
  Long seed;

  @Option(names = "--quick", description = "A run of about a minute: --total 50000 unless given.")
  boolean quick;

  @Option(
      names = "--json",
      description = "Print the results as JSON on stdout (progress on stderr).")
  boolean json;

  @Override
  public Integer call() {
    int n = quick && total == 1_000_000 ? 50_000 : total;
    ReadPathBench.Config d = ReadPathBench.Config.defaults(dir, n);
    int s = samples != null ? samples : d.samples();
    ReadPathBench.Config config =
        new ReadPathBench.Config(
            dir,
            n,
            hot != null ? hot : d.hot(),
            owners != null ? owners : d.owners(),
            queries != null ? queries : d.queries(),
            warmup != null ? warmup : s / 4,
            s,
            d.fillBatch(),
            ingest != null ? ingest : d.ingestTexts(),
            d.ingestBatch(),
            seed != null ? seed : d.seed());
    PrintStream log = json ? System.err : System.out;
    ReadPathBench.Result result = ReadPathBench.run(config, log);
    if (json) System.out.println(result.json());
    System.out.flush();
    return 0;
  }
}
