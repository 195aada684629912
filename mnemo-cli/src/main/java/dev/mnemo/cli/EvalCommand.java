package dev.mnemo.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.eval.Ablation;
import dev.mnemo.eval.AblationReport;
import dev.mnemo.eval.AblationRunner;
import dev.mnemo.eval.EvalHtml;
import dev.mnemo.eval.ExpectationCheck;
import dev.mnemo.eval.HistoryGenerator;
import dev.mnemo.eval.HtmlReport;
import dev.mnemo.eval.LocomoAblationReport;
import dev.mnemo.eval.LocomoLoader;
import dev.mnemo.eval.LocomoReport;
import dev.mnemo.eval.LocomoRunner;
import dev.mnemo.eval.LongMemEvalLoader;
import dev.mnemo.eval.LongMemEvalQuestion;
import dev.mnemo.eval.LongMemEvalReport;
import dev.mnemo.eval.LongMemEvalRunner;
import dev.mnemo.eval.ScenarioReport;
import dev.mnemo.eval.ScenarioRunner;
import dev.mnemo.json.JsonCodec;
import dev.mnemo.llm.LlmQueryRewriter;
import dev.mnemo.llm.QueryRewriter;
import java.io.BufferedWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
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
@Command(
    name = "eval",
    mixinStandardHelpOptions = true,
    description =
        "Evaluate retrieval: memory scenarios across policies, LoCoMo and LongMemEval evidence recall, "
            + "ablations of the read path, a generator of synthetic scenario histories, and a check of a report against "
            + "recorded expectations.",
    subcommands = {
      EvalCommand.Scenarios.class,
      EvalCommand.Locomo.class,
      EvalCommand.Generate.class,
      EvalCommand.Ablations.class,
      EvalCommand.LongMemEval.class,
      EvalCommand.Check.class,
      EvalAnswersCommand.class,
      EvalCommand.Gate.class,
      EvalCommand.AnswerProxyCommand.class
    })
final class EvalCommand implements Runnable {

  @Spec CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** {@code mnemo eval scenarios FILE... [--out FILE] [--json]}. */
  @Command(
      name = "scenarios",
      mixinStandardHelpOptions = true,
      description = {
        "Run scenario files (.jsonl, format in docs/scenarios.md) under the policies none, recent, keyword, full "
            + "and unfiltered at the same k and budget, and print recall, stale use, leakage, precision, abstention, "
            + "tokens and latency per split and policy."
      })
  static final class Scenarios implements Callable<Integer> {
    @Mixin EngineOptions engine;
    @Spec CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "FILE", description = "Scenario files (.jsonl).")
    List<Path> files;

    @Option(
        names = "--out",
        paramLabel = "FILE",
        description = "Write one JSON line per query and policy here.")
    Path out;

    @Option(names = "--json", description = "Print the metrics as JSON instead of the table.")
    boolean json;

    @Option(
        names = "--metrics",
        paramLabel = "FILE.json",
        description = "Write the metrics per split and policy as JSON here.")
    Path metrics;

    @Option(
        names = "--by-kind",
        description =
            "Also print the full policy's metrics per kind of question (the "
                + "generator's query ids: now, valid, known, when, absent, unknown, indirect, smalltalk).")
    boolean byKind;

    @Option(
        names = "--html",
        paramLabel = "FILE.html",
        description = "Write a self-contained HTML report with plots here.")
    Path html;

    @Mixin Progress.Options progress;

