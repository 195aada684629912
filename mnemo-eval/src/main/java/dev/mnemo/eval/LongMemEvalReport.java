package dev.mnemo.eval;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.eval.LocomoRunner.Ranking;
import dev.mnemo.json.JsonCodec;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.ToDoubleFunction;

/**
 * The outcome of a LongMemEval run: every question's ranked turns and sessions under every ranking,
 * and the retrieval metrics of the LongMemEval paper computed from them.
 *
 * <p>Metrics, each averaged over questions (abstention questions, ids ending in {@code _abs}, are
 * reported apart, as the paper excludes them): {@code recall@k} is the paper's {@code
 * recall_all@k}, 1 when every evidence item is in the top k; {@code recall_any@k}, 1 when at least
 * one is; {@code evidence_recall@k}, the share of the evidence items in the top k (as LoCoMo's
 * recall); {@code ndcg@k} is binary-relevance NDCG (the paper's {@code ndcg_any@k}: gain 1 per
 * evidence item at rank i discounted by log2(i + 1), over the ideal ordering). Session level (no
 * prefix): the evidence is {@code answer_session_ids}, the ranking the distinct sessions of the
 * retrieved turns, each at the rank of its best turn. Turn level ({@code turn_} prefix): the
 * evidence is the turns marked {@code has_answer}, over the questions that have such turns ({@code
 * turn_questions}). {@code tokens@k}: tokens of the top k turns (the engine's tokenizer), what
 * putting them in a prompt would cost. Latency: wall time of one recall, query embedding included.
 * Immutable.
 *
 * @param neighbourContext whether turns were indexed with their neighbours
 * @param kMax records retrieved per question
 * @param rankings the rankings, in report order
 * @param questions questions asked
 * @param memories memories written over all questions
 * @param ingestSeconds wall time of all writes (embedding included)
 * @param answers one per question and ranking
 */
