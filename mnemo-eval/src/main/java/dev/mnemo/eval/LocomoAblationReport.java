package dev.mnemo.eval;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.json.JsonCodec;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The outcome of an ablation run over LoCoMo conversations: evidence recall@k per {@link Ablation}
 * over the questions of categories 1-4, as {@link LocomoReport} defines it (share of a question's
 * evidence turns among the top k, averaged over questions).
 *
 * <p>Immutable. The answers carry {@link LocomoRunner.Ranking#FULL}; the variant is the map key.
 *
 * @param neighbourContext whether turns were indexed with their neighbours
 * @param kMax records retrieved per question
 * @param conversations the conversations' names
 * @param answers each variant's answers
 */
public record LocomoAblationReport(
    boolean neighbourContext,
    int kMax,
    List<String> conversations,
    Map<Ablation, List<LocomoReport.Answer>> answers) {

  public LocomoAblationReport {
    conversations = List.copyOf(conversations);
    Map<Ablation, List<LocomoReport.Answer>> copy = new EnumMap<>(Ablation.class);
    answers.forEach((a, as) -> copy.put(a, List.copyOf(as)));
    answers = Collections.unmodifiableMap(copy);
  }

  /** The ks reported: the standard ones up to kMax. */
  public List<Integer> ks() {
    List<Integer> out = new ArrayList<>();
    for (int k : LocomoReport.KS) if (k <= kMax) out.add(k);
    if (out.isEmpty() || out.get(out.size() - 1) != kMax) out.add(kMax);
    return out;
  }

  /** Evidence recall@k of a variant (NaN without questions). */
  public double recallAt(Ablation a, int k) {
    List<LocomoReport.Answer> as = answers.getOrDefault(a, List.of());
    return as.isEmpty()
        ? Double.NaN
        : as.stream().mapToDouble(x -> x.recallAt(k)).average().orElse(Double.NaN);
  }

  private double meanLatency(Ablation a) {
    return answers.getOrDefault(a, List.of()).stream()
        .mapToDouble(LocomoReport.Answer::latencyMs)
        .average()
        .orElse(Double.NaN);
  }

  /**
   * {@code {"context": .., "k_max": .., "conversations": [..], "policies": {"<variant>":
   * {"recall@5": .., "questions": N}}}}.
   */
  public ObjectNode toJson() {
    ObjectNode o = JsonCodec.object();
    o.put("context", neighbourContext);
    o.put("k_max", kMax);
    conversations.forEach(o.putArray("conversations")::add);
    ObjectNode ps = o.putObject("policies");
    answers.forEach(
        (a, as) -> {
          ObjectNode p = ps.putObject(a.code());
          for (int k : ks()) PolicyMetrics.put(p, "recall@" + k, recallAt(a, k));
          p.put("questions", as.size());
          PolicyMetrics.put(p, "mean_latency_ms", meanLatency(a));
          p.put("description", a.description());
        });
    return o;
  }

  /** A row per variant: questions, recall@k for every k, mean latency. */
  public String table() {
    StringBuilder sb = new StringBuilder();
    sb.append(
        String.format(
            Locale.ROOT,
            "LoCoMo evidence recall (categories 1-4): %d conversations, neighbour context %s, "
                + "thresholds off, k %d%n",
            conversations.size(),
            neighbourContext ? "on" : "off",
            kMax));
    sb.append(String.format(Locale.ROOT, "%-18s %9s", "variant", "questions"));
    for (int k : ks()) sb.append(String.format(Locale.ROOT, " %9s", "recall@" + k));
    sb.append(String.format(Locale.ROOT, " %8s%n", "mean_ms"));
    answers.forEach(
        (a, as) -> {
          sb.append(String.format(Locale.ROOT, "%-18s %9d", a.code(), as.size()));
          for (int k : ks()) sb.append(String.format(Locale.ROOT, " %9.3f", recallAt(a, k)));
          sb.append(String.format(Locale.ROOT, " %8.1f%n", meanLatency(a)));
        });
    return sb.toString();
  }
}
