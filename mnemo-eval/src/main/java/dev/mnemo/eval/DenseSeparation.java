package dev.mnemo.eval;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * How well an embedder's cosine alone separates the records that answer a question from the owner's
 * other records: the paraphrase signal the fetch gate reads, measured without the rest of the read
 * path.
 *
 * <p>Per question, over the cosines of the question to every record the owner had when it was
 * asked: evidence recall@10 by cosine alone; the AUC of cosine(evidence) against cosine(the owner's
 * other records) (ties count half); the lead of the best evidence over the best other record, in
 * cosine and in units of the standard deviation of the owner's cosines (models spread their cosines
 * differently, so only the scaled lead compares across models); and the z-score of the highest
 * cosine against the owner's records, which for a question with nothing to find should be low. Pure
 * functions on arrays; thread-safe.
 */
public final class DenseSeparation {
  private DenseSeparation() {}

  /** Records counted by recall, as in the LoCoMo and LongMemEval R@10 the docs report. */
  static final int K = 10;

  /**
   * One question's numbers; NaN where undefined (no evidence, or no other record).
   *
   * @param dataset where the question comes from
   * @param kind the question's kind (a generated question's kind, a LongMemEval type, a LoCoMo
   *     category), for breakdowns
   * @param expectNone whether nothing answers the question
   * @param recallAt10 share of the evidence among the {@value #K} highest cosines
   * @param auc P(cosine of an evidence record > cosine of another record), ties half
   * @param lead best evidence cosine minus best other cosine
   * @param leadZ {@code lead} over the standard deviation of the owner's cosines
   * @param maxZ (highest cosine - mean) / standard deviation, over the owner's records
   */
  public record Question(
      String dataset,
      String kind,
      boolean expectNone,
      double recallAt10,
      double auc,
      double lead,
      double leadZ,
      double maxZ) {}

  /**
   * Measures one question.
   *
   * @param cosines the question's cosine to each of the owner's records
   * @param evidence whether each record answers the question (same length)
   */
  public static Question measure(
      String dataset, String kind, boolean expectNone, double[] cosines, boolean[] evidence) {
    if (cosines.length != evidence.length) {
      throw new IllegalArgumentException(
          "cosines and evidence must have the same length, were "
              + cosines.length
              + " and "
              + evidence.length);
    }
    int n = cosines.length;
    double mean = 0;
    double max = Double.NEGATIVE_INFINITY;
    double bestEvidence = Double.NEGATIVE_INFINITY;
    double bestOther = Double.NEGATIVE_INFINITY;
    int positives = 0;
    for (int i = 0; i < n; i++) {
      mean += cosines[i];
      max = Math.max(max, cosines[i]);
      if (evidence[i]) {
        positives++;
        bestEvidence = Math.max(bestEvidence, cosines[i]);
      } else {
        bestOther = Math.max(bestOther, cosines[i]);
      }
    }
    mean /= Math.max(n, 1);
    double var = 0;
    for (double c : cosines) var += (c - mean) * (c - mean);
    double sd = n > 1 ? Math.sqrt(var / (n - 1)) : Double.NaN;
    boolean both = positives > 0 && positives < n;
    double lead = both ? bestEvidence - bestOther : Double.NaN;
    return new Question(
        dataset,
        kind,
        expectNone,
        positives > 0 ? recallAtK(cosines, evidence, positives) : Double.NaN,
        both ? auc(cosines, evidence) : Double.NaN,
        lead,
        both && sd > 0 ? lead / sd : Double.NaN,
        n > 1 && sd > 0 ? (max - mean) / sd : Double.NaN);
  }

  private static double recallAtK(double[] cosines, boolean[] evidence, int positives) {
    Integer[] order = new Integer[cosines.length];
    for (int i = 0; i < order.length; i++) order[i] = i;
    Arrays.sort(order, Comparator.comparingDouble((Integer i) -> -cosines[i]));
    int hits = 0;
    for (int r = 0; r < Math.min(K, order.length); r++) if (evidence[order[r]]) hits++;
    return (double) hits / positives;
  }

