package dev.mnemo.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.RelevanceModel;
import dev.mnemo.eval.RelevanceData.Query;
import dev.mnemo.eval.RelevanceData.Row;
import dev.mnemo.json.JsonCodec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.ToDoubleFunction;
import ml.dmlc.xgboost4j.java.Booster;
import ml.dmlc.xgboost4j.java.DMatrix;
import ml.dmlc.xgboost4j.java.XGBoost;
import ml.dmlc.xgboost4j.java.XGBoostError;

/**
 * Fits the fetch gate's relevance model: boosted regression trees (XGBoost's {@code
 * binary:logistic}, one thread and a fixed seed, so the same data gives the same bytes), every
 * question weighing the same whatever its number of candidates, calibrated by Platt scaling on
 * out-of-fold predictions; then the gate's thresholds, chosen on those out-of-fold probabilities
 * (an overfitted model's in-sample probabilities would set them too high) by simulating the
 * selection: candidates in the read path's order, those at or above the threshold, at most the
 * question's k.
 *
 * <p>Out of fold: the questions are split into {@value #FOLDS} folds by history (a generated
 * history, a scenario, a LoCoMo conversation, a LongMemEval haystack), so no question is predicted
 * by trees that saw its history; the final trees are fitted on everything.
 *
 * <ul>
 *   <li>{@code min_relevance}: the highest threshold at which those queries keep 0.95 of the recall
 *       without the gate ({@link #gateThreshold});
 *   <li>{@code exhaustive_min_relevance}: the threshold with the highest F2 (recall weighed four
 *       times precision) on the LoCoMo and LongMemEval queries at k = 10, whose questions often
 *       have several evidence turns.
 * </ul>
 *
 * <p>The trees' size ({@value #DEPTH} levels, {@value #ROUNDS} rounds, learning rate 0.1, minimum
 * child weight 5) was chosen by the same {@value #FOLDS}-fold cross-validation on the dev data of
 * 2026-12-02 (generated dev histories, dev scenarios, LoCoMo dev): best out-of-fold F0.5 of depths
 * 2-4 and 150-800 rounds (docs/evaluation.md), before the monotone constraints ({@link
 * #INCREASING}) were added.
 */
public final class RelevanceFit {
  private RelevanceFit() {}

  static final String MODEL_ID = "relevance-gbt-3";
  static final int DEPTH = 4;
  static final int ROUNDS = 400;
  static final int FOLDS = 5;
  static final long SEED = 42;

  /** A fitted model and how it was chosen (the curves over out-of-fold probabilities). */
  public record Fitted(
      RelevanceModel model,
      String text,
      List<Operating> gateCurve,
      List<Operating> exhaustiveCurve,
      List<Ranking> ranking) {}

  /**
   * One dataset's evidence recall in the first {@code k} candidates, in the read path's order (its
   * weighted score) and by the relevance model's out-of-fold probability, and the same for the
   * records the gate would select at {@code threshold} (each question's own k): whether ordering by
   * the probability ranks better than the score (issue 12's ranking question), measured on
   * predictions for questions the model was not fitted on.
   */
  public record Ranking(
      String dataset,
      int questions,
      int k,
      double byScore,
      double byProbability,
      double threshold,
      Operating gateByScore,
      Operating gateByProbability) {}

  /** The selection a threshold gives on a set of queries. */
  public record Operating(
      double threshold,
      double recall,
      double precision,
      double abstention,
      double selectedPerQuery) {
    double f(double beta) {
      double p = Double.isNaN(precision) ? 0 : precision;
      double b2 = beta * beta;
      return p + recall == 0 ? 0 : (1 + b2) * p * recall / (b2 * p + recall);
    }
  }

