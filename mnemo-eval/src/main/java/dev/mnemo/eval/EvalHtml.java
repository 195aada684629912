package dev.mnemo.eval;

import dev.mnemo.eval.HtmlReport.Series;
import dev.mnemo.eval.LocomoRunner.Ranking;
import dev.mnemo.eval.LongMemEvalReport.Answer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * The HTML report of each evaluation ({@link HtmlReport}): the same numbers as the console table
 * and the JSON, drawn as recall@k curves per policy, per-category bars, latency histograms and
 * tokens against recall, wherever the run measured them. Stateless.
 */
public final class EvalHtml {
  private EvalHtml() {}

  private static final int LATENCY_BINS = 20;

  /**
   * LongMemEval: session and turn recall@k curves, per-type bars, tokens against turn recall,
   * latency.
   */
  public static HtmlReport longMemEval(LongMemEvalReport r, String source) {
    HtmlReport h = new HtmlReport("LongMemEval retrieval");
    h.paragraph(
        String.format(
            Locale.ROOT,
            "%s: %d questions (%d abstention questions reported apart), %d memories, "
                + "neighbour context %s, %d records retrieved per question, thresholds off. recall@k is recall_all@k (every "
                + "evidence item in the top k), NDCG binary; session level ranks each session by its best turn.",
            source,
            r.questions(),
            r.answers(r.rankings().get(0), true, null).size(),
            r.memories(),
            r.neighbourContext() ? "on" : "off",
            r.kMax()));
    h.pre(r.table());
    double[] ks = r.ks().stream().mapToDouble(Integer::doubleValue).toArray();
    List<Series> session = new ArrayList<>();
    List<Series> turn = new ArrayList<>();
    List<Series> tokens = new ArrayList<>();
    List<Series> latency = new ArrayList<>();
    for (Ranking p : r.rankings()) {
      List<Answer> as = r.answers(p, false, null);
      double[] sr = new double[ks.length];
      double[] tr = new double[ks.length];
      double[] tk = new double[ks.length];
      for (int i = 0; i < ks.length; i++) {
        int k = (int) ks[i];
        sr[i] = r.sessionRecallAt(p, k);
        tr[i] = r.turnRecallAt(p, k);
        tk[i] = LongMemEvalReport.mean(as, a -> a.tokensAt(k));
      }
      session.add(Series.of(p.code(), ks, sr));
      turn.add(Series.of(p.code(), ks, tr));
      tokens.add(Series.of(p.code(), tk, tr));
      latency.add(
          samples(
              p.code(),
              r.answers().stream().filter(a -> a.ranking() == p).map(Answer::latencyMs).toList()));
    }
    h.heading("Recall@k");
    h.lineChart(
        "Session recall@k (all evidence sessions in the top k)", "k", "recall", session, true, 1);
    h.lineChart("Turn recall@k (all evidence turns in the top k)", "k", "recall", turn, true, 1);
    h.heading("By question type");
    List<String> types = new ArrayList<>(r.types());
    int k10 = Math.min(10, r.kMax());
    List<Series> perType = new ArrayList<>();
    List<Series> perTypeSession = new ArrayList<>();
    for (Ranking p : r.rankings()) {
      perType.add(
          categories(
              p.code(),
              types,
              t -> LongMemEvalReport.mean(r.answers(p, false, t), a -> a.turnRecallAt(k10))));
      perTypeSession.add(
          categories(
              p.code(),
              types,
              t -> LongMemEvalReport.mean(r.answers(p, false, t), a -> a.sessionRecallAt(k10))));
    }
    h.barChart("Turn recall@" + k10 + " by question type", "recall", types, perType, 1);
    h.barChart("Session recall@" + k10 + " by question type", "recall", types, perTypeSession, 1);
    h.heading("Cost");
    h.scatter(
        "Tokens of the top k turns against turn recall@k (k = " + r.ks() + ")",
        "tokens",
        "turn recall",
        tokens,
        1);
    h.histogram("Recall latency (ms, query embedding included)", "ms", latency, LATENCY_BINS);
    return h;
  }

  /** LoCoMo: evidence recall@k curves, per-category bars, latency. */
  public static HtmlReport locomo(LocomoReport r, String source) {
    HtmlReport h = new HtmlReport("LoCoMo evidence recall");
    h.paragraph(
        String.format(
            Locale.ROOT,
            "%s: %d conversations, %d turns, neighbour context %s, k up to %d, "
                + "thresholds off. Recall@k: the share of a question's evidence turns in the top k, averaged over the "
                + "questions of categories 1-4.",
            source,
            r.conversations().size(),
            r.turns(),
            r.neighbourContext() ? "on" : "off",
            r.kMax()));
    h.pre(r.table());
    double[] ks = r.ks().stream().mapToDouble(Integer::doubleValue).toArray();
    List<Series> curves = new ArrayList<>();
    List<Series> latency = new ArrayList<>();
    List<Series> perCat = new ArrayList<>();
    List<String> cats = List.of("1 multi-hop", "2 temporal", "3 open-domain", "4 single-hop");
    int k10 = Math.min(10, r.kMax());
    for (Ranking p : Ranking.values()) {
      List<LocomoReport.Answer> mine =
          r.answers().stream().filter(a -> a.ranking() == p && a.category() != 5).toList();
      if (mine.isEmpty()) continue;
      double[] ys = new double[ks.length];
      for (int i = 0; i < ks.length; i++) ys[i] = r.recallAt(p, (int) ks[i]);
      curves.add(Series.of(p.code(), ks, ys));
      perCat.add(
          categories(
              p.code(),
              List.of("1", "2", "3", "4"),
              c ->
                  mine.stream()
                      .filter(a -> a.category() == Integer.parseInt(c))
                      .mapToDouble(a -> a.recallAt(k10))
                      .average()
                      .orElse(Double.NaN)));
      latency.add(
          samples(
              p.code(),
              r.answers().stream()
                  .filter(a -> a.ranking() == p)
                  .map(LocomoReport.Answer::latencyMs)
                  .toList()));
    }
    h.heading("Recall@k");
    h.lineChart("Evidence recall@k, categories 1-4", "k", "recall", curves, true, 1);
    h.heading("By category");
    h.barChart("Evidence recall@" + k10 + " by category", "recall", cats, perCat, 1);
    h.heading("Cost");
    h.paragraph("Tokens are not recorded by this run (every ranking packs the same top k turns).");
    h.histogram("Recall latency (ms)", "ms", latency, LATENCY_BINS);
    return h;
  }

