package dev.mnemo.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.eval.LocomoLoader;
import dev.mnemo.eval.LocomoReport;
import dev.mnemo.eval.LocomoRunner;
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
    description = "Evaluate retrieval: memory scenarios across policies, LoCoMo evidence recall.",
    subcommands = {EvalCommand.Scenarios.class, EvalCommand.Locomo.class})
final class EvalCommand implements Runnable {

  @Spec CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
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

    @Override
    public Integer call() throws Exception {
      ScenarioReport report;
      try {
        report = new ScenarioRunner(engine::open).run(files);
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
        o.println(JsonCodec.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(report.metricsJson()));
      } else {
        o.print(report.table());
        if (out != null) o.println("per-query results: " + out);
      }
      o.flush();
      return 0;
    }
  }

  /** {@code mnemo eval locomo DIR [--out FILE.json] [--k-max 20] [--no-context]}. */
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

    @Override
    public Integer call() throws Exception {
      LocomoReport report;
      try {
        report = new LocomoRunner(engine::open, !noContext, kMax).run(LocomoLoader.loadDir(dir));
      } finally {
        engine.closeEmbedder();
      }
      if (out != null) {
        Files.writeString(out, JsonCodec.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(report.toJson())
            + System.lineSeparator(), StandardCharsets.UTF_8);
      }
      PrintWriter o = spec.commandLine().getOut();
      o.print(report.table());
      if (out != null) o.println("metrics: " + out);
      o.flush();
      return 0;
    }
  }
}