    @Override
    public Integer call() throws Exception {
      ScenarioReport report;
      int total = dev.mnemo.eval.ScenarioReader.read(files).size();
      try (Progress bar = progress.start("scenarios", total)) {
        report = new ScenarioRunner(counted(engine, bar)).run(files);
        bar.set(total);
      } finally {
        engine.closeEmbedder();
      }
      if (out != null) writeLines(out, report.queryLines());
      if (metrics != null) writeJson(metrics, report.metricsJson());
      if (html != null) EvalHtml.scenarios(report, files.toString()).write(html);
      PrintWriter o = spec.commandLine().getOut();
      if (json) {
        o.println(JsonCodec.PRETTY.writeValueAsString(report.metricsJson()));
      } else {
        o.print(report.table());
        if (byKind) o.print(report.kindTable(dev.mnemo.eval.Policy.FULL));
        if (out != null) o.println("per-query results: " + out);
        if (metrics != null) o.println("metrics: " + metrics);
        if (html != null) o.println("report: " + html);
      }
      o.flush();
      return 0;
    }
  }

  /** {@code mnemo eval locomo DIR [--out FILE.json] [--k-max 20] [--no-context]}. */
  @Command(
      name = "locomo",
      mixinStandardHelpOptions = true,
      description = {
        "LoCoMo evidence recall: index every *.json conversation of DIR turn by turn (one fresh store "
            + "each), ask its questions of categories 1-4 and report evidence recall@k and hit@k per ranking (full, "
            + "dense, bm25, full-rrf) and category; for category 5, how much of the top 5 the named speaker said."
      })
  static final class Locomo implements Callable<Integer> {
    @Mixin EngineOptions engine;
    @Spec CommandSpec spec;

    @Parameters(
        index = "0",
        paramLabel = "DIR",
        description = "Directory of LoCoMo conversation files (*.json).")
    Path dir;

    @Option(
        names = "--out",
        paramLabel = "FILE.json",
        description = "Write the metrics as JSON here.")
    Path out;

    @Option(
        names = "--k-max",
        paramLabel = "K",
        defaultValue = "20",
        description =
            "Records retrieved per question, the largest k reported (default ${DEFAULT-VALUE}).")
    int kMax;

    @Option(
        names = "--no-context",
        description =
            "Index each turn alone, without its neighbouring turns as context (which is the default).")
    boolean noContext;

    @Option(
        names = "--json",
        description = "Print the metrics as JSON (as written by --out) instead of the table.")
    boolean json;

    @Option(
        names = "--write-path",
        paramLabel = "MODE",
        defaultValue = "raw",
        description =
            "raw: every turn one memory (default); offline: each session's turns through ingest, the "
                + "configured extractor (--extractor) and consolidation, a record counting for every evidence turn among its "
                + "sources; llm: offline with --extractor llm (needs --llm-model).")
    String writePath;

    @Option(
        names = "--html",
        paramLabel = "FILE.html",
        description = "Write a self-contained HTML report with plots here.")
    Path html;

    @Mixin EmbedCacheOptions cache;

    @Override
    public Integer call() throws Exception {
      if ("llm".equals(writePath)) engine.extractor = "llm";
      LocomoReport report =
          cache.run(
              engine,
              () ->
                  new LocomoRunner(
                          engine::open,
                          !noContext,
                          kMax,
                          LocomoRunner.WritePath.fromCode(writePath))
                      .run(LocomoLoader.loadDir(dir), System.err::println));
      finish(
          spec,
          report.table(),
          report.toJson(),
          out,
          () -> EvalHtml.locomo(report, dir.toString()),
          html,
          json);
      return 0;
    }
  }

  /** {@code mnemo eval generate --out DIR [--seed S] [--dev 10] [--heldout 20]}. */
  @Command(
      name = "generate",
      mixinStandardHelpOptions = true,
      description = {
        "Write synthetic memory histories as scenario files (DIR/dev.jsonl, DIR/heldout.jsonl): owners "
            + "sharing a first name, ten fact kinds with corrections, retroactive corrections and expiries, dated events, "
            + "off-topic notes; current, historical (valid_at), known-then (known_at), time-word and nothing-to-find "
            + "questions. Seeded: the same seed writes the same bytes. The held-out split uses other phrasings."
      })
  static final class Generate implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Option(
        names = "--out",
        required = true,
        paramLabel = "DIR",
        description = "Directory to write dev.jsonl and heldout.jsonl into.")
    Path out;

    @Option(
        names = "--seed",
        paramLabel = "S",
        defaultValue = "" + HistoryGenerator.DEFAULT_SEED,
        description = "Random seed (default ${DEFAULT-VALUE}).")
    long seed;

    @Option(
        names = "--dev",
        paramLabel = "N",
        defaultValue = "" + HistoryGenerator.DEFAULT_DEV,
        description = "Histories in the dev split (default ${DEFAULT-VALUE}).")
    int dev;

    @Option(
        names = "--heldout",
        paramLabel = "N",
        defaultValue = "" + HistoryGenerator.DEFAULT_HELDOUT,
        description =
            "Histories in the held-out split (default ${DEFAULT-VALUE}); never tune on them.")
    int heldout;

    @Option(names = "--json", description = "Print what was written as JSON.")
    boolean json;

    @Override
    public Integer call() {
      List<Path> files = new HistoryGenerator(seed).write(out, dev, heldout);
      PrintWriter o = spec.commandLine().getOut();
      if (json) {
        ObjectNode n = JsonCodec.object();
        n.put("seed", seed)
            .put("dev", files.get(0).toString())
            .put("heldout", files.get(1).toString())
            .put("dev_histories", dev)
            .put("heldout_histories", heldout);
        o.println(n.toString());
        o.flush();
        return 0;
      }
      o.printf(
          Locale.ROOT,
          "wrote %d dev histories to %s and %d held-out histories to %s (seed %d)%n",
          dev,
          files.get(0),
          heldout,
          files.get(1),
          seed);
      o.flush();
      return 0;
    }
  }

  /**
   * {@code mnemo eval ablations FILE... [--out FILE.json]} or {@code mnemo eval ablations --locomo
   * DIR}.
   */
  @Command(
      name = "ablations",
      mixinStandardHelpOptions = true,
      description = {
        "Ablations of the read path in one run at the same k and budget: dense only, BM25 only, dense+BM25, "
            + "+entity, +ranking signals, full (+time words), and full with RRF, time words as a filter, coverage packing, "
            + "without the relative threshold, without any threshold. On scenario files: recall, stale use, leakage, "
            + "precision, abstention, tokens per split; with --locomo: evidence recall@k (thresholds off)."
      })
  static final class Ablations implements Callable<Integer> {
    @Mixin EngineOptions engine;
    @Spec CommandSpec spec;

    @Parameters(arity = "0..*", paramLabel = "FILE", description = "Scenario files (.jsonl).")
    List<Path> files;

    @Option(
        names = "--locomo",
        paramLabel = "DIR",
        description = "Run on the LoCoMo conversations (*.json) of DIR instead.")
    Path locomo;

    @Option(
        names = "--k-max",
        paramLabel = "K",
        defaultValue = "10",
        description =
            "With --locomo: records retrieved per question, the largest k reported (default ${DEFAULT-VALUE}).")
    int kMax;

    @Option(
        names = "--no-context",
        description = "With --locomo: index each turn without its neighbouring turns as context.")
    boolean noContext;

    @Option(
        names = "--variants",
        split = ",",
        paramLabel = "CODE",
        description =
            "Only these variants, comma-separated (default: all; tables keep the order above).")
    List<String> variants;

    @Option(
        names = "--out",
        paramLabel = "FILE.json",
        description = "Write the metrics as JSON here.")
    Path out;

    @Option(
        names = "--queries",
        paramLabel = "FILE",
        description = "Scenarios only: write one JSON line per query and variant here.")
    Path queries;

    @Option(
        names = "--json",
        description = "Print the metrics as JSON (as written by --out) instead of the table.")
    boolean json;

    @Option(
        names = "--html",
        paramLabel = "FILE.html",
        description = "Write a self-contained HTML report with plots here.")
    Path html;

    @Mixin EmbedCacheOptions cache;

    @Override
    public Integer call() throws Exception {
      requireFilesOrLocomo(spec, files, locomo);
      // noisy+rewriter calls the configured language model; without one it is left out (or refused
      // when named)
      List<Ablation> chosen =
          variants == null
              ? Ablation.available(engine.llm.config() != null)
              : variants.stream().map(Ablation::fromCode).toList();
      QueryRewriter rewriter =
          chosen.stream().anyMatch(Ablation::needsModel)
              ? new LlmQueryRewriter(engine.llm.require("the noisy+rewriter variant"))
              : null;
      record Outcome(ObjectNode json, String table, HtmlReport page) {}
      Outcome outcome =
          cache.run(
              engine,
              () -> {
                AblationRunner runner = new AblationRunner(engine::open, chosen, rewriter);
                if (locomo != null) {
                  LocomoAblationReport r =
                      runner.locomo(LocomoLoader.loadDir(locomo), !noContext, kMax);
                  return new Outcome(
                      r.toJson(), r.table(), EvalHtml.locomoAblations(r, locomo.toString()));
                }
                AblationReport r = runner.run(files);
                if (queries != null) {
                  try {
                    writeLines(queries, r.queryLines());
                  } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException("cannot write " + queries, e);
                  }
                }
                return new Outcome(r.toJson(), r.table(), EvalHtml.ablations(r, files.toString()));
              });
      finish(spec, outcome.table(), outcome.json(), out, outcome::page, html, json);
      PrintWriter o = spec.commandLine().getOut();
      if (!json && queries != null && locomo == null) o.println("per-query results: " + queries);
      o.flush();
      return 0;
    }
  }

  /**
   * {@code mnemo eval longmemeval FILE [--out FILE.json] [--k-max 50] [--no-context] [--limit N]}.
   */
  @Command(
      name = "longmemeval",
      mixinStandardHelpOptions = true,
      description = {
        "LongMemEval retrieval: index each question's haystack (every turn, user and assistant, dated by "
            + "its session) in a fresh store, ask the question at its question_date, and report session-level and "
            + "turn-level recall@k and NDCG@k per ranking (full, dense, bm25, full-rrf) and question type, abstention "
            + "questions apart, with tokens and latency. FILE is LongMemEval JSON, plain or gzip."
      })
  static final class LongMemEval implements Callable<Integer> {
    @Mixin EngineOptions engine;
    @Mixin EmbedCacheOptions cache;
    @Spec CommandSpec spec;

    @Parameters(
        index = "0",
        paramLabel = "FILE",
        description = "LongMemEval questions (.json or .json.gz).")
    Path file;

    @Option(
        names = "--out",
        paramLabel = "FILE.json",
        description = "Write the metrics as JSON here.")
    Path out;

    @Option(
        names = "--k-max",
        paramLabel = "K",
        defaultValue = "50",
        description =
            "Records retrieved per question, the largest k reported; sessions are read off them "
                + "(default ${DEFAULT-VALUE}).")
    int kMax;

    @Option(
        names = "--no-context",
        description = "Index each turn without its neighbouring turns as context.")
    boolean noContext;

    @Option(
        names = "--limit",
        paramLabel = "N",
        description =
            "Only the first N questions. Questions run round-robin "
                + "over their types (each type in file order), so any N covers every type.")
    Integer limit;

    @Option(
        names = "--rankings",
        split = ",",
        paramLabel = "CODE",
        description =
            "Only these rankings, comma-separated (default: full, dense, bm25, full-rrf).")
    List<String> rankings;

    @Option(
        names = "--json",
        description = "Print the metrics as JSON (as written by --out) instead of the table.")
    boolean json;

    @Option(
        names = "--html",
        paramLabel = "FILE.html",
        description = "Write a self-contained HTML report with plots here.")
    Path html;

    @Override
    public Integer call() throws Exception {
      List<LongMemEvalQuestion> questions =
          LongMemEvalLoader.interleaveByType(LongMemEvalLoader.load(file));
      if (limit != null) {
        if (limit < 1)
          throw new picocli.CommandLine.ParameterException(
              spec.commandLine(), "--limit must be >= 1, was " + limit);
        questions = questions.subList(0, Math.min(limit, questions.size()));
      }
      List<LocomoRunner.Ranking> chosen =
          rankings == null
              ? List.of(LocomoRunner.Ranking.values())
              : rankings.stream().map(EvalCommand::ranking).toList();
      List<LongMemEvalQuestion> asked = questions;
      LongMemEvalReport report =
          cache.run(
              engine,
              () ->
                  new LongMemEvalRunner(engine::open, !noContext, kMax, chosen, System.err::println)
                      .run(asked));
      finish(
          spec,
          report.table(),
          report.toJson(),
          out,
          () -> EvalHtml.longMemEval(report, file.toString()),
          html,
          json);
      return 0;
    }
  }

  /** {@code mnemo eval gate [--seeds 42,43,44,45,46] [--dev N] [--heldout N] [--json]}. */
  @Command(
      name = "gate",
      mixinStandardHelpOptions = true,
      description = {
        "The fetch gate over several generator seeds: generate dev and held-out histories per seed, run "
            + "the policies none, recent, keyword, full and the gate's operating points (full-no-gate, gate-loose, "
            + "gate-strict), and print recall, precision, abstention, fetch rate, tokens and irrelevant tokens per "
            + "split and arm, and per kind of question for full, as the mean over seeds (lowest-highest)."
      })
  static final class Gate implements Callable<Integer> {
    @Mixin EngineOptions engine;
    @Spec CommandSpec spec;

    @Option(
        names = "--seeds",
        split = ",",
        paramLabel = "S",
        defaultValue = "42,43,44,45,46",
        description = "Generator seeds, comma-separated (default ${DEFAULT-VALUE}).")
    List<Long> seeds;

    @Option(
        names = "--dev",
        paramLabel = "N",
        defaultValue = "10",
        description = "Dev histories per seed (default ${DEFAULT-VALUE}).")
    int devCount;

    @Option(
        names = "--heldout",
        paramLabel = "N",
        defaultValue = "20",
        description = "Held-out histories per seed (default ${DEFAULT-VALUE}).")
    int heldoutCount;

    @Option(
        names = "--json",
        description = "Print every seed's metrics as JSON instead of the table.")
    boolean json;

    @Override
    public Integer call() throws Exception {
      dev.mnemo.eval.GateSeeds.Result r;
      try {
        r =
            dev.mnemo.eval.GateSeeds.run(
                engine::open, seeds, devCount, heldoutCount, System.err::println);
      } finally {
        engine.closeEmbedder();
      }
      PrintWriter o = spec.commandLine().getOut();
      if (json) printJson(o, dev.mnemo.eval.GateSeeds.json(r));
      else o.print(dev.mnemo.eval.GateSeeds.table(r));
      o.flush();
      return 0;
    }
  }

  /** {@code mnemo eval answer-proxy [--locomo DIR] [--longmemeval FILE] [--budget N]}. */
  @Command(
      name = "answer-proxy",
      mixinStandardHelpOptions = true,
      description = {
        "An answer-level proxy without a language model: at one token budget for every policy (none, "
            + "recent, keyword, full-no-gate, and the gate at 0.2, its default and 0.65), the share of questions whose "
            + "gold answer's words all appear in the injected texts, the tokens injected and those of records that are "
            + "not evidence, and the fetch rate; LongMemEval's abstention questions apart."
      })
  static final class AnswerProxyCommand implements Callable<Integer> {
    @Mixin EngineOptions engine;
    @Mixin EmbedCacheOptions cache;
    @Spec CommandSpec spec;

    @Option(names = "--locomo", paramLabel = "DIR", description = "LoCoMo conversations (*.json).")
    Path locomo;

    @Option(
        names = "--longmemeval",
        paramLabel = "FILE",
        description = "LongMemEval questions (.json or .json.gz).")
    Path longMemEval;

    @Option(
        names = "--longmemeval-limit",
        paramLabel = "N",
        description =
            "Only the first N LongMemEval questions, "
                + "interleaved over their types as eval longmemeval orders them (default: all).")
    Integer longMemEvalLimit;

    @Option(
        names = "--budget",
        paramLabel = "TOKENS",
        defaultValue = "200",
        description = "The token budget of every policy (default ${DEFAULT-VALUE}).")
    int budget;

    @Option(
        names = "--json",
        description = "Print the summary per dataset and arm as JSON instead of the table.")
    boolean json;

    @Override
    public Integer call() throws Exception {
      if (longMemEvalLimit != null && longMemEvalLimit < 1) {
        throw new picocli.CommandLine.ParameterException(
            spec.commandLine(), "--longmemeval-limit must be >= 1, was " + longMemEvalLimit);
      }
      if (locomo == null && longMemEval == null) {
        throw new picocli.CommandLine.ParameterException(
            spec.commandLine(), "give --locomo DIR and/or --longmemeval FILE");
      }
      List<dev.mnemo.eval.AnswerProxy.Outcome> out = new java.util.ArrayList<>();
      cache.run(
          engine,
          () -> {
            if (locomo != null) {
              out.addAll(
                  dev.mnemo.eval.AnswerProxy.locomo(
                      engine::open, LocomoLoader.loadDir(locomo), budget, System.err::println));
            }
            if (longMemEval != null) {
              List<LongMemEvalQuestion> qs = LongMemEvalLoader.load(longMemEval);
              if (longMemEvalLimit != null)
                qs = LongMemEvalLoader.firstByType(qs, longMemEvalLimit);
              out.addAll(
                  dev.mnemo.eval.AnswerProxy.longMemEval(
                      engine::open, qs, budget, System.err::println));
            }
            return null;
          });
      PrintWriter o = spec.commandLine().getOut();
      if (json) printJson(o, dev.mnemo.eval.AnswerProxy.json(out));
      else o.print(dev.mnemo.eval.AnswerProxy.table(out, budget));
      o.flush();
      return 0;
    }
  }

  /**
   * {@code mnemo eval check --expect EXPECT.json --actual REPORT.json}: exit 1 when a metric
   * dropped.
   */
  @Command(
      name = "check",
      mixinStandardHelpOptions = true,
      description = {
        "Compare an evaluation's JSON report with recorded expectations (JSON Pointer -> value, with "
            + "tolerances; see docs/evaluation.md): print every metric, expected, actual and change, and exit with 1 "
            + "when one got worse than its tolerance allows or is missing."
      })
  static final class Check implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Option(
        names = "--expect",
        required = true,
        paramLabel = "EXPECT.json",
        description = "The expectations.")
    Path expect;

    @Option(
        names = "--actual",
        required = true,
        paramLabel = "REPORT.json",
        description = "The report (--out or --metrics of an eval command).")
    Path actual;

    @Option(names = "--json", description = "Print the verdict and every compared metric as JSON.")
    boolean json;

    @Override
    public Integer call() {
      ExpectationCheck.Result r = ExpectationCheck.check(expect, actual);
      PrintWriter o = spec.commandLine().getOut();
      if (json) {
        ObjectNode n = JsonCodec.object();
        n.put("passed", r.passed());
        n.set("rows", JsonCodec.tree(r.rows()));
        o.println(n.toString());
      } else {
        o.print(r.table());
      }
      o.flush();
      return r.passed() ? 0 : 1;
    }
  }

  /**
   * Writes the JSON and the HTML report where asked, then prints the table and where they went, or
   * with {@code --json} the metrics alone.
   */
  private static void finish(
      CommandSpec spec,
      String table,
      ObjectNode json,
      Path jsonFile,
      java.util.function.Supplier<HtmlReport> html,
      Path htmlFile,
      boolean printJson)
      throws java.io.IOException {
    if (jsonFile != null) writeJson(jsonFile, json);
    if (htmlFile != null) html.get().write(htmlFile);
    PrintWriter o = spec.commandLine().getOut();
    if (printJson) {
      printJson(o, json);
      o.flush();
      return;
    }
    o.print(table);
    if (jsonFile != null) o.println("metrics: " + jsonFile);
    if (htmlFile != null) o.println("report: " + htmlFile);
    o.flush();
  }

  /**
   * The engine factory of a run, reporting progress: the runners open one fresh engine per scenario
   * or conversation, so opening the n-th means n - 1 are done (the caller sets the total at the
   * end).
   */
  static java.util.function.Function<Path, dev.mnemo.Mnemo> counted(
      EngineOptions engine, Progress bar) {
    java.util.concurrent.atomic.AtomicInteger opened =
        new java.util.concurrent.atomic.AtomicInteger();
    return dir -> {
      bar.set(opened.getAndIncrement());
      return engine.open(dir);
    };
  }

  static void printJson(PrintWriter o, Object json) throws java.io.IOException {
    o.println(JsonCodec.PRETTY.writeValueAsString(json));
  }

  static void requireFilesOrLocomo(CommandSpec spec, List<Path> files, Path locomo) {
    boolean hasFiles = files != null && !files.isEmpty();
    if (hasFiles == (locomo != null)) {
      throw new picocli.CommandLine.ParameterException(
          spec.commandLine(),
          "give either scenario FILEs or --locomo DIR, " + (hasFiles ? "was both" : "was neither"));
    }
  }

  /** One JSON object per line. */
  static void writeLines(Path file, List<ObjectNode> lines) throws java.io.IOException {
    try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      for (ObjectNode line : lines) {
        w.write(JsonCodec.WRITER.writeValueAsString(line));
        w.newLine();
      }
    }
  }

  /** Pretty-printed JSON, one file. */
  static void writeJson(Path file, ObjectNode json) throws java.io.IOException {
    Files.writeString(
        file,
        JsonCodec.PRETTY.writeValueAsString(json) + System.lineSeparator(),
        StandardCharsets.UTF_8);
  }

  static LocomoRunner.Ranking ranking(String code) {
    for (LocomoRunner.Ranking r : LocomoRunner.Ranking.values())
      if (r.code().equals(code.trim())) return r;
    throw new IllegalArgumentException(
        "ranking must be one of "
            + java.util.Arrays.stream(LocomoRunner.Ranking.values())
                .map(LocomoRunner.Ranking::code)
                .toList()
            + ", was '"
            + code
            + "'");
  }
}
