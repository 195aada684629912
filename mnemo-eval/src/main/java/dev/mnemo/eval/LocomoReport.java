package dev.mnemo.eval;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.eval.LocomoRunner.Ranking;
import dev.mnemo.json.JsonCodec;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * The outcome of a LoCoMo run: every question's ranked evidence under every ranking, and the
 * metrics computed from them.
 *
 * <p>For categories 1-4: evidence recall@k is the share of a question's evidence turns among the
 * top k, averaged over questions (macro); hit@k is the share of questions whose evidence is all in
 * the top k. For category 5 (adversarial: the question attributes a statement to the wrong
 * speaker): over the questions that name exactly one of the two speakers, the mean share of the top
 * 5 records whose text starts with that speaker's name ({@code named_speaker_share@5}) next to that
 * speaker's share of all turns ({@code named_speaker_base_rate}); above the base rate means the
 * ranking follows the name the question uses. Immutable.
 *
 * @param neighbourContext whether turns were indexed with their neighbours
 * @param kMax records retrieved per question
 * @param conversations the conversations' names
 * @param turns memories indexed
 * @param ingestSeconds wall time of all writes (embedding included)
 * @param answers one per question and ranking
 * @param write what the indexing stored and how fast
 */
public record LocomoReport(
    boolean neighbourContext,
    int kMax,
    List<String> conversations,
    int turns,
    double ingestSeconds,
    List<Answer> answers,
    WriteStats write) {

  /** The ks reported, those up to {@code kMax}. */
  static final int[] KS = {1, 3, 5, 10, 20};

  public LocomoReport {
    conversations = List.copyOf(conversations);
    answers = List.copyOf(answers);
  }

  /**
   * One question asked under one ranking.
   *
   * @param conversation the conversation's name
   * @param index the question's index in the conversation's {@code qa}
   * @param category its category
   * @param ranking the ranking
   * @param evidence its evidence turn ids
   * @param top the retrieved turn ids, best first, at most kMax
   * @param latencyMs wall time of the recall
   * @param namedSpeakerShare category 5: share of the top 5 spoken by the named speaker, else NaN
   * @param namedSpeakerBaseRate category 5: the named speaker's share of all turns, else NaN
   * @param topRecords the retrieved records' sources, best record first: a record of the write path
   *     may name several turns, and counts for every evidence turn among its sources
   */
  public record Answer(
      String conversation,
      int index,
      int category,
      Ranking ranking,
      List<String> evidence,
      List<String> top,
      double latencyMs,
      double namedSpeakerShare,
      double namedSpeakerBaseRate,
      List<List<String>> topRecords) {
    public Answer {
      evidence = List.copyOf(evidence);
      top = List.copyOf(top);
      topRecords =
          topRecords == null
              ? top.stream().map(List::of).toList()
              : topRecords.stream().map(List::copyOf).toList();
    }

    /** One turn per record (raw turns indexed as memories). */
    public Answer(
        String conversation,
        int index,
        int category,
        Ranking ranking,
        List<String> evidence,
        List<String> top,
        double latencyMs,
        double namedSpeakerShare,
        double namedSpeakerBaseRate) {
      this(
          conversation,
          index,
          category,
          ranking,
          evidence,
          top,
          latencyMs,
          namedSpeakerShare,
          namedSpeakerBaseRate,
          null);
    }

    /** Share of the evidence among the sources of the top k records. */
    public double recallAt(int k) {
      Set<String> head = new HashSet<>();
      for (List<String> r : topRecords.subList(0, Math.min(k, topRecords.size()))) head.addAll(r);
      return evidence.isEmpty()
          ? Double.NaN
          : (double) evidence.stream().filter(head::contains).count() / evidence.size();
    }
  }

  /**
   * What the indexing stored and how fast.
   *
   * @param writePath {@code raw} (every turn a memory, through rememberAll) or {@code offline}
   *     (turns through {@code ingest} with the offline extractor and rule consolidation)
   * @param records records stored, all versions
   * @param tokensStored cl100k tokens of the stored records' texts
   * @param sourcesPerRecord mean number of source turns per current record
   * @param ackMsMedian median acknowledgement latency of one ingest call (one session), ms
   * @param ackMsP95 95th percentile of it, ms
   * @param turnsPerSecond turns ingested per second, from the first call until extraction drained
   */
  public record WriteStats(
      String writePath,
      long records,
      long tokensStored,
      double sourcesPerRecord,
      double ackMsMedian,
      double ackMsP95,
      double turnsPerSecond) {}

  /** The ks measured: the standard ones up to kMax, and kMax itself. */
  public List<Integer> ks() {
    TreeSet<Integer> out = new TreeSet<>();
    for (int k : KS) if (k <= kMax) out.add(k);
    out.add(kMax);
    return List.copyOf(out);
  }

  /** Evidence recall@k of a ranking over categories 1-4 (NaN without questions). */
  public double recallAt(Ranking r, int k) {
    return mean(evidenceAnswers(r, 0).stream().mapToDouble(a -> a.recallAt(k)).toArray());
  }

  private List<Answer> evidenceAnswers(Ranking r, int category) {
    return answers.stream()
        .filter(
            a ->
                a.ranking() == r
                    && a.category() != 5
                    && (category == 0 || a.category() == category))
        .toList();
  }

  /**
   * {@code {"context": .., "k_max": .., "conversations": [..], "turns": .., "ingest_seconds": ..,
   * "policies": {"full": {"recall@1": .., "hit@1": .., "questions": N, "mean_latency_ms": ..,
   * "per_category": {"1": {...}}, "adversarial": {...}}}}}.
   */
  public ObjectNode toJson() {
    ObjectNode o = JsonCodec.object();
    o.put("context", neighbourContext);
    o.put("k_max", kMax);
    ArrayNode cs = o.putArray("conversations");
    conversations.forEach(cs::add);
    o.put("turns", turns);
    PolicyMetrics.put(o, "ingest_seconds", ingestSeconds);
    if (write != null) {
      ObjectNode w = o.putObject("write_path");
      w.put("mode", write.writePath());
      w.put("records", write.records());
      w.put("tokens_stored", write.tokensStored());
      PolicyMetrics.put(w, "sources_per_record", write.sourcesPerRecord());
      PolicyMetrics.put(w, "ack_ms_median", write.ackMsMedian());
      PolicyMetrics.put(w, "ack_ms_p95", write.ackMsP95());
      PolicyMetrics.put(w, "turns_per_second", write.turnsPerSecond());
    }
    ObjectNode ps = o.putObject("policies");
    for (Ranking r : Ranking.values()) {
      List<Answer> mine = evidenceAnswers(r, 0);
      if (mine.isEmpty() && answers.stream().noneMatch(a -> a.ranking() == r)) continue;
      ObjectNode p = ps.putObject(r.code());
      metrics(p, mine);
      PolicyMetrics.put(
          p,
          "mean_latency_ms",
          mean(
              answers.stream()
                  .filter(a -> a.ranking() == r)
                  .mapToDouble(Answer::latencyMs)
                  .toArray()));
      ObjectNode per = p.putObject("per_category");
      for (int c = 1; c <= 4; c++) {
        List<Answer> cat = evidenceAnswers(r, c);
        if (!cat.isEmpty()) metrics(per.putObject(Integer.toString(c)), cat);
      }
      List<Answer> adv =
          answers.stream()
              .filter(
                  a ->
                      a.ranking() == r && a.category() == 5 && !Double.isNaN(a.namedSpeakerShare()))
              .toList();
      ObjectNode ad = p.putObject("adversarial");
      ad.put("questions", adv.size());
      PolicyMetrics.put(
          ad,
          "named_speaker_share@5",
          mean(adv.stream().mapToDouble(Answer::namedSpeakerShare).toArray()));
      PolicyMetrics.put(
          ad,
          "named_speaker_base_rate",
          mean(adv.stream().mapToDouble(Answer::namedSpeakerBaseRate).toArray()));
    }
    return o;
  }

  private void metrics(ObjectNode o, List<Answer> as) {
    for (int k : ks())
      PolicyMetrics.put(
          o, "recall@" + k, mean(as.stream().mapToDouble(a -> a.recallAt(k)).toArray()));
    for (int k : ks()) {
      PolicyMetrics.put(
          o,
          "hit@" + k,
          mean(as.stream().mapToDouble(a -> a.recallAt(k) >= 1.0 ? 1 : 0).toArray()));
    }
    o.put("questions", as.size());
  }

  /**
   * One row per ranking: questions, recall@k for every k, hit@kMax, mean latency, category-5 share.
   */
  public String table() {
    StringBuilder sb = new StringBuilder();
    sb.append(
        String.format(
            Locale.ROOT,
            "LoCoMo evidence recall: %d conversations, %d turns, neighbour context %s%n",
            conversations.size(),
            turns,
            neighbourContext ? "on" : "off"));
    if (write != null) {
      sb.append(
          String.format(
              Locale.ROOT,
              "write path %s: %d records, %d tokens stored, %.2f sources/record, ack median "
                  + "%.1f ms (p95 %.1f), %.1f turns/s%n",
              write.writePath(),
              write.records(),
              write.tokensStored(),
              write.sourcesPerRecord(),
              write.ackMsMedian(),
              write.ackMsP95(),
              write.turnsPerSecond()));
    }
    List<String> head =
        new ArrayList<>(List.of(String.format(Locale.ROOT, "%-9s %9s", "policy", "questions")));
    for (int k : ks()) head.add(String.format(Locale.ROOT, "%9s", "recall@" + k));
    head.add(String.format(Locale.ROOT, "%9s %8s %13s", "hit@" + kMax, "mean_ms", "cat5_named@5"));
    sb.append(String.join(" ", head)).append(System.lineSeparator());
    for (Ranking r : Ranking.values()) {
      List<Answer> mine = evidenceAnswers(r, 0);
      List<String> row =
          new ArrayList<>(List.of(String.format(Locale.ROOT, "%-9s %9d", r.code(), mine.size())));
      for (int k : ks()) row.add(String.format(Locale.ROOT, "%9.3f", recallAt(r, k)));
      double hit = mean(mine.stream().mapToDouble(a -> a.recallAt(kMax) >= 1.0 ? 1 : 0).toArray());
      double ms =
          mean(
              answers.stream()
                  .filter(a -> a.ranking() == r)
                  .mapToDouble(Answer::latencyMs)
                  .toArray());
      double named =
          mean(
              answers.stream()
                  .filter(a -> a.ranking() == r && a.category() == 5)
                  .mapToDouble(Answer::namedSpeakerShare)
                  .filter(v -> !Double.isNaN(v))
                  .toArray());
      row.add(String.format(Locale.ROOT, "%9.3f %8.1f %13.3f", hit, ms, named));
      sb.append(String.join(" ", row)).append(System.lineSeparator());
    }
    return sb.toString();
  }

  private static double mean(double[] xs) {
    if (xs.length == 0) return Double.NaN;
    double s = 0;
    for (double x : xs) s += x;
    return s / xs.length;
  }
}
