package dev.mnemo.cli;

import dev.mnemo.Category;
import dev.mnemo.Fusion;
import dev.mnemo.Mnemo;
import dev.mnemo.Packing;
import dev.mnemo.RecallRequest;
import dev.mnemo.RecallResult;
import dev.mnemo.TemporalMode;
import dev.mnemo.TimeFilter;
import dev.mnemo.json.JsonCodec;
import dev.mnemo.json.ResultJson;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** Recalls the records that belong in the prompt; {@code --explain} prints the trace as a table. */
@Command(
    name = "recall",
    mixinStandardHelpOptions = true,
    description = "Recall what belongs in the prompt for a query.")
final class RecallCommand implements Callable<Integer> {
  @Mixin EngineOptions engine;

  @Option(
      names = "--owner",
      paramLabel = "OWNER",
      required = true,
      description = "Whose memories (required): only this owner's records are candidates.")
  String owner;

  @Parameters(
      index = "0",
      paramLabel = "QUERY",
      description =
          "The question or the message to recall for, e.g. \"Which editor does Maya use?\".")
  String query;

  @Option(
      names = "--k",
      description = "At most this many records (default ${DEFAULT-VALUE}).",
      defaultValue = "5")
  int k;

  @Option(
      names = "--budget",
      description = "Token budget of the selected texts (default ${DEFAULT-VALUE}).",
      defaultValue = "400")
  int budget;

  @Option(names = "--threshold", description = "Minimum relevance 0..1 (default 0.06).")
  Double threshold;

  @Option(
      names = "--relative-threshold",
      description = "Minimum relevance as a share of the best candidate's (default 0.5; 0 = off).")
  Double relativeThreshold;

  @Option(
      names = "--min-relevance",
      paramLabel = "P",
      description =
          "The fetch gate: minimum probability 0..1 that a "
              + "record helps answer the query (default: the relevance model's; 0 = gate off, small talk searched too).")
  Double minRelevance;

  @Option(
      names = "--exhaustive",
      negatable = true,
      description =
          "Exhaustive mode for questions that count or list "
              + "(the gate's lower threshold); default: on when the query asks how many / to list every.")
  Boolean exhaustive;

  @Option(
      names = "--mode",
      description = "current (default), valid_at or known_at.",
      defaultValue = "current")
  String mode;

  @Option(names = "--at", paramLabel = "DATE", description = "The instant of valid_at / known_at.")
  String at;

  @Option(
      names = "--asked-at",
      paramLabel = "INSTANT",
      description = "The 'now' of the question (default: now).")
  String askedAt;

  @Option(
      names = "--scope",
      paramLabel = "SCOPE",
      description = "Only records of this scope (a task or project) and records without one.")
  String scope;

  @Option(names = "--category", description = "Only these categories.")
  List<String> categories;

  @Option(
      names = "--meta",
      paramLabel = "KEY=VALUE",
      description = "Only records with these metadata entries.")
  Map<String, String> metadata;

  @Option(
      names = "--principals",
      paramLabel = "L,..",
      split = ",",
      hideParamSyntax = true,
      description = "Caller's team:/role:/person: labels (access).")
  java.util.Set<String> principals;

  @Option(names = "--fusion", description = "weighted (default) or rrf.", defaultValue = "weighted")
  String fusion;

  @Option(
      names = "--packing",
      description = "greedy (default) or coverage.",
      defaultValue = "greedy")
  String packing;

  @Option(
      names = "--time-filter",
      description = "boost (default), filter or off.",
      defaultValue = "boost")
  String timeFilter;

  @Option(names = "--explain", description = "Print every candidate's signals, outcome and reason.")
  boolean explain;

  @Option(names = "--json", description = "JSON output (with the trace when --explain).")
  boolean json;

  @Option(
      names = "--no-log",
      description = "Do not record this recall in the retrieval log (./mnemo log).")
  boolean noLog;

  @Override
  public Integer call() throws Exception {
    RecallRequest.Builder b =
        RecallRequest.builder(owner, query)
            .k(k)
            .budgetTokens(budget)
            .mode(TemporalMode.of(mode, Times.parse("at", at)))
            .askedAt(Times.parse("asked_at", askedAt))
            .scope(scope)
            .metadata(metadata)
            .principals(principals)
            .fusion(Fusion.of(fusion))
            .packing(Packing.fromCode(packing))
            .timeFilter(TimeFilter.fromCode(timeFilter))
            .explain(explain)
            .log(!noLog);
    if (threshold != null) b.threshold(threshold);
    if (relativeThreshold != null) b.relativeThreshold(relativeThreshold);
    if (minRelevance != null) b.minRelevance(minRelevance);
    if (exhaustive != null) b.exhaustive(exhaustive);
    if (categories != null) {
      Set<Category> set = EnumSet.noneOf(Category.class);
      for (String c : categories) set.add(Category.fromCode("category", c));
      b.categories(set);
    }
    RecallRequest request = b.build();
    try (Mnemo m = engine.open()) {
      RecallResult r = m.recall(request);
      if (json) {
        System.out.println(JsonCodec.PRETTY.writeValueAsString(ResultJson.write(r)));
      } else {
        ExplainPrinter.print(r, System.out);
      }
    } finally {
      engine.closeEmbedder();
    }
    return 0;
  }
}