  /**
   * Fits on {@code train} (every question weighing the same), chooses {@code min_relevance} on
   * {@code gate} queries and {@code exhaustive_min_relevance} on {@code exhaustive} queries (both
   * subsets of {@code train}), each on out-of-fold probabilities.
   *
   * @param header comment lines for the model file (what data fitted it)
   */
  public static Fitted fit(
      List<Query> train,
      List<Query> gate,
      List<Query> exhaustive,
      String embedder,
      List<String> header) {
    List<String> names = new ArrayList<>(new TreeSet<>(featureNames(train)));
    // Out-of-fold margins of every candidate, folds by history.
    Map<Row, Double> oof = new IdentityHashMap<>();
    for (int fold = 0; fold < FOLDS; fold++) {
      List<Query> in = new ArrayList<>();
      List<Query> out = new ArrayList<>();
      for (Query q : train) (fold(q) == fold ? out : in).add(q);
      if (in.isEmpty() || out.isEmpty()) continue;
      Booster b = train(in, names);
      List<Row> rows = rows(out);
      float[][] margins = predictMargins(b, rows, names);
      for (int i = 0; i < rows.size(); i++) oof.put(rows.get(i), (double) margins[i][0]);
      b.dispose();
    }
    double[] platt = platt(train, oof);
    ToDoubleFunction<Row> oofProbability =
        r -> {
          Double m = oof.get(r);
          return m == null ? 0 : sigmoid(platt[0] * m + platt[1]);
        };
    List<Operating> gateCurve = curve(oofProbability, gate);
    List<Operating> exhaustiveCurve = curve(oofProbability, exhaustive);
    double min = gateThreshold(gateCurve, operate(oofProbability, gate, 0));
    Operating bestExhaustive =
        exhaustiveCurve.stream().max((a, b) -> Double.compare(a.f(2), b.f(2))).orElseThrow();
    double ex = Math.min(bestExhaustive.threshold(), min);
    List<Ranking> ranking = new ArrayList<>();
    Map<String, List<Query>> byDataset = new java.util.TreeMap<>();
    for (Query q : train) byDataset.computeIfAbsent(q.dataset(), d -> new ArrayList<>()).add(q);
    java.util.Set<Query> exhaustiveSet =
        java.util.Collections.newSetFromMap(new IdentityHashMap<>());
    exhaustiveSet.addAll(exhaustive);
    byDataset.forEach(
        (dataset, qs) -> {
          double t = exhaustiveSet.contains(qs.get(0)) ? ex : min;
          for (int k : new int[] {5, 10}) {
            ranking.add(
                new Ranking(
                    dataset,
                    qs.size(),
                    k,
                    recallAt(qs, k, null),
                    recallAt(qs, k, oofProbability),
                    t,
                    operate(oofProbability, qs, t),
                    operate(oofProbability, qs, t, true)));
          }
        });

    Booster all = train(train, names);
    List<String> trees = trees(all, names.size());
    String text =
        RelevanceModel.formatTrees(
            MODEL_ID, embedder, names, round6(platt[0]), round6(platt[1]), trees, min, ex, header);
    RelevanceModel model = RelevanceModel.parse(text);
    checkAgainstXgboost(model, all, rows(train), names, platt);
    all.dispose();
    return new Fitted(model, text, gateCurve, exhaustiveCurve, ranking);
  }

  /** The share of what the ungated engine finds that {@code min_relevance} must keep. */
  static final double KEEP_OF_UNGATED = 0.95;

  /**
   * {@code min_relevance}: the highest threshold whose out-of-fold selection keeps {@value
   * #KEEP_OF_UNGATED} of the recall the engine has without the gate (threshold 0, each question's
   * own k) on the gate questions, so that abstention is as high as that allows. Forgetting what it
   * was told is a failure too: the earlier rule (the lowest threshold reaching precision and
   * abstention 0.90) kept about a third of the answers a new user's plain facts give.
   *
   * @param ungated the selection at threshold 0
   */
  static double gateThreshold(List<Operating> curve, Operating ungated) {
    double need = KEEP_OF_UNGATED * ungated.recall();
    double best = curve.get(0).threshold();
    for (Operating o : curve) if (o.recall() >= need) best = Math.max(best, o.threshold());
    return best;
  }