  /** Mann-Whitney AUC of the evidence's cosines over the others', ties half. */
  static double auc(double[] cosines, boolean[] evidence) {
    double wins = 0;
    long pairs = 0;
    for (int i = 0; i < cosines.length; i++) {
      if (!evidence[i]) continue;
      for (int j = 0; j < cosines.length; j++) {
        if (evidence[j]) continue;
        pairs++;
        if (cosines[i] > cosines[j]) wins++;
        else if (cosines[i] == cosines[j]) wins += 0.5;
      }
    }
    return wins / pairs;
  }

  /**
   * The AUC of {@code positives} over {@code negatives} (ties half): here, how well the maxZ of
   * questions that have an answer separates them from questions with nothing to find.
   */
  static double auc(List<Double> positives, List<Double> negatives) {
    if (positives.isEmpty() || negatives.isEmpty()) return Double.NaN;
    double wins = 0;
    for (double p : positives) {
      for (double q : negatives) {
        if (p > q) wins++;
        else if (p == q) wins += 0.5;
      }
    }
    return wins / ((double) positives.size() * negatives.size());
  }

  /**
   * Means over a set of questions.
   *
   * @param questions questions counted
   * @param answerable questions with evidence
   * @param none questions with nothing to find
   * @param recallAt10 mean over answerable questions
   * @param auc mean over answerable questions
   * @param lead mean over answerable questions
   * @param leadZ mean over answerable questions
   * @param topIsEvidence share of answerable questions whose highest cosine is evidence
   * @param maxZAnswerable mean maxZ of answerable questions
   * @param maxZNone mean maxZ of questions with nothing to find (NaN if none)
   * @param noneAuc how well maxZ ranks answerable questions over those with nothing to find
   */
  public record Summary(
      int questions,
      int answerable,
      int none,
      double recallAt10,
      double auc,
      double lead,
      double leadZ,
      double topIsEvidence,
      double maxZAnswerable,
      double maxZNone,
      double noneAuc) {

    /** One markdown table row after {@code label}. */
    public String row(String label) {
      return String.format(
          Locale.ROOT,
          "| %s | %d | %.3f | %.3f | %.3f | %.2f | %.3f | %.2f | %s | %s |",
          label,
          answerable,
          recallAt10,
          auc,
          lead,
          leadZ,
          topIsEvidence,
          maxZAnswerable,
          none == 0 ? "-" : String.format(Locale.ROOT, "%.2f (%d)", maxZNone, none),
          none == 0 ? "-" : String.format(Locale.ROOT, "%.3f", noneAuc));
    }

    /** The header of {@link #row}'s table. */
    public static String header() {
      return "| embedder | questions | dense R@10 | AUC | lead | lead/sd | top is evidence"
          + " | maxZ answerable | maxZ nothing-to-find (n) | AUC answerable vs none |\n"
          + "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|";
    }
  }

  /** Means of {@code qs}; answerable means ignore questions with nothing to find. */
  public static Summary summarize(List<Question> qs) {
    List<Question> answerable = new ArrayList<>();
    List<Double> zAnswerable = new ArrayList<>();
    List<Double> zNone = new ArrayList<>();
    for (Question q : qs) {
      if (q.expectNone()) {
        if (!Double.isNaN(q.maxZ())) zNone.add(q.maxZ());
      } else if (!Double.isNaN(q.recallAt10())) {
        answerable.add(q);
        if (!Double.isNaN(q.maxZ())) zAnswerable.add(q.maxZ());
      }
    }
    return new Summary(
        qs.size(),
        answerable.size(),
        zNone.size(),
        mean(answerable, Question::recallAt10),
        mean(answerable, Question::auc),
        mean(answerable, Question::lead),
        mean(answerable, Question::leadZ),
        mean(answerable, q -> Double.isNaN(q.lead()) ? Double.NaN : q.lead() > 0 ? 1 : 0),
        zAnswerable.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN),
        zNone.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN),
        auc(zAnswerable, zNone));
  }

  private static double mean(List<Question> qs, ToDoubleFunction<Question> f) {
    return qs.stream().mapToDouble(f).filter(d -> !Double.isNaN(d)).average().orElse(Double.NaN);
  }
}