public record LongMemEvalReport(
    boolean neighbourContext,
    int kMax,
    List<Ranking> rankings,
    int questions,
    int memories,
    double ingestSeconds,
    List<Answer> answers) {

  /** The ks reported, those up to {@code kMax}. */
  static final int[] KS = {1, 3, 5, 10, 20, 30, 50};

  public LongMemEvalReport {
    rankings = List.copyOf(rankings);
    answers = List.copyOf(answers);
  }

  /**
   * One question asked under one ranking.
   *
   * @param questionId the question's id
   * @param type its question type
   * @param abstention whether it is an abstention question
   * @param ranking the ranking
   * @param evidenceTurns the evidence turn ids (may be empty)
   * @param evidenceSessions the evidence session ids
   * @param turns the retrieved turn ids, best first, without repeats
   * @param turnTokens tokens of each of {@code turns}
   * @param sessions the retrieved turns' sessions, best first, without repeats
   * @param latencyMs wall time of the recall
   */
  public record Answer(
      String questionId,
      String type,
      boolean abstention,
      Ranking ranking,
      List<String> evidenceTurns,
      List<String> evidenceSessions,
      List<String> turns,
      List<Integer> turnTokens,
      List<String> sessions,
      double latencyMs) {
    public Answer {
      evidenceTurns = List.copyOf(evidenceTurns);
      evidenceSessions = List.copyOf(evidenceSessions);
      turns = List.copyOf(turns);
      turnTokens = List.copyOf(turnTokens);
      sessions = List.copyOf(sessions);
      if (turnTokens.size() != turns.size()) {
        throw new IllegalArgumentException(
            "turnTokens must have one entry per turn, were "
                + turnTokens.size()
                + " for "
                + turns.size());
      }
    }

    /**
     * Session recall_all@k: 1 when every evidence session is among the top k, NaN without evidence.
     */
    public double sessionRecallAt(int k) {
      return recallAll(evidenceSessions, sessions, k);
    }

    /**
     * Turn recall_all@k: 1 when every evidence turn is among the top k, NaN without evidence turns.
     */
    public double turnRecallAt(int k) {
      return recallAll(evidenceTurns, turns, k);
    }

    /** Tokens of the top k turns. */
    public int tokensAt(int k) {
      return turnTokens.subList(0, Math.min(k, turnTokens.size())).stream()
          .mapToInt(Integer::intValue)
          .sum();
    }
  }

  /** 1 when every relevant id is among the top k, 0 otherwise, NaN when nothing is relevant. */
  static double recallAll(List<String> relevant, List<String> ranked, int k) {
    if (relevant.isEmpty()) return Double.NaN;
    Set<String> head = new HashSet<>(ranked.subList(0, Math.min(k, ranked.size())));
    return head.containsAll(relevant) ? 1 : 0;
  }

  /** 1 when some relevant id is among the top k, 0 otherwise, NaN when nothing is relevant. */
  static double recallAny(List<String> relevant, List<String> ranked, int k) {
    if (relevant.isEmpty()) return Double.NaN;
    for (String id : ranked.subList(0, Math.min(k, ranked.size())))
      if (relevant.contains(id)) return 1;
    return 0;
  }

  /** The share of the relevant ids among the top k, NaN when nothing is relevant. */
  static double share(List<String> relevant, List<String> ranked, int k) {
    if (relevant.isEmpty()) return Double.NaN;
    Set<String> head = new HashSet<>(ranked.subList(0, Math.min(k, ranked.size())));
    return (double) relevant.stream().filter(head::contains).count() / relevant.size();
  }

  /** Binary-relevance NDCG@k; NaN when nothing is relevant. */
  static double ndcg(List<String> relevant, List<String> ranked, int k) {
    if (relevant.isEmpty()) return Double.NaN;
    Set<String> rel = new HashSet<>(relevant);
    double dcg = 0;
    for (int i = 0; i < Math.min(k, ranked.size()); i++)
      if (rel.contains(ranked.get(i))) dcg += 1 / log2(i + 2);
    double ideal = 0;
    for (int i = 0; i < Math.min(k, rel.size()); i++) ideal += 1 / log2(i + 2);
    return dcg / ideal;
  }

  private static double log2(double x) {
    return Math.log(x) / Math.log(2);
  }

  /** The ks measured: the standard ones up to kMax, and kMax itself. */
  public List<Integer> ks() {
    TreeSet<Integer> out = new TreeSet<>();
    for (int k : KS) if (k <= kMax) out.add(k);
    out.add(kMax);
    return List.copyOf(out);
  }

  /** The question types present, in name order. */
  public List<String> types() {
    return answers.stream().map(Answer::type).distinct().sorted().toList();
  }

  /**
   * The answers of a ranking; {@code abstention} picks the abstention questions or the others; a
   * null type means all types.
   */
  public List<Answer> answers(Ranking r, boolean abstention, String type) {
    return answers.stream()
        .filter(
            a ->
                a.ranking() == r
                    && a.abstention() == abstention
                    && (type == null || a.type().equals(type)))
        .toList();
  }

  /** Mean of a per-answer metric, NaN values left out; NaN when none is left. */
  static double mean(List<Answer> as, ToDoubleFunction<Answer> f) {
    return as.stream().mapToDouble(f).filter(v -> !Double.isNaN(v)).average().orElse(Double.NaN);
  }

  /** Session recall@k (recall_all) of a ranking over the non-abstention questions. */
  public double sessionRecallAt(Ranking r, int k) {
    return mean(answers(r, false, null), a -> a.sessionRecallAt(k));
  }

  /**
   * Turn recall@k (recall_all) of a ranking over the non-abstention questions with evidence turns.
   */
  public double turnRecallAt(Ranking r, int k) {
    return mean(answers(r, false, null), a -> a.turnRecallAt(k));
  }

  /**
   * {@code {"benchmark": "longmemeval", "context": .., "k_max": .., "questions": N, "memories": ..,
   * "ingest_seconds": .., "policies": {"full": {"recall@5": .., "recall@10": .., "ndcg@10": ..,
   * "turn_recall@10": .., ..., "questions": N, "per_type": {"multi-session": {...}}, "abstention":
   * {...}}}}}.
   */
  public ObjectNode toJson() {
    ObjectNode o = JsonCodec.object();
    o.put("benchmark", "longmemeval");
    o.put("context", neighbourContext);
    o.put("k_max", kMax);
    o.put("questions", questions);
    o.put("memories", memories);
    PolicyMetrics.put(o, "ingest_seconds", ingestSeconds);
    ObjectNode ps = o.putObject("policies");
    for (Ranking r : rankings) {
      ObjectNode p = ps.putObject(r.code());
      metrics(p, answers(r, false, null));
      ObjectNode per = p.putObject("per_type");
      for (String t : types()) {
        List<Answer> mine = answers(r, false, t);
        if (!mine.isEmpty()) metrics(per.putObject(t), mine);
      }
      metrics(p.putObject("abstention"), answers(r, true, null));
    }
    return o;
  }

  private void metrics(ObjectNode o, List<Answer> as) {
    o.put("questions", as.size());
    o.put("turn_questions", (int) as.stream().filter(a -> !a.evidenceTurns().isEmpty()).count());
    for (int k : ks()) {
      PolicyMetrics.put(o, "recall@" + k, mean(as, a -> a.sessionRecallAt(k)));
      PolicyMetrics.put(
          o, "recall_any@" + k, mean(as, a -> recallAny(a.evidenceSessions(), a.sessions(), k)));
      PolicyMetrics.put(
          o, "evidence_recall@" + k, mean(as, a -> share(a.evidenceSessions(), a.sessions(), k)));
      PolicyMetrics.put(o, "ndcg@" + k, mean(as, a -> ndcg(a.evidenceSessions(), a.sessions(), k)));
    }
    for (int k : ks()) {
      PolicyMetrics.put(o, "turn_recall@" + k, mean(as, a -> a.turnRecallAt(k)));
      PolicyMetrics.put(
          o, "turn_recall_any@" + k, mean(as, a -> recallAny(a.evidenceTurns(), a.turns(), k)));
      PolicyMetrics.put(
          o, "turn_evidence_recall@" + k, mean(as, a -> share(a.evidenceTurns(), a.turns(), k)));
      PolicyMetrics.put(o, "turn_ndcg@" + k, mean(as, a -> ndcg(a.evidenceTurns(), a.turns(), k)));
    }
    for (int k : ks()) PolicyMetrics.put(o, "tokens@" + k, mean(as, a -> a.tokensAt(k)));
    double[] ms = as.stream().mapToDouble(Answer::latencyMs).sorted().toArray();
    PolicyMetrics.put(o, "mean_latency_ms", mean(as, Answer::latencyMs));
    PolicyMetrics.put(o, "latency_p50_ms", PolicyMetrics.percentile(ms, 0.50));
    PolicyMetrics.put(o, "latency_p95_ms", PolicyMetrics.percentile(ms, 0.95));
  }

  /** Retrieval metrics per ranking, then turn recall@10 (session recall@10) per question type. */
  public String table() {
    StringBuilder sb = new StringBuilder();
    int k10 = Math.min(10, kMax);
    int k5 = Math.min(5, kMax);
    sb.append(
        String.format(
            Locale.ROOT,
            "LongMemEval retrieval: %d questions, %d memories, neighbour context %s, "
                + "abstention questions apart%n",
            questions,
            memories,
            neighbourContext ? "on" : "off"));
    sb.append(
        String.format(
            Locale.ROOT,
            "%-9s %5s %8s %8s %8s %9s %9s %9s %9s %8s %8s%n",
            "policy",
            "q",
            "R@" + k5,
            "R@" + k10,
            "NDCG@" + k10,
            "turnR@" + k5,
            "turnR@" + k10,
            "tNDCG@" + k10,
            "tokens@" + k10,
            "p50_ms",
            "p95_ms"));
    for (Ranking r : rankings) {
      List<Answer> as = answers(r, false, null);
      double[] ms = as.stream().mapToDouble(Answer::latencyMs).sorted().toArray();
      sb.append(
          String.format(
              Locale.ROOT,
              "%-9s %5d %8.3f %8.3f %8.3f %9.3f %9.3f %9.3f %9.0f %8.1f %8.1f%n",
              r.code(),
              as.size(),
              sessionRecallAt(r, k5),
              sessionRecallAt(r, k10),
              mean(as, a -> ndcg(a.evidenceSessions(), a.sessions(), k10)),
              turnRecallAt(r, k5),
              turnRecallAt(r, k10),
              mean(as, a -> ndcg(a.evidenceTurns(), a.turns(), k10)),
              mean(as, a -> a.tokensAt(k10)),
              PolicyMetrics.percentile(ms, 0.5),
              PolicyMetrics.percentile(ms, 0.95)));
    }
    sb.append(
        String.format(
            Locale.ROOT, "%nturn recall@%d (session recall@%d) by question type%n", k10, k10));
    List<String> head =
        new ArrayList<>(List.of(String.format(Locale.ROOT, "%-26s %5s", "type", "q")));
    for (Ranking r : rankings) head.add(String.format(Locale.ROOT, "%15s", r.code()));
    sb.append(String.join(" ", head)).append(System.lineSeparator());
    List<String> rows = new ArrayList<>(types());
    rows.add("abstention");
    for (String t : rows) {
      boolean abs = t.equals("abstention");
      List<String> row =
          new ArrayList<>(
              List.of(
                  String.format(
                      Locale.ROOT,
                      "%-26s %5d",
                      t,
                      answers(rankings.get(0), abs, abs ? null : t).size())));
      for (Ranking r : rankings) {
        List<Answer> as = answers(r, abs, abs ? null : t);
        row.add(
            String.format(
                Locale.ROOT,
                "%15s",
                String.format(
                    Locale.ROOT,
                    "%.3f (%.3f)",
                    mean(as, a -> a.turnRecallAt(k10)),
                    mean(as, a -> a.sessionRecallAt(k10)))));
      }
      sb.append(String.join(" ", row)).append(System.lineSeparator());
    }
    return sb.toString();
  }
}
