package dev.mnemo.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.Mnemo;
import dev.mnemo.eval.Ablation;
import dev.mnemo.eval.AblationReport;
import dev.mnemo.eval.AblationRunner;
import dev.mnemo.eval.HistoryGenerator;
import dev.mnemo.eval.LocomoAblationReport;
import dev.mnemo.eval.LocomoConversation;
import dev.mnemo.eval.LocomoLoader;
import dev.mnemo.eval.LocomoReport;
import dev.mnemo.eval.LocomoRunner;
import dev.mnemo.eval.ScenarioReader;
import dev.mnemo.eval.ScenarioReport;
import dev.mnemo.eval.ScenarioRunner;
import dev.mnemo.json.JsonCodec;
import java.io.BufferedWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code mnemo eval}: the evaluation commands. Each run uses fresh stores in temporary directories
 * (never {@code --data}), one embedder shared by all of them.
 */
@Command(name = "eval", mixinStandardHelpOptions = true,
    description = "Evaluate retrieval: memory scenarios across policies, LoCoMo evidence recall, ablations of the read "
        + "path, and a generator of synthetic scenario histories.",
    subcommands = {EvalCommand.Scenarios.class, EvalCommand.Locomo.class, EvalCommand.Generate.class,
        EvalCommand.Ablations.class, EvalAnswersCommand.class})
final class EvalCommand implements Runnable {

  @Spec CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /**
   * The engine factory of a run, reporting progress: the runners open one fresh engine per scenario
   * or conversation, so opening the n-th means n - 1 are done (the caller sets the total at the end).
   */
  static Function<Path, Mnemo> counted(EngineOptions engine, Progress bar) {
    AtomicInteger opened = new AtomicInteger();
    return dir -> {
      bar.set(opened.getAndIncrement());
      return engine.open(dir);
    };
  }

  static void printJson(PrintWriter o, Object json) throws java.io.IOException {
    o.println(JsonCodec.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(json));
  }

  /** {@code mnemo eval scenarios FILE... [--out FILE] [--json]}. */
  @Command(name = "scenarios", mixinStandardHelpOptions = true,
      description = {"Run scenario files (.jsonl, see SCENARIOS.md) under the policies none, recent, keyword, full "
          + "and unfiltered at the same k and budget, and print recall, stale use, leakage, precision, abstention, "
          + "tokens and latency per split and policy."})
  static final class Scenarios implements Callable<Integer> {
    @Mixin EngineOptions engine;
    @Spec CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "FILE", description = "Scenario files (.jsonl).")
    List<Path> files;

    @Option(names = "--out", paramLabel = "FILE", description = "Write one JSON line per query and policy here.")
    Path out;

    @Option(names = "--json", description = "Print the metrics as JSON instead of the table.")
    boolean json;

    @Mixin Progress.Options progress;