  /**
   * Signals whose rise never makes a record less likely to be evidence (a closer cosine, more of
   * the question's words, a start inside the named time), and the one whose rise never makes it
   * more likely (a start outside it): XGBoost's monotone constraints. Without them the trees learnt
   * dents the dev data happens to have, e.g. a lone record that matched the question's words got a
   * negative BM25 contribution (a store of one record is rare in the dev histories).
   */
  static final java.util.Set<String> INCREASING =
      java.util.Set.of(
          "dense",
          "bm25",
          "coverage",
          "covered_terms",
          "ccos",
          "cos_lead",
          "ccos_lead",
          "cos_z",
          "relevance",
          "ref_z",
          "ref_lead",
          "tcos");

  static final java.util.Set<String> DECREASING = java.util.Set.of("time_outside");

  private static String monotone(List<String> names) {
    StringBuilder sb = new StringBuilder("(");
    for (int i = 0; i < names.size(); i++) {
      if (i > 0) sb.append(',');
      String n = names.get(i);
      sb.append(INCREASING.contains(n) ? 1 : DECREASING.contains(n) ? -1 : 0);
    }
    return sb.append(')').toString();
  }

  /** The fold of a question: by its history (the part of its id before '/', or the whole id). */
  private static int fold(Query q) {
    String id = q.dataset() + ":" + q.id();
    int slash = id.indexOf('/');
    return Math.floorMod((slash < 0 ? id : id.substring(0, slash)).hashCode(), FOLDS);
  }

  private static List<Row> rows(List<Query> qs) {
    List<Row> out = new ArrayList<>();
    for (Query q : qs) out.addAll(q.rows());
    return out;
  }

  private static float[] matrix(List<Row> rows, List<String> names) {
    int d = names.size();
    float[] x = new float[rows.size() * d];
    for (int i = 0; i < rows.size(); i++) {
      for (int j = 0; j < d; j++)
        x[i * d + j] = (float) (double) rows.get(i).features().getOrDefault(names.get(j), 0.0);
    }
    return x;
  }

  /**
   * Features only the embedder's companion model gives ({@code RelevanceFeatures}): missing (NaN)
   * in a recall without one (no embedder, a remote one, a companion that failed to load) and for
   * the candidates past the ones compared.
   */
  static final java.util.Set<String> COMPANION = java.util.Set.of("tcos");

  /**
   * The weight of each question's copy without the {@link #COMPANION} features. Without such rows
   * XGBoost sends a missing value down the branch the uncompared, mostly irrelevant candidates
   * took, and an exact match in a recall without a companion read as no match at all (p below 0.01
   * for "Maya is allergic to peanuts." asked "is Maya allergic to peanuts", embedder none). With
   * them the missing branches are fitted on every question, answers included: the decision such a
   * recall gets is the one the other features support.
   */
  static final double WITHOUT_COMPANION_WEIGHT = 0.1;

  /** {@code r} as a recall without the companion model sees it. */
  private static Row withoutCompanion(Row r) {
    Map<String, Double> f = new java.util.TreeMap<>(r.features());
    for (String n : COMPANION) if (f.containsKey(n)) f.put(n, Double.NaN);
    return new Row(f, r.positive(), r.rank(), r.text());
  }

