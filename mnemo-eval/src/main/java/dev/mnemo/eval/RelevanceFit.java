package dev.mnemo.eval;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.RelevanceModel;
import dev.mnemo.eval.RelevanceData.Query;
import dev.mnemo.eval.RelevanceData.Row;
import dev.mnemo.json.JsonCodec;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.tribuo.ImmutableFeatureMap;
import org.tribuo.ImmutableOutputInfo;
import org.tribuo.MutableDataset;
import org.tribuo.classification.Label;
import org.tribuo.classification.LabelFactory;
import org.tribuo.classification.sgd.linear.LinearSGDModel;
import org.tribuo.classification.sgd.linear.LinearSGDTrainer;
import org.tribuo.classification.sgd.objectives.LogMulticlass;
import org.tribuo.datasource.ListDataSource;
import org.tribuo.impl.ArrayExample;
import org.tribuo.math.la.DenseMatrix;
import org.tribuo.math.optimisers.AdaGrad;
import org.tribuo.provenance.SimpleDataSourceProvenance;

/**
 * Fits the fetch gate's relevance model: a logistic regression (Tribuo's linear SGD with the log
 * loss, AdaGrad, a fixed seed and a fixed row order, so the same data gives the same bytes) over
 * standardized features, each question weighing the same whatever its number of candidates; then
 * the gate's thresholds, chosen on the scenario queries (generated dev histories and dev
 * scenarios) by simulating the selection: candidates in the read path's order, those at or above
 * the threshold, at most the question's k.
 *
 * <ul>
 *   <li>{@code min_relevance}: the threshold with the highest F0.5 on those queries (precision
 *       weighs twice as much as recall: an irrelevant memory is worse than a missing one);
 *   <li>{@code exhaustive_min_relevance}: the threshold with the highest F2 (recall weighed four
 *       times precision) on the LoCoMo and LongMemEval queries at k = 10, whose questions often
 *       have several evidence turns.
 * </ul>
 */
public final class RelevanceFit {
  private RelevanceFit() {}

  static final String MODEL_ID = "relevance-lr-1";
  static final int EPOCHS = 8;
  static final long SEED = 42;

  /** A fitted model and how it was chosen. */
  public record Fitted(RelevanceModel model, String text, List<Operating> gateCurve, List<Operating> exhaustiveCurve) {}

  /** The selection a threshold gives on a set of queries. */
  public record Operating(double threshold, double recall, double precision, double abstention, double selectedPerQuery) {
    double f(double beta) {
      double p = Double.isNaN(precision) ? 0 : precision;
      double b2 = beta * beta;
      return p + recall == 0 ? 0 : (1 + b2) * p * recall / (b2 * p + recall);
    }
  }