  /** LoCoMo ablations: evidence recall@k curves per variant, latency. */
  public static HtmlReport locomoAblations(LocomoAblationReport r, String source) {
    HtmlReport h = new HtmlReport("LoCoMo ablations");
    h.paragraph(
        String.format(
            Locale.ROOT,
            "%s: %d conversations, neighbour context %s, k up to %d, thresholds off: "
                + "what differs is the ranking alone.",
            source,
            r.conversations().size(),
            r.neighbourContext() ? "on" : "off",
            r.kMax()));
    h.pre(r.table());
    double[] ks = r.ks().stream().mapToDouble(Integer::doubleValue).toArray();
    List<Series> curves = new ArrayList<>();
    List<Series> latency = new ArrayList<>();
    r.answers()
        .forEach(
            (a, as) -> {
              double[] ys = new double[ks.length];
              for (int i = 0; i < ks.length; i++) ys[i] = r.recallAt(a, (int) ks[i]);
              curves.add(Series.of(a.code(), ks, ys));
              latency.add(
                  samples(a.code(), as.stream().map(LocomoReport.Answer::latencyMs).toList()));
            });
    h.lineChart("Evidence recall@k by variant, categories 1-4", "k", "recall", curves, true, 1);
    h.histogram("Recall latency (ms)", "ms", latency, LATENCY_BINS);
    return h;
  }

  /** Scenario policies: quality metrics per split, tokens against recall, latency. */
  public static HtmlReport scenarios(ScenarioReport r, String source) {
    HtmlReport h = new HtmlReport("Memory scenarios: policies at an equal budget");
    h.paragraph(
        source
            + ": every query under every policy at its own k and budget (docs/scenarios.md). Recall, precision "
            + "and abstention: higher is better; stale use and leakage: must be 0.");
    h.pre(r.table());
    Map<String, Map<Policy, PolicyMetrics>> m = r.metrics();
    m.forEach(
        (split, byPolicy) ->
            quality(
                h,
                "split " + split,
                byPolicy.entrySet().stream()
                    .map(e -> Map.entry(e.getKey().code(), e.getValue()))
                    .toList()));
    List<Series> latency = new ArrayList<>();
    for (Policy p : Policy.values()) {
      List<Double> ms =
          r.results().stream().filter(x -> x.policy() == p).map(QueryResult::latencyMs).toList();
      if (!ms.isEmpty()) latency.add(samples(p.code(), ms));
    }
    h.histogram("Selection latency (ms)", "ms", latency, LATENCY_BINS);
    return h;
  }

  /** Scenario ablations: quality metrics per split and variant, tokens against recall, latency. */
  public static HtmlReport ablations(AblationReport r, String source) {
    HtmlReport h = new HtmlReport("Ablations of the read path");
    h.paragraph(source + ": every query under every variant at its own k and budget.");
    h.pre(r.table());
    r.metrics()
        .forEach(
            (split, byVariant) ->
                quality(
                    h,
                    "split " + split,
                    byVariant.entrySet().stream()
                        .map(e -> Map.entry(e.getKey().code(), e.getValue()))
                        .toList()));
    List<Series> latency = new ArrayList<>();
    r.results()
        .forEach(
            (a, rs) ->
                latency.add(samples(a.code(), rs.stream().map(QueryResult::latencyMs).toList())));
    h.histogram("Selection latency (ms)", "ms", latency, LATENCY_BINS);
    return h;
  }

  private static void quality(
      HtmlReport h, String title, List<Map.Entry<String, PolicyMetrics>> arms) {
    List<String> metrics = List.of("recall", "precision", "abstention", "stale use");
    List<Series> bars = new ArrayList<>();
    List<Series> cost = new ArrayList<>();
    for (Map.Entry<String, PolicyMetrics> e : arms) {
      PolicyMetrics pm = e.getValue();
      double[] vs = {pm.recall(), pm.precision(), pm.abstention(), pm.staleUse()};
      bars.add(categories(e.getKey(), metrics, name -> vs[metrics.indexOf(name)]));
      cost.add(
          new Series(e.getKey(), List.<double[]>of(new double[] {pm.meanTokens(), pm.recall()})));
    }
    h.heading(title);
    h.barChart("Quality by policy, " + title, "share", metrics, bars, 1);
    h.scatter("Mean tokens against recall, " + title, "tokens", "recall", cost, 1);
  }

  private static Series categories(String name, List<String> cats, Function<String, Double> value) {
    List<double[]> ps = new ArrayList<>();
    for (int i = 0; i < cats.size(); i++) ps.add(new double[] {i, value.apply(cats.get(i))});
    return new Series(name, ps);
  }

  private static Series samples(String name, List<Double> values) {
    List<double[]> ps = new ArrayList<>(values.size());
    for (int i = 0; i < values.size(); i++) ps.add(new double[] {i, values.get(i)});
    return new Series(name, ps);
  }
}