  private static Booster train(List<Query> qs, List<String> names) {
    double rowsPerQuestion = rowsPerQuestion(qs);
    List<Row> all = new ArrayList<>();
    List<Float> labels = new ArrayList<>();
    List<Float> weights = new ArrayList<>();
    boolean companion = names.stream().anyMatch(COMPANION::contains);
    for (Query q : qs) {
      // Every question weighs the same, whatever its number of candidates; the mean weight of a
      // row is 1.
      float w = (float) (rowsPerQuestion / q.rows().size());
      for (Row r : q.rows()) {
        all.add(r);
        labels.add(r.positive() ? 1f : 0f);
        weights.add(w);
      }
      if (!companion) continue;
      for (Row r : q.rows()) {
        all.add(withoutCompanion(r));
        labels.add(r.positive() ? 1f : 0f);
        weights.add((float) (w * WITHOUT_COMPANION_WEIGHT));
      }
    }
    float[] label = new float[all.size()];
    float[] weight = new float[all.size()];
    for (int i = 0; i < label.length; i++) {
      label[i] = labels.get(i);
      weight[i] = weights.get(i);
    }
    Map<String, Object> params = new HashMap<>();
    params.put("objective", "binary:logistic");
    params.put("monotone_constraints", monotone(names));
    params.put("max_depth", DEPTH);
    params.put("eta", 0.1);
    params.put("min_child_weight", 5.0);
    params.put("lambda", 1.0);
    params.put("base_score", 0.5);
    params.put("tree_method", "hist");
    params.put("nthread", 1);
    params.put("seed", SEED);
    params.put("verbosity", 0);
    try {
      DMatrix d = new DMatrix(matrix(all, names), all.size(), names.size(), Float.NaN);
      try {
        d.setLabel(label);
        d.setWeight(weight);
        return XGBoost.train(d, params, ROUNDS, new HashMap<>(), null, null);
      } finally {
        d.dispose();
      }
    } catch (XGBoostError e) {
      throw new IllegalStateException(
          "XGBoost could not fit the relevance model: " + e.getMessage(), e);
    }
  }

  private static float[][] predictMargins(Booster b, List<Row> rows, List<String> names) {
    try {
      DMatrix d = new DMatrix(matrix(rows, names), rows.size(), names.size(), Float.NaN);
      try {
        return b.predict(d, true, 0);
      } finally {
        d.dispose();
      }
    } catch (XGBoostError e) {
      throw new IllegalStateException("XGBoost could not predict: " + e.getMessage(), e);
    }
  }

