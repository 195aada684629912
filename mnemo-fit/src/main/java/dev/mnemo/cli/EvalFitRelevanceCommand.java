package dev.mnemo.cli;

import dev.mnemo.eval.LocomoLoader;
import dev.mnemo.eval.LongMemEvalLoader;
import dev.mnemo.eval.LongMemEvalQuestion;
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
import picocli.CommandLine.Spec;

/**
 * {@code mnemo eval fit-relevance --out MODEL.properties [--generated N] [--scenarios FILE...]
 * [--locomo DIR] [--longmemeval FILE]}: fits the fetch gate's relevance model on dev data.
 *
 * <p>Not in the product jar (XGBoost, with Scala and Kryo, is for fitting only; core reads the
 * fitted trees without it): a {@link CommandPlugin} under {@code eval}, found when this module is
 * on the class path, which the {@code ./mnemo} launcher arranges by running {@code
 * mnemo-bench-cli/target/mnemo-bench.jar} for {@code eval fit-relevance}. In package {@code
 * dev.mnemo.cli} for the engine and cache options the other eval commands share.
 */
@Command(
    name = "fit-relevance",
    mixinStandardHelpOptions = true,
    description = {
      "Fit the fetch gate's relevance model (boosted trees, with XGBoost) on dev data only: "
          + "generated dev histories (made here from --seed), dev scenario files, LoCoMo's and LongMemEval's dev "
          + "splits; choose the gate's thresholds on the scenario questions; write the model file core reads "
          + "(the same data writes the same bytes) and print calibration (10 bins, ECE) per dataset. The shipped "
          + "model is mnemo-core/src/main/resources/dev/mnemo/relevance-model.properties; docs/evaluation.md "
          + "gives the command that made it."
    })
public final class EvalFitRelevanceCommand implements Callable<Integer>, CommandPlugin {
  @Override
  public String parent() {
    return "eval";
  }

  @Mixin EngineOptions engine;
  @Mixin EmbedCacheOptions cache;
  @Spec CommandSpec spec;

  @Option(
      names = "--out",
      required = true,
      paramLabel = "MODEL.properties",
      description = "Write the fitted model here.")
  Path out;

  @Option(
      names = "--generated",
      paramLabel = "N",
      defaultValue = "40",
      description =
          "Generated dev histories to fit on (eval generate's dev split; default ${DEFAULT-VALUE}; 0: none).")
  int generated;

  @Option(
      names = "--seed",
      paramLabel = "S",
      defaultValue = "42",
      description = "Seed of the generated histories (default ${DEFAULT-VALUE}).")
  long seed;

  @Option(
      names = "--scenarios",
      split = ",",
      paramLabel = "FILE",
      description = "Dev scenario files (.jsonl), comma-separated.")
  List<Path> scenarios;

  @Option(
      names = "--locomo",
      paramLabel = "DIR",
      description = "LoCoMo dev conversations (*.json).")
  Path locomo;

  @Option(
      names = "--longmemeval",
      paramLabel = "FILE",
      description = "LongMemEval dev questions (.json or .json.gz).")
  Path longMemEval;

  @Option(
      names = "--longmemeval-limit",
      paramLabel = "N",
      description =
          "Only the first N LongMemEval questions, "
              + "interleaved over their types as eval longmemeval orders them (default: all).")
  Integer longMemEvalLimit;

  @Option(
      names = "--report",
      paramLabel = "FILE.json",
      description = "Write calibration and precision-recall per dataset as JSON here.")
  Path report;

  @Option(
      names = "--dump",
      paramLabel = "FILE.jsonl",
      description = "Write every labelled candidate with its features here (one JSON line each).")
  Path dump;

  @Option(
      names = "--html",
      paramLabel = "FILE.html",
      description =
          "Write calibration tables, reliability diagrams and precision-recall curves here.")
  Path html;

  @Option(
      names = "--json",
      description =
          "Print calibration, precision-recall and the gate per dataset as JSON instead of the table.")
  boolean json;

  @Option(
      names = "--check-heldout",
      paramLabel = "N",
      defaultValue = "0",
      description =
          "Also generate N held-out histories (the generator's held-out phrasings, seed --check-seed) and "
              + "report the fitted model's calibration and gate on them, overall and per kind of question; never fitted "
              + "on, never used to choose a threshold (default ${DEFAULT-VALUE}: none).")
  int checkHeldout;

  @Option(
      names = "--check-seed",
      paramLabel = "S",
      defaultValue = "43",
      description = "Seed of the --check-heldout histories (default ${DEFAULT-VALUE}).")
  long checkSeed;

  @Option(
      names = "--check-dump",
      paramLabel = "FILE.jsonl",
      description =
          "Write every labelled candidate of the --check-heldout histories here (one JSON line each).")
  Path checkDump;