  /**
   * Fits on {@code train} (every question weighing the same), chooses {@code min_relevance} on
   * {@code gate} queries and {@code exhaustive_min_relevance} on {@code exhaustive} queries.
   *
   * @param header comment lines for the model file (what data fitted it)
   */
  public static Fitted fit(List<Query> train, List<Query> gate, List<Query> exhaustive, String embedder,
      List<String> header) {
    List<String> names = new ArrayList<>(new TreeSet<>(featureNames(train)));
    long rows = train.stream().mapToLong(q -> q.rows().size()).sum();
    long questions = train.stream().filter(q -> !q.rows().isEmpty()).count();
    double rowsPerQuestion = questions == 0 ? 0 : (double) rows / questions;
    // Weighted mean and standard deviation of every feature.
    int d = names.size();
    double[] mean = new double[d];
    double[] sq = new double[d];
    double wsum = 0;
    for (Query q : train) {
      double w = weight(q, rowsPerQuestion);
      for (Row r : q.rows()) {
        for (int i = 0; i < d; i++) {
          double v = r.features().getOrDefault(names.get(i), 0.0);
          mean[i] += w * v;
          sq[i] += w * v * v;
        }
        wsum += w;
      }
    }
    double[] scale = new double[d];
    for (int i = 0; i < d; i++) {
      mean[i] /= wsum;
      double var = sq[i] / wsum - mean[i] * mean[i];
      scale[i] = var > 1e-12 ? Math.sqrt(var) : 1;
      mean[i] = round6(mean[i]);
      scale[i] = round6(scale[i]);
      if (scale[i] <= 0) scale[i] = 1;
    }

    LabelFactory labels = new LabelFactory();
    List<org.tribuo.Example<Label>> examples = new ArrayList<>();
    String[] featureArray = names.toArray(String[]::new);
    for (Query q : train) {
      float w = (float) weight(q, rowsPerQuestion);
      for (Row r : q.rows()) {
        double[] x = new double[d];
        for (int i = 0; i < d; i++) x[i] = (r.features().getOrDefault(names.get(i), 0.0) - mean[i]) / scale[i];
        ArrayExample<Label> e = new ArrayExample<>(new Label(r.positive() ? "1" : "0"), featureArray, x);
        e.setWeight(w);
        examples.add(e);
      }
    }
    MutableDataset<Label> data = new MutableDataset<>(new ListDataSource<>(examples, labels,
        new SimpleDataSourceProvenance("mnemo relevance candidates", labels)));
    Logger tribuo = Logger.getLogger("org.tribuo");
    Level before = tribuo.getLevel();
    tribuo.setLevel(Level.WARNING);
    LinearSGDModel lr;
    try {
      lr = new LinearSGDTrainer(new LogMulticlass(), new AdaGrad(0.1, 1e-6), EPOCHS, Integer.MAX_VALUE, 1, SEED)
          .train(data);
    } finally {
      tribuo.setLevel(before);
    }
    DenseMatrix wm = lr.getWeightsCopy();
    ImmutableFeatureMap fmap = lr.getFeatureIDMap();
    ImmutableOutputInfo<Label> outputs = lr.getOutputIDInfo();
    int pos = outputs.getID(new Label("1"));
    int neg = outputs.getID(new Label("0"));
    double[] weight = new double[d];
    for (int i = 0; i < d; i++) {
      int id = fmap.getID(names.get(i));
      weight[i] = id < 0 ? 0 : round6(wm.get(pos, id) - wm.get(neg, id));
    }
    // Tribuo keeps the bias as the weight matrix's last column.
    double bias = round6(wm.get(pos, wm.getDimension2Size() - 1) - wm.get(neg, wm.getDimension2Size() - 1));

    RelevanceModel draft = RelevanceModel.parse(RelevanceModel.format(MODEL_ID, embedder, names, mean, scale, weight,
        bias, 0.5, 0.5, List.of()));
    checkAgainstTribuo(draft, lr, train.get(0).rows().isEmpty() ? null : train.get(0).rows().get(0), names, mean, scale);
    List<Operating> gateCurve = curve(draft, gate);
    List<Operating> exhaustiveCurve = curve(draft, exhaustive);
    Operating bestGate = gateCurve.stream().max((a, b) -> Double.compare(a.f(0.5), b.f(0.5))).orElseThrow();
    Operating bestExhaustive = exhaustiveCurve.stream().max((a, b) -> Double.compare(a.f(2), b.f(2))).orElseThrow();
    double min = bestGate.threshold();
    double ex = Math.min(bestExhaustive.threshold(), min);
    String text = RelevanceModel.format(MODEL_ID, embedder, names, mean, scale, weight, bias, min, ex, header);
    return new Fitted(RelevanceModel.parse(text), text, gateCurve, exhaustiveCurve);
  }

  private static double weight(Query q, double rowsPerQuestion) {
    // Every question weighs the same, whatever its number of candidates; the mean weight of a row is 1.
    return q.rows().isEmpty() ? 0 : rowsPerQuestion / q.rows().size();
  }

  private static List<String> featureNames(List<Query> qs) {
    List<String> out = new ArrayList<>();
    for (Query q : qs) for (Row r : q.rows()) for (String k : r.features().keySet()) if (!out.contains(k)) out.add(k);
    return out;
  }

  /** Our reading of Tribuo's weights must give Tribuo's own probability. */
  private static void checkAgainstTribuo(RelevanceModel m, LinearSGDModel lr, Row row, List<String> names, double[] mean,
      double[] scale) {
    if (row == null) return;
    double[] x = new double[names.size()];
    for (int i = 0; i < x.length; i++) x[i] = (row.features().getOrDefault(names.get(i), 0.0) - mean[i]) / scale[i];
    var p = lr.predict(new ArrayExample<>(new Label("0"), names.toArray(String[]::new), x));
    double tribuo = p.getOutputScores().get("1").getScore();
    double ours = m.probability(row.features());
    if (Math.abs(tribuo - ours) > 1e-3) {
      throw new IllegalStateException("the model read from Tribuo's weights disagrees with Tribuo: " + ours + " vs " + tribuo);
    }
  }

  /** Selection at each threshold 0.01..0.99: candidates in order with p >= t, at most the query's k. */
  static List<Operating> curve(RelevanceModel m, List<Query> qs) {
    List<Operating> out = new ArrayList<>();
    for (int i = 1; i <= 99; i++) out.add(operate(m, qs, i / 100.0));
    return out;
  }