  /**
   * The trees in {@link RelevanceModel}'s notation, read off XGBoost's JSON dump (node ids made
   * dense, in order).
   */
  private static List<String> trees(Booster b, int features) {
    String[] dump;
    try {
      dump = b.getModelDump((String) null, true, "json");
    } catch (XGBoostError e) {
      throw new IllegalStateException("XGBoost could not dump the trees: " + e.getMessage(), e);
    }
    List<String> out = new ArrayList<>();
    for (String json : dump) {
      java.util.TreeMap<Integer, JsonNode> nodes = new java.util.TreeMap<>();
      try {
        collect(JsonCodec.READER.readTree(json), nodes);
      } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
        throw new IllegalStateException("XGBoost's tree dump is not JSON: " + e.getMessage(), e);
      }
      Map<Integer, Integer> index = new HashMap<>();
      for (int id : nodes.keySet()) index.put(id, index.size());
      StringBuilder sb = new StringBuilder();
      for (JsonNode n : nodes.values()) {
        if (sb.length() > 0) sb.append(';');
        if (n.has("leaf")) {
          sb.append('l')
              .append(Float.toString((float) n.get("leaf").asDouble()))
              .append(',')
              .append(Float.toString((float) n.get("cover").asDouble()));
        } else {
          String split = n.get("split").asText();
          int f = Integer.parseInt(split.substring(1));
          if (!split.startsWith("f") || f < 0 || f >= features)
            throw new IllegalStateException("unexpected split " + split);
          sb.append('s')
              .append(f)
              .append(',')
              .append(Float.toString((float) n.get("split_condition").asDouble()))
              .append(',')
              .append(index.get(n.get("yes").asInt()))
              .append(',')
              .append(index.get(n.get("no").asInt()))
              .append(',')
              .append(index.get(n.get("missing").asInt()))
              .append(',')
              .append(Float.toString((float) n.get("cover").asDouble()));
        }
      }
      out.add(sb.toString());
    }
    return out;
  }

  private static void collect(JsonNode n, Map<Integer, JsonNode> out) {
    out.put(n.get("nodeid").asInt(), n);
    if (n.has("children")) for (JsonNode c : n.get("children")) collect(c, out);
  }

  /**
   * Platt scaling: {@code a, b} of {@code p = sigmoid(a * margin + b)} maximizing the weighted
   * likelihood of the out-of-fold margins (Newton's method on two parameters: written here, as no
   * library on the class path fits a two-parameter logistic curve to given scores without reshaping
   * the data for it).
   */
  static double[] platt(List<Query> qs, Map<Row, Double> margins) {
    double rowsPerQuestion = rowsPerQuestion(qs);
    double a = 1;
    double b = 0;
    for (int iter = 0; iter < 50; iter++) {
      double ga = 0;
      double gb = 0;
      double haa = 0;
      double hab = 0;
      double hbb = 0;
      for (Query q : qs) {
        double w = q.rows().isEmpty() ? 0 : rowsPerQuestion / q.rows().size();
        for (Row r : q.rows()) {
          Double m = margins.get(r);
          if (m == null) continue;
          double p = sigmoid(a * m + b);
          double e = p - (r.positive() ? 1 : 0);
          double h = Math.max(p * (1 - p), 1e-12);
          ga += w * e * m;
          gb += w * e;
          haa += w * h * m * m;
          hab += w * h * m;
          hbb += w * h;
        }
      }
      double det = haa * hbb - hab * hab;
      if (!(Math.abs(det) > 1e-12)) break;
      double da = (hbb * ga - hab * gb) / det;
      double db = (haa * gb - hab * ga) / det;
      a -= da;
      b -= db;
      if (Math.abs(da) < 1e-9 && Math.abs(db) < 1e-9) break;
    }
    return new double[] {a, b};
  }

  /**
   * The mean number of candidates per question: a row weighs this over its question's candidates,
   * so every question weighs the same and the mean weight of a row is 1.
   */
  private static double rowsPerQuestion(List<Query> qs) {
    long rows = qs.stream().mapToLong(q -> q.rows().size()).sum();
    long questions = qs.stream().filter(q -> !q.rows().isEmpty()).count();
    return questions == 0 ? 0 : (double) rows / questions;
  }

  private static double sigmoid(double z) {
    return 1 / (1 + Math.exp(-z));
  }

  private static List<String> featureNames(List<Query> qs) {
    List<String> out = new ArrayList<>();
    for (Query q : qs)
      for (Row r : q.rows())
        for (String k : r.features().keySet()) if (!out.contains(k)) out.add(k);
    return out;
  }

  /** Our reading of XGBoost's trees must give XGBoost's own margins. */
  private static void checkAgainstXgboost(
      RelevanceModel m, Booster b, List<Row> rows, List<String> names, double[] platt) {
    List<Row> some = rows.subList(0, Math.min(rows.size(), 2000));
    float[][] margins = predictMargins(b, some, names);
    double a = round6(platt[0]);
    double c = round6(platt[1]);
    for (int i = 0; i < some.size(); i++) {
      double want = sigmoid(a * margins[i][0] + c);
      double ours = m.probability(some.get(i).features());
      if (Math.abs(want - ours) > 1e-4) {
        throw new IllegalStateException(
            "the model read from XGBoost's trees disagrees with XGBoost: " + ours + " vs " + want);
      }
    }
  }

  /**
   * Selection at each threshold 0.01..0.99: candidates in order with p >= t, at most the query's k.
   */
  static List<Operating> curve(ToDoubleFunction<Row> probability, List<Query> qs) {
    List<Operating> out = new ArrayList<>();
    for (int i = 1; i <= 99; i++) out.add(operate(probability, qs, i / 100.0));
    return out;
  }

  static Operating operate(RelevanceModel m, List<Query> qs, double t) {
    return operate(r -> m.probability(r.features()), qs, t);
  }

  static Operating operate(ToDoubleFunction<Row> probability, List<Query> qs, double t) {
    return operate(probability, qs, t, false);
  }

  /**
   * Evidence recall in each question's first {@code k} candidates (mean over the questions that
   * have evidence), in the read path's order, or by {@code probability} when it is not null.
   */
  static double recallAt(List<Query> qs, int k, ToDoubleFunction<Row> probability) {
    double sum = 0;
    int n = 0;
    for (Query q : qs) {
      if (q.expectNone() || q.expected() == 0) continue;
      List<Row> order = probability == null ? q.rows() : byProbability(q.rows(), probability);
      int good = 0;
      for (int i = 0; i < Math.min(k, order.size()); i++) if (order.get(i).positive()) good++;
      sum += Math.min(1.0, (double) good / q.expected());
      n++;
    }
    return n == 0 ? Double.NaN : sum / n;
  }

  /** Rows by descending probability; ties keep the read path's order (a stable sort). */
  private static List<Row> byProbability(List<Row> rows, ToDoubleFunction<Row> probability) {
    List<Row> sorted = new ArrayList<>(rows);
    sorted.sort(
        java.util.Comparator.comparingDouble((Row r) -> probability.applyAsDouble(r)).reversed());
    return sorted;
  }

  /**
   * The gate at threshold {@code t}: each question's first k candidates at or above it, in the read
   * path's order or, with {@code byProbability}, the k most probable.
   */
  static Operating operate(
      ToDoubleFunction<Row> probability, List<Query> qs, double t, boolean byProbability) {
    long hit = 0;
    long expected = 0;
    long selected = 0;
    long selectedExpecting = 0;
    long none = 0;
    long abstained = 0;
    for (Query q : qs) {
      int chosen = 0;
      int good = 0;
      for (Row r : byProbability ? byProbability(q.rows(), probability) : q.rows()) {
        if (chosen >= q.k()) break;
        if (probability.applyAsDouble(r) < t) continue;
        chosen++;
        if (r.positive()) good++;
      }
      selected += chosen;
      if (q.expectNone()) {
        none++;
        if (chosen == 0) abstained++;
      } else {
        selectedExpecting += chosen;
        hit += good;
        expected += q.expected();
      }
    }
    return new Operating(
        t,
        expected == 0 ? Double.NaN : (double) hit / expected,
        selectedExpecting == 0 ? Double.NaN : (double) hit / selectedExpecting,
        none == 0 ? Double.NaN : (double) abstained / none,
        qs.isEmpty() ? 0 : (double) selected / qs.size());
  }

  /**
   * The gate at the model's {@code min_relevance} per kind of question ({@link ScenarioReport#kind}
   * of the query id): recall, precision and abstention, and the same without the gate (each
   * question's first k candidates), so a kind's loss to the gate shows beside its ranking's.
   */
  public static String byKind(RelevanceModel m, List<Query> qs) {
    java.util.Map<String, List<Query>> kinds = new java.util.TreeMap<>();
    for (Query q : qs)
      kinds.computeIfAbsent(ScenarioReport.kind(q.id()), k -> new ArrayList<>()).add(q);
    StringBuilder sb =
        new StringBuilder(
            String.format(
                Locale.ROOT,
                "%nby kind (gate at %.2f | no gate)%n%-10s %5s  %-26s %-26s%n",
                m.minRelevance(),
                "kind",
                "n",
                "recall precision abstention",
                "recall precision abstention"));
    kinds.forEach(
        (kind, group) -> {
          Operating g = operate(m, group, m.minRelevance());
          Operating all = operate(m, group, 0);
          sb.append(
              String.format(
                  Locale.ROOT,
                  "%-10s %5d  %6.3f %9.3f %10.3f   %6.3f %9.3f %10.3f%n",
                  kind,
                  group.size(),
                  g.recall(),
                  g.precision(),
                  g.abstention(),
                  all.recall(),
                  all.precision(),
                  all.abstention()));
        });
    return sb.toString();
  }

  // ---- calibration ----

  /** One bin of a calibration table. */
  public record Bin(double from, double to, long n, double meanProbability, double positiveRate) {}

  /**
   * Ten equal-width bins of the probability over every candidate of {@code qs}, and the expected
   * calibration error.
   */
  public static List<Bin> calibration(RelevanceModel m, List<Query> qs) {
    long[] n = new long[10];
    double[] p = new double[10];
    long[] pos = new long[10];
    for (Query q : qs) {
      for (Row r : q.rows()) {
        double pr = m.probability(r.features());
        int b = Math.min(9, (int) Math.floor(pr * 10));
        n[b]++;
        p[b] += pr;
        if (r.positive()) pos[b]++;
      }
    }
    List<Bin> out = new ArrayList<>();
    for (int b = 0; b < 10; b++) {
      out.add(
          new Bin(
              b / 10.0,
              (b + 1) / 10.0,
              n[b],
              n[b] == 0 ? Double.NaN : p[b] / n[b],
              n[b] == 0 ? Double.NaN : (double) pos[b] / n[b]));
    }
    return out;
  }

  /**
   * Expected calibration error: the bins' |mean probability - positive rate|, weighted by their
   * share of candidates.
   */
  public static double ece(List<Bin> bins) {
    long total = bins.stream().mapToLong(Bin::n).sum();
    double e = 0;
    for (Bin b : bins)
      if (b.n() > 0) e += (double) b.n() / total * Math.abs(b.meanProbability() - b.positiveRate());
    return e;
  }

  /** Candidate-level precision and recall of "p >= t" at t = 0.05, 0.10, ..., 0.95. */
  public static List<double[]> precisionRecall(RelevanceModel m, List<Query> qs) {
    List<double[]> out = new ArrayList<>();
    long positives = qs.stream().flatMap(q -> q.rows().stream()).filter(Row::positive).count();
    for (int i = 1; i <= 19; i++) {
      double t = i / 20.0;
      long sel = 0;
      long good = 0;
      for (Query q : qs) {
        for (Row r : q.rows()) {
          if (m.probability(r.features()) >= t) {
            sel++;
            if (r.positive()) good++;
          }
        }
      }
      out.add(
          new double[] {
            t,
            sel == 0 ? Double.NaN : (double) good / sel,
            positives == 0 ? Double.NaN : (double) good / positives
          });
    }
    return out;
  }

  /** The calibration table, ECE and precision-recall points of each dataset, as JSON. */
  public static ObjectNode report(RelevanceModel m, Map<String, List<Query>> byDataset) {
    ObjectNode o = JsonCodec.object();
    o.put("model", m.id());
    o.put("min_relevance", m.minRelevance());
    o.put("exhaustive_min_relevance", m.exhaustiveMinRelevance());
    ObjectNode ds = o.putObject("datasets");
    for (var e : byDataset.entrySet()) {
      ObjectNode x = ds.putObject(e.getKey());
      List<Bin> bins = calibration(m, e.getValue());
      x.put("questions", e.getValue().size());
      x.put("candidates", e.getValue().stream().mapToLong(q -> q.rows().size()).sum());
      x.put("ece", round4(ece(bins)));
      ArrayNode cal = x.putArray("calibration");
      for (Bin b : bins) {
        ObjectNode bn = cal.addObject();
        bn.put("from", b.from());
        bn.put("to", b.to());
        bn.put("n", b.n());
        if (b.n() > 0) {
          bn.put("mean_probability", round4(b.meanProbability()));
          bn.put("positive_rate", round4(b.positiveRate()));
        }
      }
      ArrayNode pr = x.putArray("precision_recall");
      for (double[] p : precisionRecall(m, e.getValue())) {
        ObjectNode pn = pr.addObject();
        pn.put("threshold", p[0]);
        if (!Double.isNaN(p[1])) pn.put("precision", round4(p[1]));
        if (!Double.isNaN(p[2])) pn.put("recall", round4(p[2]));
      }
      Operating op = operate(m, e.getValue(), m.minRelevance());
      ObjectNode g = x.putObject("gate");
      put(g, "recall", op.recall());
      put(g, "precision", op.precision());
      put(g, "abstention", op.abstention());
      put(g, "selected_per_question", op.selectedPerQuery());
    }
    return o;
  }

  /** A readable summary of {@link #report}. */
  public static String table(RelevanceModel m, Map<String, List<Query>> byDataset) {
    StringBuilder sb = new StringBuilder();
    sb.append(
        String.format(
            Locale.ROOT,
            "relevance model %s: min_relevance %.2f, exhaustive %.2f%n",
            m.id(),
            m.minRelevance(),
            m.exhaustiveMinRelevance()));
    for (var e : byDataset.entrySet()) {
      List<Bin> bins = calibration(m, e.getValue());
      Operating op = operate(m, e.getValue(), m.minRelevance());
      sb.append(
          String.format(
              Locale.ROOT,
              "%n%s: %d questions, ECE %.4f; gate at its k: recall %.3f precision %.3f "
                  + "abstention %.3f, %.2f selected per question%n",
              e.getKey(),
              e.getValue().size(),
              ece(bins),
              op.recall(),
              op.precision(),
              op.abstention(),
              op.selectedPerQuery()));
      sb.append("  bin        n      mean p   positive rate\n");
      for (Bin b : bins) {
        sb.append(
            String.format(
                Locale.ROOT,
                "  %.1f-%.1f  %7d  %7.3f  %7.3f%n",
                b.from(),
                b.to(),
                b.n(),
                b.meanProbability(),
                b.positiveRate()));
      }
    }
    return sb.toString();
  }

  /**
   * The HTML report: per dataset, the calibration table (10 bins, ECE), a reliability diagram (mean
   * probability against the positive rate per bin) and the precision-recall curve of "p >= t".
   */
  public static HtmlReport html(RelevanceModel m, Map<String, List<Query>> byDataset) {
    HtmlReport h =
        new HtmlReport("Relevance model " + m.id() + ": calibration and precision-recall");
    h.paragraph(
        String.format(
            Locale.ROOT,
            "The fetch gate's probability on every candidate of each dev dataset "
                + "(gate and thresholds off, k 200). min_relevance %.2f, exhaustive %.2f.",
            m.minRelevance(),
            m.exhaustiveMinRelevance()));
    List<HtmlReport.Series> reliability = new ArrayList<>();
    List<HtmlReport.Series> pr = new ArrayList<>();
    for (var e : byDataset.entrySet()) {
      List<Bin> bins = calibration(m, e.getValue());
      h.heading(
          String.format(
              Locale.ROOT,
              "%s: %d questions, ECE %.4f",
              e.getKey(),
              e.getValue().size(),
              ece(bins)));
      List<List<String>> rows = new ArrayList<>();
      List<double[]> points = new ArrayList<>();
      for (Bin b : bins) {
        rows.add(
            List.of(
                String.format(Locale.ROOT, "%.1f-%.1f", b.from(), b.to()),
                Long.toString(b.n()),
                String.format(Locale.ROOT, "%.3f", b.meanProbability()),
                String.format(Locale.ROOT, "%.3f", b.positiveRate())));
        if (b.n() > 0) points.add(new double[] {b.meanProbability(), b.positiveRate()});
      }
      h.table(List.of("probability", "candidates", "mean probability", "positive rate"), rows);
      reliability.add(new HtmlReport.Series(e.getKey(), points));
      List<double[]> curve = new ArrayList<>();
      for (double[] p : precisionRecall(m, e.getValue()))
        if (!Double.isNaN(p[1])) curve.add(new double[] {p[2], p[1]});
      pr.add(new HtmlReport.Series(e.getKey(), curve));
    }
    reliability.add(
        new HtmlReport.Series(
            "perfect calibration", List.of(new double[] {0, 0}, new double[] {1, 1})));
    h.lineChart(
        "Reliability: mean probability (x) against the share that is evidence (y)",
        "mean probability",
        "positive rate",
        reliability,
        false,
        1.0);
    h.lineChart(
        "Precision (y) against recall (x) of p >= t, t = 0.05 ... 0.95, per candidate",
        "recall",
        "precision",
        pr,
        false,
        1.0);
    return h;
  }

  private static void put(ObjectNode o, String k, double v) {
    if (!Double.isNaN(v)) o.put(k, round4(v));
  }

  private static double round4(double v) {
    return Math.round(v * 1e4) / 1e4;
  }

  private static double round6(double v) {
    return Math.round(v * 1e6) / 1e6;
  }
}