    @Override
    public Integer call() throws Exception {
      ScenarioReport report;
      int total = ScenarioReader.read(files).size(); // a malformed file fails here, before anything runs
      try (Progress bar = progress.start("scenarios", total)) {
        report = new ScenarioRunner(counted(engine, bar)).run(files);
        bar.set(total);
      } finally {
        engine.closeEmbedder();
      }
      if (out != null) {
        try (BufferedWriter w = Files.newBufferedWriter(out, StandardCharsets.UTF_8)) {
          for (ObjectNode line : report.queryLines()) {
            w.write(JsonCodec.MAPPER.writeValueAsString(line));
            w.newLine();
          }
        }
      }
      PrintWriter o = spec.commandLine().getOut();
      if (json) {
        printJson(o, report.metricsJson());
      } else {
        o.print(report.table());
        if (out != null) o.println("per-query results: " + out);
      }
      o.flush();
      return 0;
    }
  }

  /** {@code mnemo eval locomo DIR [--out FILE.json] [--k-max 20] [--no-context] [--write-path raw|offline]}. */
  @Command(name = "locomo", mixinStandardHelpOptions = true,
      description = {"LoCoMo evidence recall: index every *.json conversation of DIR turn by turn (one fresh store "
          + "each), ask its questions of categories 1-4 and report evidence recall@k and hit@k per ranking (full, "
          + "dense, bm25, full-rrf) and category; for category 5, how much of the top 5 the named speaker said."})
  static final class Locomo implements Callable<Integer> {
    @Mixin EngineOptions engine;
    @Spec CommandSpec spec;

    @Parameters(index = "0", paramLabel = "DIR", description = "Directory of LoCoMo conversation files (*.json).")
    Path dir;

    @Option(names = "--out", paramLabel = "FILE.json", description = "Write the metrics as JSON here.")
    Path out;

    @Option(names = "--k-max", paramLabel = "K", defaultValue = "20",
        description = "Records retrieved per question, the largest k reported (default ${DEFAULT-VALUE}).")
    int kMax;

    @Option(names = "--no-context",
        description = "Index each turn alone, without its neighbouring turns as context (which is the default).")
    boolean noContext;

    @Option(names = "--json", description = "Print the metrics as JSON (as written by --out) instead of the table.")
    boolean json;

    @Mixin Progress.Options progress;

    @Option(names = "--write-path", paramLabel = "MODE", defaultValue = "raw",
        description = "raw: every turn one memory (default); offline: each session's turns through ingest, the "
            + "offline extractor and rule consolidation, a record counting for every evidence turn among its sources.")
    String writePath;

    @Override
    public Integer call() throws Exception {
      LocomoReport report;
      List<LocomoConversation> conversations = LocomoLoader.loadDir(dir);
      try (Progress bar = progress.start("conversations", conversations.size())) {
        report = new LocomoRunner(counted(engine, bar), !noContext, kMax, LocomoRunner.WritePath.fromCode(writePath))
            .run(conversations);
        bar.set(conversations.size());
      } finally {
        engine.closeEmbedder();
      }
      if (out != null) {
        Files.writeString(out, JsonCodec.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(report.toJson())
            + System.lineSeparator(), StandardCharsets.UTF_8);
      }
      PrintWriter o = spec.commandLine().getOut();
      if (json) printJson(o, report.toJson());
      else o.print(report.table());
      if (out != null && !json) o.println("metrics: " + out);
      o.flush();
      return 0;
    }
  }

  /** {@code mnemo eval generate --out DIR [--seed S] [--dev 10] [--heldout 20]}. */
  @Command(name = "generate", mixinStandardHelpOptions = true,
      description = {"Write synthetic memory histories as scenario files (DIR/dev.jsonl, DIR/heldout.jsonl): owners "
          + "sharing a first name, ten fact kinds with corrections, retroactive corrections and expiries, dated events, "
          + "off-topic notes; current, historical (valid_at), known-then (known_at), time-word and nothing-to-find "
          + "questions. Seeded: the same seed writes the same bytes. The held-out split uses other phrasings."})
  static final class Generate implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Option(names = "--out", required = true, paramLabel = "DIR", description = "Directory to write dev.jsonl and heldout.jsonl into.")
    Path out;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "" + HistoryGenerator.DEFAULT_SEED,
        description = "Random seed (default ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--dev", paramLabel = "N", defaultValue = "" + HistoryGenerator.DEFAULT_DEV,
        description = "Histories in the dev split (default ${DEFAULT-VALUE}).")
    int dev;

    @Option(names = "--heldout", paramLabel = "N", defaultValue = "" + HistoryGenerator.DEFAULT_HELDOUT,
        description = "Histories in the held-out split (default ${DEFAULT-VALUE}); never tune on them.")
    int heldout;

    @Option(names = "--json", description = "Print what was written as JSON: {dev, heldout, seed, dev_histories, heldout_histories}.")
    boolean json;

    @Override
    public Integer call() throws Exception {
      List<Path> files = new HistoryGenerator(seed).write(out, dev, heldout);
      PrintWriter o = spec.commandLine().getOut();
      if (json) {
        printJson(o, JsonCodec.MAPPER.createObjectNode().put("dev", files.get(0).toString())
            .put("heldout", files.get(1).toString()).put("seed", seed).put("dev_histories", dev).put("heldout_histories", heldout));
        o.flush();
        return 0;
      }
      o.printf("wrote %d dev histories to %s and %d held-out histories to %s (seed %d)%n", dev, files.get(0), heldout,
          files.get(1), seed);
      o.flush();
      return 0;
    }
  }

  /** {@code mnemo eval ablations FILE... [--out FILE.json]} or {@code mnemo eval ablations --locomo DIR}. */
  @Command(name = "ablations", mixinStandardHelpOptions = true,
      description = {"Ablations of the read path in one run at the same k and budget: dense only, BM25 only, dense+BM25, "
          + "+entity, +ranking signals, full (+time words), and full with RRF, time words as a filter, coverage packing, "
          + "without the relative threshold, without any threshold. On scenario files: recall, stale use, leakage, "
          + "precision, abstention, tokens per split; with --locomo: evidence recall@k (thresholds off)."})
  static final class Ablations implements Callable<Integer> {
    @Mixin EngineOptions engine;
    @Spec CommandSpec spec;

    @Parameters(arity = "0..*", paramLabel = "FILE", description = "Scenario files (.jsonl).")
    List<Path> files;

    @Option(names = "--locomo", paramLabel = "DIR", description = "Run on the LoCoMo conversations (*.json) of DIR instead.")
    Path locomo;

    @Option(names = "--k-max", paramLabel = "K", defaultValue = "10",
        description = "With --locomo: records retrieved per question, the largest k reported (default ${DEFAULT-VALUE}).")
    int kMax;

    @Option(names = "--no-context", description = "With --locomo: index each turn without its neighbouring turns as context.")
    boolean noContext;

    @Option(names = "--variants", split = ",", paramLabel = "CODE",
        description = "Only these variants, comma-separated (default: all; tables keep the order above).")
    List<String> variants;

    @Option(names = "--out", paramLabel = "FILE.json", description = "Write the metrics as JSON here.")
    Path out;

    @Option(names = "--queries", paramLabel = "FILE", description = "Scenarios only: write one JSON line per query and variant here.")
    Path queries;

    @Option(names = "--json", description = "Print the metrics as JSON (as written by --out) instead of the table.")
    boolean json;

    @Mixin Progress.Options progress;

    @Override
    public Integer call() throws Exception {
      requireFilesOrLocomo(spec, files, locomo);
      List<Ablation> chosen = variants == null ? List.of(Ablation.values())
          : variants.stream().map(Ablation::fromCode).toList();
      ObjectNode metrics;
      String table;
      List<LocomoConversation> conversations = locomo == null ? null : LocomoLoader.loadDir(locomo);
      int total = conversations != null ? conversations.size() : ScenarioReader.read(files).size();
      try (Progress bar = progress.start(conversations != null ? "conversations" : "scenarios", total)) {
        AblationRunner runner = new AblationRunner(counted(engine, bar), chosen);
        if (conversations != null) {
          LocomoAblationReport r = runner.locomo(conversations, !noContext, kMax);
          metrics = r.toJson();
          table = r.table();
        } else {
          AblationReport r = runner.run(files);
          metrics = r.toJson();
          table = r.table();
          if (queries != null) writeLines(queries, r.queryLines());
        }
        bar.set(total);
      } finally {
        engine.closeEmbedder();
      }
      if (out != null) writeJson(out, metrics);
      PrintWriter o = spec.commandLine().getOut();
      if (json) {
        printJson(o, metrics);
        o.flush();
        return 0;
      }
      o.print(table);
      if (out != null) o.println("metrics: " + out);
      if (queries != null && locomo == null) o.println("per-query results: " + queries);
      o.flush();
      return 0;
    }
  }

  /** Exactly one input: scenario files or a LoCoMo directory; a usage error otherwise. */
  static void requireFilesOrLocomo(CommandSpec spec, List<Path> files, Path locomo) {
    boolean hasFiles = files != null && !files.isEmpty();
    if (hasFiles == (locomo != null)) {
      throw new picocli.CommandLine.ParameterException(spec.commandLine(),
          "give either scenario FILEs or --locomo DIR, " + (hasFiles ? "was both" : "was neither"));
    }
  }

  /** Pretty-printed JSON, one file. */
  static void writeJson(Path out, ObjectNode json) throws java.io.IOException {
    Files.writeString(out, JsonCodec.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(json)
        + System.lineSeparator(), StandardCharsets.UTF_8);
  }

  /** One JSON object per line. */
  static void writeLines(Path file, List<ObjectNode> lines) throws java.io.IOException {
    try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      for (ObjectNode line : lines) {
        w.write(JsonCodec.MAPPER.writeValueAsString(line));
        w.newLine();
      }
    }
  }
}
