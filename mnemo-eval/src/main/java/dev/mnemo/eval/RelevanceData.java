package dev.mnemo.eval;

import dev.mnemo.CandidateTrace;
import dev.mnemo.Mnemo;
import dev.mnemo.RecallRequest;
import dev.mnemo.RecallResult;
import dev.mnemo.eval.LocomoConversation.Question;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Labelled candidates for the relevance model: every candidate the read path ranks for a question
 * (the gate and the thresholds off, k wide enough to keep them all), with the features the read
 * path computed for it and whether it is evidence for the question. Collected from scenario files
 * (expected ids), LoCoMo (evidence turns of categories 1-4) and LongMemEval (evidence turns;
 * abstention questions have none).
 */
public final class RelevanceData {
  private RelevanceData() {}

  /** Candidates kept per question: the read path's default candidate pool per signal is 50. */
  static final int K = 200;

  /** One candidate: its features, its rank in the read path's order and whether it answers. */
  public record Row(Map<String, Double> features, boolean positive, int rank, String text) {}

  /**
   * One question's candidates in the read path's order (best first).
   *
   * @param k the question's own k (what the gate is simulated at)
   * @param expected how many records answer it (expected ids or evidence turns); 0 for a question
   *     whose answer is "nothing"
   */
  public record Query(
      String dataset,
      String id,
      String text,
      int k,
      int expected,
      boolean expectNone,
      List<Row> rows) {}

  static List<Row> rows(RecallResult r, Set<String> evidence) {
    List<Row> out = new ArrayList<>();
    int rank = 0;
    for (CandidateTrace c : r.trace().candidates()) {
      if (c.relevance() == null) continue;
      rank++;
      boolean positive = false;
      for (String s : c.sources()) positive |= evidence.contains(s);
      out.add(new Row(c.relevance().features(), positive, rank, c.text()));
    }
    return out;
  }

  /** One JSON line per candidate, for analysis outside the JVM. */
  public static List<com.fasterxml.jackson.databind.node.ObjectNode> dump(List<Query> qs) {
    List<com.fasterxml.jackson.databind.node.ObjectNode> out = new ArrayList<>();
    for (Query q : qs) {
      for (Row r : q.rows()) {
        var o = dev.mnemo.json.JsonCodec.object();
        o.put("dataset", q.dataset())
            .put("query", q.id())
            .put("question", q.text())
            .put("k", q.k())
            .put("expected", q.expected())
            .put("expect_none", q.expectNone())
            .put("rank", r.rank())
            .put("positive", r.positive())
            .put("text", r.text());
        var f = o.putObject("features");
        new java.util.TreeMap<>(r.features()).forEach(f::put);
        out.add(o);
      }
    }
    return out;
  }

  private static RecallRequest.Builder open(RecallRequest.Builder b) {
    return b.k(K).threshold(0).relativeThreshold(0).minRelevance(0.0).explain(true);
  }

  /** The queries of scenario files, each scenario on a fresh engine. */
  public static List<Query> scenarios(
      Function<Path, Mnemo> engines, List<Path> files, String dataset, Consumer<String> progress) {
    List<Query> out = new ArrayList<>();
    ScenarioRunner runner = new ScenarioRunner(engines, List.of(Policy.FULL));
    for (Scenario s : ScenarioReader.read(files)) {
      List<Query> mine = new ArrayList<>();
      ScenarioRunner.Arm arm =
          new ScenarioRunner.Arm(
              "fit",
              Policy.FULL,
              (mnemo, q) -> {
                RecallResult r = mnemo.recall(open(ScenarioRunner.request(q)).build());
                if (mine.stream().noneMatch(x -> x.id().equals(s.id() + "/" + q.id()))) {
                  mine.add(
                      new Query(
                          dataset,
                          s.id() + "/" + q.id(),
                          q.text(),
                          q.k(),
                          q.expect().size(),
                          q.expectNone(),
                          rows(r, Set.copyOf(q.expect()))));
                }
                return new ScenarioRunner.Selection(List.of(), 0, 0);
              });
      runner.runArms(s, List.of(arm));
      out.addAll(mine);
      progress.accept(dataset + " " + s.id() + ": " + mine.size() + " questions");
    }
    return out;
  }

  /**
   * The queries of {@code count} histories of the generator's {@code split} ("dev" or "heldout")
   * from {@code seed}, each history on a fresh engine (written to a temporary file for the scenario
   * reader, deleted after).
   */
  public static List<Query> generated(
      Function<Path, Mnemo> engines,
      long seed,
      String split,
      int count,
      String dataset,
      Consumer<String> progress) {
    Path dir = TempDirs.create("mnemo-fit-" + split + "-", "generated " + split + " histories");
    try {
      Path file = dir.resolve("generated-" + split + ".jsonl");
      java.nio.file.Files.write(
          file,
          new HistoryGenerator(seed).lines(split, count),
          java.nio.charset.StandardCharsets.UTF_8);
      return scenarios(engines, List.of(file), dataset, progress);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    } finally {
      TempDirs.delete(dir);
    }
  }

  /**
   * LoCoMo questions of categories 1-4 with evidence, each conversation on a fresh engine
   * (neighbour context on).
   */
  public static List<Query> locomo(
      Function<Path, Mnemo> engines,
      List<LocomoConversation> conversations,
      Consumer<String> progress) {
    List<Query> out = new ArrayList<>();
    for (LocomoConversation c : conversations) {
      Path dir = TempDirs.create("mnemo-fit-locomo-", "conversation " + c.name());
      try (Mnemo mnemo = engines.apply(dir)) {
        mnemo.rememberAll(LocomoRunner.memories(c, true));
        for (int qi = 0; qi < c.questions().size(); qi++) {
          Question q = c.questions().get(qi);
          if (q.category() < 1 || q.category() > 4 || q.evidence().isEmpty()) continue;
          RecallResult r = mnemo.recall(open(LocomoRunner.request(c, q, K)).build());
          Set<String> evidence = new HashSet<>(q.evidence());
          out.add(
              new Query(
                  "locomo",
                  c.name() + "/" + qi,
                  q.text(),
                  10,
                  evidence.size(),
                  false,
                  rows(r, evidence)));
        }
        progress.accept("locomo " + c.name() + ": " + out.size() + " questions so far");
      } finally {
        TempDirs.delete(dir);
      }
    }
    return out;
  }

  /** LongMemEval questions, each haystack on a fresh engine (neighbour context on). */
  public static List<Query> longMemEval(
      Function<Path, Mnemo> engines,
      List<LongMemEvalQuestion> questions,
      Consumer<String> progress) {
    List<Query> out = new ArrayList<>();
    int i = 0;
    for (LongMemEvalQuestion q : questions) {
      Path dir = TempDirs.create("mnemo-fit-longmemeval-", "question " + q.id());
      try (Mnemo mnemo = engines.apply(dir)) {
        mnemo.rememberAll(LongMemEvalRunner.memories(q, true));
        RecallResult r =
            mnemo.recall(
                open(LocomoRunner.rankingRequest(
                        q.id(), q.question(), LongMemEvalRunner.askedAt(q), K))
                    .build());
        Set<String> evidence = new HashSet<>(q.evidenceTurnIds());
        out.add(
            new Query(
                "longmemeval",
                q.id(),
                q.question(),
                10,
                evidence.size(),
                q.abstention() || evidence.isEmpty(),
                rows(r, evidence)));
        progress.accept("longmemeval " + (++i) + "/" + questions.size() + " " + q.id());
      } finally {
        TempDirs.delete(dir);
      }
    }
    return out;
  }
}
