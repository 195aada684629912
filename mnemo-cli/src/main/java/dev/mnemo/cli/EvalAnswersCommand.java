package dev.mnemo.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.eval.AnswerEvaluator;
import dev.mnemo.eval.AnswerReport;
import dev.mnemo.eval.AnswerSuite;
import dev.mnemo.eval.AnswerSuites;
import dev.mnemo.eval.LocomoLoader;
import dev.mnemo.eval.ScenarioReader;
import dev.mnemo.llm.JsonChat;
import dev.mnemo.llm.LlmAnswerer;
import dev.mnemo.llm.LlmConfig;
import dev.mnemo.llm.LlmCounterfactual;
import dev.mnemo.llm.LlmJudge;
import java.io.PrintWriter;
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
 * {@code mnemo eval answers FILE... | --locomo DIR}: the answer-level evaluation (needs a language
 * model).
 */
@Command(
    name = "answers",
    mixinStandardHelpOptions = true,
    description = {
      "Does memory make the model's answers better? For each question: recall, answer with the memories and "
          + "without (same model and settings), judge both against the gold answer (LLM judge with a fixed rubric, exact "
          + "match, token F1); report benefit, disturbance and net benefit, use and fetch rates, precision@k; the "
          + "counterfactual check (change one memory: the answers about it should change, the others not); leave-one-out "
          + "utility of each recalled record and the storage-reduction vs answers-lost curve. Needs a language model "
          + "(--llm-model, or $MNEMO_LLM_MODEL); see docs/llm.md."
    })
final class EvalAnswersCommand implements Callable<Integer> {
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
      names = "--k",
      paramLabel = "K",
      defaultValue = "10",
      description = "LoCoMo: records recalled per question (default ${DEFAULT-VALUE}).")
  int k;

  @Option(
      names = "--budget",
      paramLabel = "TOKENS",
      defaultValue = "400",
      description = "LoCoMo: token budget of the recalled memories (default ${DEFAULT-VALUE}).")
  int budget;

  @Option(
      names = "--limit",
      paramLabel = "N",
      defaultValue = "1000000",
      description = "LoCoMo: at most N questions per conversation, in file order (for cost).")
  int limit;

  @Option(
      names = "--counterfactuals",
      paramLabel = "N",
      defaultValue = "2",
      description =
          "Memories changed per history for the counterfactual check (default ${DEFAULT-VALUE}; 0: none).")
  int counterfactuals;

  @Option(
      names = "--counterfactual-others",
      paramLabel = "N",
      defaultValue = "3",
      description = "Unrelated questions re-asked per changed memory (default ${DEFAULT-VALUE}).")
  int others;

  @Option(
      names = "--no-utility",
      description =
          "Skip the leave-one-out utility accounting (one answer and judgement per recalled record).")
  boolean noUtility;

  @Option(
      names = "--json",
      description = "Print the metrics as JSON (as written by --out) instead of the table.")
  boolean printJson;

  @Option(
      names = "--out",
      paramLabel = "FILE.json",
      description = "Write the metrics as JSON here.")
  Path out;

  @Option(
      names = "--queries",
      paramLabel = "FILE",
      description = "Write one JSON line per question here (answers, verdicts, scores).")
  Path queries;

  @Override
  public Integer call() throws Exception {
    EvalCommand.requireFilesOrLocomo(spec, files, locomo);
    JsonChat chat = engine.llm.require("eval answers");
    LlmConfig config = engine.llm.config();
    List<AnswerSuite> suites =
        locomo != null
            ? AnswerSuites.locomo(locomo, LocomoLoader.loadDir(locomo), k, budget, limit)
            : AnswerSuites.scenarios(ScenarioReader.read(files));
    PrintWriter err = spec.commandLine().getErr();
    AnswerReport report;
    try {
      report =
          new AnswerEvaluator(
                  engine::open,
                  new LlmAnswerer(chat),
                  new LlmJudge(chat),
                  new LlmCounterfactual(chat),
                  new AnswerEvaluator.Options(counterfactuals, others, !noUtility),
                  s -> {
                    err.println(s);
                    err.flush();
                  })
              .run(suites);
    } finally {
      engine.closeEmbedder();
    }
    ObjectNode json = report.toJson();
    ObjectNode run = json.putObject("run");
    run.put("provider", config.provider());
    run.put("model", config.model());
    run.put("rubric", LlmJudge.RUBRIC_ID);
    run.put("llm_calls", chat.calls());
    run.put("invalid_replies", chat.invalidReplies());
    if (out != null) EvalCommand.writeJson(out, json);
    if (queries != null) EvalCommand.writeLines(queries, report.queryLines());
    PrintWriter o = spec.commandLine().getOut();
    if (printJson) {
      EvalCommand.printJson(o, json);
      o.flush();
      return 0;
    }
    o.print(report.table());
    o.printf(
        Locale.ROOT,
        "model %s/%s, judge rubric %s, %d calls (%d invalid replies)%n",
        config.provider(),
        config.model(),
        LlmJudge.RUBRIC_ID,
        chat.calls(),
        chat.invalidReplies());
    if (out != null) o.println("metrics: " + out);
    if (queries != null) o.println("per-question results: " + queries);
    o.flush();
    return 0;
  }
}