  static Operating operate(RelevanceModel m, List<Query> qs, double t) {
    long hit = 0;
    long expected = 0;
    long selected = 0;
    long selectedExpecting = 0;
    long none = 0;
    long abstained = 0;
    for (Query q : qs) {
      int chosen = 0;
      int good = 0;
      for (Row r : q.rows()) {
        if (chosen >= q.k()) break;
        if (m.probability(r.features()) < t) continue;
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
    return new Operating(t, expected == 0 ? Double.NaN : (double) hit / expected,
        selectedExpecting == 0 ? Double.NaN : (double) hit / selectedExpecting,
        none == 0 ? Double.NaN : (double) abstained / none, qs.isEmpty() ? 0 : (double) selected / qs.size());
  }

  // ---- calibration ----

  /** One bin of a calibration table. */
  public record Bin(double from, double to, long n, double meanProbability, double positiveRate) {}

  /** Ten equal-width bins of the probability over every candidate of {@code qs}, and the expected calibration error. */
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
      out.add(new Bin(b / 10.0, (b + 1) / 10.0, n[b], n[b] == 0 ? Double.NaN : p[b] / n[b],
          n[b] == 0 ? Double.NaN : (double) pos[b] / n[b]));
    }
    return out;
  }

  /** Expected calibration error: the bins' |mean probability - positive rate|, weighted by their share of candidates. */
  public static double ece(List<Bin> bins) {
    long total = bins.stream().mapToLong(Bin::n).sum();
    double e = 0;
    for (Bin b : bins) if (b.n() > 0) e += (double) b.n() / total * Math.abs(b.meanProbability() - b.positiveRate());
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
      out.add(new double[] {t, sel == 0 ? Double.NaN : (double) good / sel, positives == 0 ? Double.NaN : (double) good / positives});
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
    sb.append(String.format(Locale.ROOT, "relevance model %s: min_relevance %.2f, exhaustive %.2f%n", m.id(),
        m.minRelevance(), m.exhaustiveMinRelevance()));
    for (var e : byDataset.entrySet()) {
      List<Bin> bins = calibration(m, e.getValue());
      Operating op = operate(m, e.getValue(), m.minRelevance());
      sb.append(String.format(Locale.ROOT, "%n%s: %d questions, ECE %.4f; gate at its k: recall %.3f precision %.3f "
          + "abstention %.3f, %.2f selected per question%n", e.getKey(), e.getValue().size(), ece(bins), op.recall(),
          op.precision(), op.abstention(), op.selectedPerQuery()));
      sb.append("  bin        n      mean p   positive rate\n");
      for (Bin b : bins) {
        sb.append(String.format(Locale.ROOT, "  %.1f-%.1f  %7d  %7.3f  %7.3f%n", b.from(), b.to(), b.n(),
            b.meanProbability(), b.positiveRate()));
      }
    }
    return sb.toString();
  }

  /**
   * The HTML report: per dataset, the calibration table (10 bins, ECE), a reliability diagram (mean
   * probability against the positive rate per bin) and the precision-recall curve of "p >= t".
   */
  public static HtmlReport html(RelevanceModel m, Map<String, List<Query>> byDataset) {
    HtmlReport h = new HtmlReport("Relevance model " + m.id() + ": calibration and precision-recall");
    h.paragraph(String.format(Locale.ROOT, "The fetch gate's probability on every candidate of each dev dataset "
        + "(gate and thresholds off, k 200). min_relevance %.2f, exhaustive %.2f.", m.minRelevance(),
        m.exhaustiveMinRelevance()));
    List<HtmlReport.Series> reliability = new ArrayList<>();
    List<HtmlReport.Series> pr = new ArrayList<>();
    for (var e : byDataset.entrySet()) {
      List<Bin> bins = calibration(m, e.getValue());
      h.heading(String.format(Locale.ROOT, "%s: %d questions, ECE %.4f", e.getKey(), e.getValue().size(), ece(bins)));
      List<List<String>> rows = new ArrayList<>();
      List<double[]> points = new ArrayList<>();
      for (Bin b : bins) {
        rows.add(List.of(String.format(Locale.ROOT, "%.1f-%.1f", b.from(), b.to()), Long.toString(b.n()),
            String.format(Locale.ROOT, "%.3f", b.meanProbability()), String.format(Locale.ROOT, "%.3f", b.positiveRate())));
        if (b.n() > 0) points.add(new double[] {b.meanProbability(), b.positiveRate()});
      }
      h.table(List.of("probability", "candidates", "mean probability", "positive rate"), rows);
      reliability.add(new HtmlReport.Series(e.getKey(), points));
      List<double[]> curve = new ArrayList<>();
      for (double[] p : precisionRecall(m, e.getValue())) if (!Double.isNaN(p[1])) curve.add(new double[] {p[2], p[1]});
      pr.add(new HtmlReport.Series(e.getKey(), curve));
    }
    reliability.add(new HtmlReport.Series("perfect calibration", List.of(new double[] {0, 0}, new double[] {1, 1})));
    h.lineChart("Reliability: mean probability (x) against the share that is evidence (y)", "mean probability",
        "positive rate", reliability, false, 1.0);
    h.lineChart("Precision (y) against recall (x) of p >= t, t = 0.05 ... 0.95, per candidate", "recall", "precision",
        pr, false, 1.0);
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
