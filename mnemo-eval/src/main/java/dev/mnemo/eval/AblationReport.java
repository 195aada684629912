package dev.mnemo.eval;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.json.JsonCodec;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * The outcome of an ablation run over scenarios: every query's result under every {@link Ablation},
 * and the metrics of {@link PolicyMetrics} per split and variant.
 *
 * <p>Immutable. The results carry the policy {@link Policy#FULL} (every variant is the engine's
 * read path, with one thing changed); the variant is the map key. Splits as in {@link
 * ScenarioReport}: {@value ScenarioReport#ALL} first, then the files' splits in name order.
 *
 * @param results each variant's results, in the order the variants ran
 */
public record AblationReport(Map<Ablation, List<QueryResult>> results) {

  public AblationReport {
    Map<Ablation, List<QueryResult>> copy = new EnumMap<>(Ablation.class);
    results.forEach((a, rs) -> copy.put(a, List.copyOf(rs)));
    results = java.util.Collections.unmodifiableMap(copy);
  }

  /**
   * Metrics by split ({@value ScenarioReport#ALL} first), then by variant in {@link Ablation}
   * order.
   */
  public Map<String, Map<Ablation, PolicyMetrics>> metrics() {
    TreeSet<String> splits = new TreeSet<>();
    results.values().forEach(rs -> rs.forEach(r -> splits.add(r.split())));
    List<String> order = new ArrayList<>();
    order.add(ScenarioReport.ALL);
    order.addAll(splits);
    Map<String, Map<Ablation, PolicyMetrics>> out = new LinkedHashMap<>();
    for (String s : order) {
      Map<Ablation, PolicyMetrics> byVariant = new EnumMap<>(Ablation.class);
      results.forEach(
          (a, rs) -> {
            List<QueryResult> mine =
                ScenarioReport.ALL.equals(s)
                    ? rs
                    : rs.stream().filter(r -> r.split().equals(s)).toList();
            if (!mine.isEmpty()) byVariant.put(a, PolicyMetrics.of(mine));
          });
      out.put(s, byVariant);
    }
    return out;
  }

  /** The metrics of one variant over all queries. */
  public PolicyMetrics metrics(Ablation a) {
    return metrics().get(ScenarioReport.ALL).get(a);
  }

  /**
   * {@code {"variants": {"dense": "description", ...}, "splits": {"all": {"dense": {metrics}, ...},
   * "dev": {...}}}}.
   */
  public ObjectNode toJson() {
    ObjectNode o = JsonCodec.object();
    ObjectNode vs = o.putObject("variants");
    for (Ablation a : results.keySet()) vs.put(a.code(), a.description());
    ObjectNode ss = o.putObject("splits");
    metrics()
        .forEach(
            (split, byVariant) -> {
              ObjectNode s = ss.putObject(split);
              byVariant.forEach((a, m) -> s.set(a.code(), m.toJson()));
            });
    return o;
  }

  /**
   * The per-query lines of {@code docs/scenarios.md} with {@code "variant"} in place of {@code
   * "policy"}, variant by variant, each in run order.
   */
  public List<ObjectNode> queryLines() {
    List<ObjectNode> out = new ArrayList<>();
    results.forEach(
        (a, rs) -> rs.forEach(r -> out.add(ScenarioReport.queryLine(r, "variant", a.code()))));
    return out;
  }

  /** One table per split: a row per variant; undefined ratios print as {@code -}. */
  public String table() {
    StringBuilder sb = new StringBuilder();
    metrics()
        .forEach(
            (split, byVariant) -> {
              int n = byVariant.values().stream().findFirst().map(PolicyMetrics::queries).orElse(0);
              sb.append(
                  String.format(
                      Locale.ROOT,
                      "split %s (%d queries, same k and budget for every variant)%n",
                      split,
                      n));
              sb.append(
                  String.format(
                      Locale.ROOT,
                      "%-18s %7s %10s %8s %10s %11s %7s %8s%n",
                      "variant",
                      "recall",
                      "stale_use",
                      "leakage",
                      "precision",
                      "abstention",
                      "tokens",
                      "p50_ms"));
              byVariant.forEach(
                  (a, m) ->
                      sb.append(
                          String.format(
                              Locale.ROOT,
                              "%-18s %7s %10s %8d %10s %11s %7.1f %8.2f%n",
                              a.code(),
                              ratio(m.recall()),
                              ratio(m.staleUse()),
                              m.leakage(),
                              ratio(m.precision()),
                              ratio(m.abstention()),
                              m.meanTokens(),
                              m.latencyP50Ms())));
              sb.append(System.lineSeparator());
            });
    sb.append("variants:").append(System.lineSeparator());
    for (Ablation a : results.keySet()) {
      sb.append(String.format(Locale.ROOT, "  %-18s %s%n", a.code(), a.description()));
    }
    return sb.toString();
  }

  static String ratio(double v) {
    return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.3f", v);
  }
}