  @Override
  public Integer call() throws Exception {
    if (longMemEvalLimit != null && longMemEvalLimit < 1)
      throw new picocli.CommandLine.ParameterException(
          spec.commandLine(), "--longmemeval-limit must be >= 1, was " + longMemEvalLimit);
    if (checkHeldout < 0)
      throw new picocli.CommandLine.ParameterException(
          spec.commandLine(), "--check-heldout must be >= 0, was " + checkHeldout);
    if (generated < 0)
      throw new picocli.CommandLine.ParameterException(
          spec.commandLine(), "--generated must be >= 0, was " + generated);
    java.util.Map<String, List<dev.mnemo.eval.RelevanceData.Query>> data =
        new java.util.LinkedHashMap<>();
    List<String> header = new java.util.ArrayList<>();
    header.add("Mnemo's relevance model (fetch gate), fitted by: ./mnemo eval fit-relevance");
    java.util.function.Consumer<String> progress = System.err::println;
    String[] embedderIdHolder = {null};
    List<dev.mnemo.eval.RelevanceData.Query> check = new java.util.ArrayList<>();
    cache.run(
        engine,
        () -> {
          dev.mnemo.spi.Embedder embedder = engine.embedder();
          embedderIdHolder[0] = embedder == null ? null : embedder.modelId();
          if (generated > 0) {
            data.put(
                "generated",
                dev.mnemo.eval.RelevanceData.generated(
                    engine::open, seed, "dev", generated, "generated", progress));
            header.add("  generated dev histories: " + generated + " (seed " + seed + ")");
          }
          if (scenarios != null && !scenarios.isEmpty()) {
            data.put(
                "scenarios",
                dev.mnemo.eval.RelevanceData.scenarios(
                    engine::open, scenarios, "scenarios", progress));
            header.add(
                "  scenarios: " + scenarios.stream().map(p -> p.getFileName().toString()).toList());
          }
          if (locomo != null) {
            data.put(
                "locomo",
                dev.mnemo.eval.RelevanceData.locomo(
                    engine::open, LocomoLoader.loadDir(locomo), progress));
            header.add("  LoCoMo: " + locomo.getFileName());
          }
          if (longMemEval != null) {
            List<LongMemEvalQuestion> qs =
                LongMemEvalLoader.firstByType(
                    LongMemEvalLoader.load(longMemEval), longMemEvalLimit);
            data.put(
                "longmemeval",
                dev.mnemo.eval.RelevanceData.longMemEval(engine::open, qs, progress));
            header.add(
                "  LongMemEval: "
                    + longMemEval.getFileName()
                    + ", "
                    + qs.size()
                    + " questions (interleaved by type)");
          }
          if (checkHeldout > 0) {
            check.addAll(
                dev.mnemo.eval.RelevanceData.generated(
                    engine::open, checkSeed, "heldout", checkHeldout, "held-out", progress));
          }
          return null;
        });
    if (data.isEmpty())
      throw new picocli.CommandLine.ParameterException(
          spec.commandLine(),
          "no data: give --generated N > 0, --scenarios, --locomo or --longmemeval");
    String embedderId = embedderIdHolder[0];
    List<dev.mnemo.eval.RelevanceData.Query> all =
        data.values().stream().flatMap(List::stream).toList();
    // The threshold is chosen on the questions that look like users' (the scenario files: written
    // facts, questions in other words, messages that need nothing); generated histories only
    // where no scenario file is given (their template wording is the generator's fingerprint).
    List<dev.mnemo.eval.RelevanceData.Query> gate =
        data.containsKey("scenarios")
            ? data.get("scenarios")
            : data.getOrDefault("generated", List.of());
    List<dev.mnemo.eval.RelevanceData.Query> exhaustive =
        java.util.stream.Stream.concat(
                data.getOrDefault("locomo", List.of()).stream(),
                data.getOrDefault("longmemeval", List.of()).stream())
            .toList();
    if (gate.isEmpty()) gate = all;
    if (exhaustive.isEmpty()) exhaustive = all;
    dev.mnemo.eval.RelevanceFit.Fitted fit =
        dev.mnemo.eval.RelevanceFit.fit(all, gate, exhaustive, embedderId, header);
    Files.writeString(out, fit.text(), StandardCharsets.UTF_8);
    if (report != null)
      EvalCommand.writeJson(report, dev.mnemo.eval.RelevanceFit.report(fit.model(), data));
    if (dump != null) EvalCommand.writeLines(dump, dev.mnemo.eval.RelevanceData.dump(all));
    if (html != null) dev.mnemo.eval.RelevanceFit.html(fit.model(), data).write(html);
    PrintWriter o = spec.commandLine().getOut();
    if (json) {
      EvalCommand.printJson(o, dev.mnemo.eval.RelevanceFit.report(fit.model(), data));
      o.flush();
      return 0;
    }
    o.print(dev.mnemo.eval.RelevanceFit.table(fit.model(), data));
    o.println();
    o.println(
        "threshold  recall  precision  abstention  selected/question   (scenario questions, at each question's k)");
    for (var op : fit.gateCurve()) {
      if (Math.round(op.threshold() * 100) % 5 != 0) continue;
      o.printf(
          java.util.Locale.ROOT,
          "%9.2f  %6.3f  %9.3f  %10.3f  %6.2f%n",
          op.threshold(),
          op.recall(),
          op.precision(),
          op.abstention(),
          op.selectedPerQuery());
    }
    o.println();
    o.println(
        "ranking, out of fold: evidence recall@k by score | by probability;"
            + " the gate at its threshold: recall precision (score order | probability order)");
    for (var r : fit.ranking()) {
      o.printf(
          java.util.Locale.ROOT,
          "%-12s %4d q  k=%-2d  %.3f | %.3f    t=%.2f  %.3f %.3f | %.3f %.3f%n",
          r.dataset(),
          r.questions(),
          r.k(),
          r.byScore(),
          r.byProbability(),
          r.threshold(),
          r.gateByScore().recall(),
          r.gateByScore().precision(),
          r.gateByProbability().recall(),
          r.gateByProbability().precision());
    }
    if (!check.isEmpty()) {
      o.println();
      o.print(
          dev.mnemo.eval.RelevanceFit.table(
              fit.model(),
              java.util.Map.of("generated held-out (seed " + checkSeed + ", not fitted)", check)));
      o.print(dev.mnemo.eval.RelevanceFit.byKind(fit.model(), check));
      if (checkDump != null)
        EvalCommand.writeLines(checkDump, dev.mnemo.eval.RelevanceData.dump(check));
    }
    o.println("model: " + out);
    o.flush();
    return 0;
  }
}
