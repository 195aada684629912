package dev.mnemo.internal;

import dev.mnemo.MemoryRecord;
import dev.mnemo.internal.ReadPath.Scored;
import dev.mnemo.text.Words;
import dev.mnemo.time.TimeRange;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The features of the relevance model ({@link dev.mnemo.RelevanceModel}): every signal the read
 * path computes for a candidate, plus what tells "about this person" from "answers this question".
 *
 * <p>The owner's background is cancelled in three ways. A name that most of the owner's eligible
 * records mention (their own name in their own memory) is <i>background</i>: it counts neither as
 * content the record must cover nor as a name match. Cosine is read against the distribution of the
 * candidates' cosines (z-score, gap to the best) and after centering: the query and every record
 * minus the mean of the candidates' vectors, which removes what all of the owner's records share
 * (the name, the register) and leaves what this record adds. And the share of the question's
 * content words, beyond background names, that the record's text holds ({@code coverage}).
 *
 * <p>Names are stable (the model file refers to them); a feature that does not apply is 0 with an
 * indicator where that matters ({@code has_episode}, {@code has_cosine}). There are no rank
 * features: a rank jumps between two nearly tied candidates (1 against 1/2), which made the model
 * select the first of two equally good records and drop the second (a dev scenario's "gift idea for
 * Sam"); leads and ratios move smoothly. Stateless.
 */
final class RelevanceFeatures {
  private RelevanceFeatures() {}

  /** Pseudo-records the candidates' mean vector is shrunk towards zero with, before centering. */
  static final int CENTER_PRIOR = 8;

  /** A name mentioned by at least this share of the owner's eligible records is background. */
  static final double BACKGROUND_SHARE = 0.5;

  private static final Pattern HOW_MANY =
      Pattern.compile(
          "\\b(how many|how often|how much|number of|count|list (all|every|each)|all the|every time|each time|"
              + "what are all|which ones|in total|total)\\b");
  private static final Pattern WHEN =
      Pattern.compile("\\b(when|what date|what day|what year|what month|how long ago)\\b");
  private static final Pattern WHO = Pattern.compile("\\b(who|whom|whose)\\b");
  private static final Pattern WHERE = Pattern.compile("\\b(where)\\b");
  private static final Pattern WHY = Pattern.compile("\\b(why|how come)\\b");

  /**
   * Whether a question asks to aggregate ("how many times...", "list every..."): the exhaustive
   * gate applies.
   */
  static boolean isAggregation(String text) {
    return HOW_MANY.matcher(text.toLowerCase(Locale.ROOT)).find();
  }

  /**
   * The features, in the order {@link Scored#features} holds them (an array per candidate: a map
   * per candidate was the read path's largest allocation, about a quarter of it with the model's
   * look-ups).
   */
  static final List<String> NAMES =
      List.of(
          "has_cosine",
          "dense",
          "cos_margin",
          "cos_z",
          "cos_gap",
          "ref_z",
          "ref_lead",
          "ccos",
          "ccos_gap",
          "cos_lead",
          "ccos_lead",
          "tcos",
          "bm25",
          "coverage",
          "covered_terms",
          "entity",
          "own_name",
          "names_other_missing",
          "first_person",
          "has_episode",
          "window",
          "speaker",
          "time_outside",
          "relevance",
          "rel_ratio",
          "q_terms",
          "q_no_terms",
          "q_how_many",
          "q_when",
          "q_who",
          "q_where",
          "q_why",
          "q_time");

  /**
   * What a record was written with rather than how it matches the message: never an input of the
   * relevance model (a test reads the shipped model and fails when one is). Generated histories
   * gave facts a higher importance than notes, and trees fitted on them read importance as
   * relevance: the same match passed at importance 0.8 and failed at 0.44. These order the records
   * that pass the gate ({@code score}); they never decide whether a record is evidence. Time counts
   * only as {@code time_outside}, and only when the message names a time.
   */
  static final java.util.Set<String> PRIORS =
      java.util.Set.of(
          "importance",
          "authority",
          "frequency",
          "recency",
          "cat_episodic",
          "cat_semantic",
          "category",
          "score_lead",
          "score_ratio",
          "time_match",
          "recorded_at",
          "valid_from",
          "n_candidates");

  private static final Map<String, Integer> INDEX = index(NAMES);

  private static Map<String, Integer> index(List<String> names) {
    Map<String, Integer> out = new java.util.HashMap<>();
    for (int i = 0; i < names.size(); i++) out.put(names.get(i), i);
    return Map.copyOf(out);
  }

  /** One candidate's feature values, set by name (a name not in {@link #NAMES} is a bug). */
  private static final class Values {
    final double[] v = new double[NAMES.size()];

    void put(String name, double value) {
      v[INDEX.get(name)] = value;
    }
  }

  /** Feature values as a map in {@link #NAMES} order (for a trace); null for null. */
  static Map<String, Double> asMap(double[] values) {
    if (values == null) return null;
    Map<String, Double> out = new LinkedHashMap<>();
    for (int i = 0; i < values.length; i++) out.put(NAMES.get(i), values[i]);
    return out;
  }

  /** Background names: those mentioned by most ({@link #BACKGROUND_SHARE}) of {@code n} records. */
  static Set<String> background(long n, Map<String, Long> entityFrequencies) {
    Set<String> out = new HashSet<>();
    for (var e : entityFrequencies.entrySet()) {
      if (n > 0 && e.getValue() >= BACKGROUND_SHARE * n) out.add(e.getKey());
    }
    return out;
  }

  /** What the features of one recall share. */
  record QueryContext(
      String text,
      float[] vector,
      double queryFloor,
      TimeRange range,
      long eligibleCount,
      Map<String, Long> entityFrequencies,
      Set<String> names,
      double[] reference) {}

  /**
   * Fills {@code s.features} ({@link #NAMES} order) of every candidate when {@code all}, else of
   * the candidates still in the running (no outcome yet): only those are scored by the model unless
   * the recall is traced. What the features compare a candidate with (cosine spread, leads, best
   * relevance and score) is taken over every candidate either way, so a candidate's features do not
   * depend on {@code all}.
   */
  static void compute(List<Scored> scored, QueryContext q, boolean all) {
    if (scored.isEmpty()) return;
    Set<String> background = background(q.eligibleCount(), q.entityFrequencies());
    Set<String> foreground = new HashSet<>(q.names());
    foreground.removeAll(background);
    Set<String> ignore = new HashSet<>(background);
    Set<String> terms = Words.contentStems(q.text(), ignore);
    String lower = q.text().toLowerCase(Locale.ROOT);

    // Cosine distribution over the candidates that have one.
    double sum = 0;
    double sq = 0;
    double maxCos = Double.NEGATIVE_INFINITY;
    int nc = 0;
    for (Scored s : scored) {
      if (Double.isNaN(s.cosine)) continue;
      sum += s.cosine;
      sq += s.cosine * s.cosine;
      maxCos = Math.max(maxCos, s.cosine);
      nc++;
    }
    double meanCos = nc == 0 ? 0 : sum / nc;
    double sdCos = nc < 2 ? 0 : Math.sqrt(Math.max(0, sq / nc - meanCos * meanCos));
    double[] centered = centeredCosines(scored, q.vector());
    double maxCentered = Double.NEGATIVE_INFINITY;
    for (double c : centered) if (!Double.isNaN(c)) maxCentered = Math.max(maxCentered, c);
    double[] cosTop = top2(scored, s -> s.cosine);
    double[] ccosTop = top2(centered);
    double bestRelevance = 0;
    for (Scored s : scored) bestRelevance = Math.max(bestRelevance, s.relevance);
    // The query's cosines to the fixed reference (mean, sd, max), NaN without a query vector.
    double[] ref = q.reference();
    boolean hasRef = ref != null && !Double.isNaN(ref[0]);
    double qTerms = Math.log1p(terms.size());
    double howMany = isAggregation(q.text()) ? 1 : 0;
    double when = WHEN.matcher(lower).find() ? 1 : 0;
    double who = WHO.matcher(lower).find() ? 1 : 0;
    double where = WHERE.matcher(lower).find() ? 1 : 0;
    double why = WHY.matcher(lower).find() ? 1 : 0;

    for (int i = 0; i < scored.size(); i++) {
      Scored s = scored.get(i);
      if (!all && s.outcome != null) continue;
      MemoryRecord r = s.r;
      Values f = new Values();
      boolean hasCos = !Double.isNaN(s.cosine);
      f.put("has_cosine", hasCos ? 1.0 : 0.0);
      f.put("dense", s.dense);
      f.put("cos_margin", hasCos ? s.cosine - q.queryFloor() : 0);
      f.put("cos_z", hasCos && sdCos > 0 ? (s.cosine - meanCos) / Math.max(sdCos, 0.005) : 0);
      f.put("cos_gap", hasCos ? maxCos - s.cosine : 0.2);
      // Against the fixed reference: the same for a store of one record and one of 100,000.
      f.put("ref_z", hasCos && hasRef ? (s.cosine - ref[0]) / Math.max(ref[1], 0.005) : -3);
      f.put("ref_lead", hasCos && hasRef ? s.cosine - ref[2] : -0.2);
      f.put("ccos", Double.isNaN(centered[i]) ? 0 : centered[i]);
      f.put("ccos_gap", Double.isNaN(centered[i]) ? 1 : maxCentered - centered[i]);
      // How far this record stands out from every other candidate (negative below the best).
      f.put("cos_lead", hasCos ? lead(s.cosine, cosTop) : -0.2);
      f.put("ccos_lead", Double.isNaN(centered[i]) ? -1 : lead(centered[i], ccosTop));
      // Name-free, by the companion model (TopicMatch). NaN, a missing value, when not compared
      // (no companion, or past the candidates compared): the trees then take the branch fitted on
      // rows without it (RelevanceFit.COMPANION), not the one for the lowest cosine.
      f.put("tcos", s.topic);
      f.put("bm25", s.bm25);
      Set<String> recordStems = Words.stems(Words.withFactKey(r.factKey(), r.text()));
      int covered = 0;
      for (String t : terms) if (recordStems.contains(t)) covered++;
      double coverage = terms.isEmpty() ? 0 : (double) covered / terms.size();
      f.put("coverage", coverage);
      f.put("covered_terms", Math.log1p(covered));
      f.put("entity", s.entity);
      boolean ownName = false;
      boolean otherNamed = false;
      for (String e : r.entities()) {
        if (background.contains(e)) ownName = true;
        if (foreground.contains(e)) otherNamed = true;
      }
      f.put("own_name", ownName ? 1.0 : 0.0);
      // A record in the first person ("I have a dog called Rex") is the owner speaking: the person
      // a
      // question names may be that "I", so the record does not lack the name.
      boolean firstPerson = Words.isFirstPerson(r.text());
      f.put("first_person", firstPerson ? 1.0 : 0.0);
      f.put(
          "names_other_missing", !foreground.isEmpty() && !otherNamed && !firstPerson ? 1.0 : 0.0);
      boolean episode = r.episode() != null && r.seq() >= 0;
      f.put("has_episode", episode ? 1.0 : 0.0);
      f.put("window", s.window);
      f.put("speaker", s.speaker);
      f.put("time_outside", q.range() != null && s.timeMatch == 0 ? 1.0 : 0.0);
      f.put("relevance", s.relevance);
      f.put("rel_ratio", bestRelevance <= 0 ? 0 : s.relevance / bestRelevance);
      f.put("q_terms", qTerms);
      f.put("q_no_terms", terms.isEmpty() ? 1.0 : 0.0);
      f.put("q_how_many", howMany);
      f.put("q_when", when);
      f.put("q_who", who);
      f.put("q_where", where);
      f.put("q_why", why);
      f.put("q_time", q.range() != null ? 1.0 : 0.0);
      s.features = f.v;
    }
  }

  /**
   * Cosine of the query and each record after subtracting the candidates' mean vector (NaN for a
   * record without a vector of the query's dimension). What every record of the owner shares moves
   * into the mean and out of the comparison.
   */
  private static double[] centeredCosines(List<Scored> scored, float[] q) {
    double[] out = new double[scored.size()];
    java.util.Arrays.fill(out, Double.NaN);
    if (q == null) return out;
    int d = q.length;
    double[] mean = new double[d];
    int m = 0;
    for (Scored s : scored) {
      float[] v = s.r.embedding();
      if (v == null || v.length != d) continue;
      for (int j = 0; j < d; j++) mean[j] += v[j];
      m++;
    }
    if (m < 2) return out;
    // Shrunk towards zero by CENTER_PRIOR pseudo-records: with two candidates the plain mean makes
    // their centered vectors exact opposites (one looks relevant, the other irrelevant, however
    // close they are); a handful of records says little about what all of the owner's share.
    for (int j = 0; j < d; j++) mean[j] /= m + CENTER_PRIOR;
    double qn = 0;
    double[] qc = new double[d];
    for (int j = 0; j < d; j++) {
      qc[j] = q[j] - mean[j];
      qn += qc[j] * qc[j];
    }
    qn = Math.sqrt(qn);
    for (int i = 0; i < scored.size(); i++) {
      float[] v = scored.get(i).r.embedding();
      if (v == null || v.length != d) continue;
      double dot = 0;
      double rn = 0;
      for (int j = 0; j < d; j++) {
        double c = v[j] - mean[j];
        dot += qc[j] * c;
        rn += c * c;
      }
      double den = qn * Math.sqrt(rn);
      out[i] = den <= 0 ? 0 : dot / den;
    }
    return out;
  }

  /** The best and the second best value, NaN ignored ({@code -inf} when missing). */
  private static double[] top2(
      List<Scored> scored, java.util.function.ToDoubleFunction<Scored> key) {
    double[] v = new double[scored.size()];
    for (int i = 0; i < v.length; i++) v[i] = key.applyAsDouble(scored.get(i));
    return top2(v);
  }

  private static double[] top2(double[] values) {
    double a = Double.NEGATIVE_INFINITY;
    double b = Double.NEGATIVE_INFINITY;
    for (double v : values) {
      if (Double.isNaN(v)) continue;
      if (v > a) {
        b = a;
        a = v;
      } else if (v > b) {
        b = v;
      }
    }
    return new double[] {a, b};
  }

  /**
   * {@code v} minus the best other value: the lead of the best over the second, or how far below
   * the best.
   */
  private static double lead(double v, double[] top) {
    double other = v >= top[0] ? top[1] : top[0];
    return Double.isInfinite(other) ? 0 : v - other;
  }
}
