package dev.mnemo.eval;

import com.fasterxml.jackson.databind.node.ArrayNode;
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
 * The outcome of a scenario run: one {@link QueryResult} per query and policy, and the metrics per
 * split and policy computed from them.
 *
 * <p>Immutable. The split {@value #ALL} covers every query; the others are the splits present in
 * the files ({@code dev}, {@code heldout}), in name order.
 *
 * @param results every query's result under every policy, in run order
 */
public record ScenarioReport(List<QueryResult> results) {

  /** The pseudo-split of all queries. */
  public static final String ALL = "all";

  public ScenarioReport {
    results = List.copyOf(results);
  }

  /** Metrics by split ({@value #ALL} first), then by policy in {@link Policy} order. */
  public Map<String, Map<Policy, PolicyMetrics>> metrics() {
    Map<String, Map<Policy, PolicyMetrics>> out = new LinkedHashMap<>();
    out.put(ALL, byPolicy(results));
    TreeSet<String> splits = new TreeSet<>();
    for (QueryResult r : results) splits.add(r.split());
    for (String s : splits) {
      out.put(s, byPolicy(results.stream().filter(r -> r.split().equals(s)).toList()));
    }
    return out;
  }

  /** The metrics of one policy over all queries. */
  public PolicyMetrics metrics(Policy policy) {
    return metrics().get(ALL).get(policy);
  }

  private static Map<Policy, PolicyMetrics> byPolicy(List<QueryResult> rs) {
    Map<Policy, PolicyMetrics> out = new EnumMap<>(Policy.class);
    for (Policy p : Policy.values()) {
      List<QueryResult> mine = rs.stream().filter(r -> r.policy() == p).toList();
      if (!mine.isEmpty()) out.put(p, PolicyMetrics.of(mine));
    }
    return out;
  }

  /** {@code {"all": {"none": {...metrics}, ...}, "dev": {...}}}. */
  public ObjectNode metricsJson() {
    ObjectNode o = JsonCodec.object();
    metrics()
        .forEach(
            (split, byPolicy) -> {
              ObjectNode s = o.putObject(split);
              byPolicy.forEach((p, m) -> s.set(p.code(), m.toJson()));
            });
    return o;
  }

  /** The per-query lines of {@code docs/scenarios.md}, in run order. */
  public List<ObjectNode> queryLines() {
    List<ObjectNode> out = new ArrayList<>(results.size());
    for (QueryResult r : results) out.add(queryLine(r, "policy", r.policy().code()));
    return out;
  }

  /**
   * One per-query line; {@code armField} names what selected ({@code policy}, or {@code variant} in
   * ablations).
   */
  static ObjectNode queryLine(QueryResult r, String armField, String arm) {
    ObjectNode o = JsonCodec.object();
    o.put("scenario", r.scenario());
    o.put("split", r.split());
    o.put("query", r.query());
    o.put(armField, arm);
    ArrayNode sel = o.putArray("selected");
    r.selected().forEach(sel::add);
    o.put("candidates", r.candidates());
    o.put("tokens_used", r.tokensUsed());
    PolicyMetrics.put(o, "latency_ms", r.latencyMs());
    return o;
  }

  /** A fixed-width table per split: one row per policy. Undefined ratios print as {@code -}. */
  public String table() {
    StringBuilder sb = new StringBuilder();
    metrics()
        .forEach(
            (split, byPolicy) -> {
              int n = byPolicy.values().stream().findFirst().map(PolicyMetrics::queries).orElse(0);
              sb.append(String.format(Locale.ROOT, "split %s (%d queries)%n", split, n));
              sb.append(
                  String.format(
                      Locale.ROOT,
                      "%-11s %7s %10s %8s %10s %11s %6s %7s %10s %8s %8s%n",
                      "policy",
                      "recall",
                      "stale_use",
                      "leakage",
                      "precision",
                      "abstention",
                      "fetch",
                      "tokens",
                      "irrelevant",
                      "p50_ms",
                      "p99_ms"));
              byPolicy.forEach(
                  (p, m) ->
                      sb.append(
                          String.format(
                              Locale.ROOT,
                              "%-11s %7s %10s %8d %10s %11s %6s %7.1f %10.1f %8.2f %8.2f%n",
                              p.code(),
                              ratio(m.recall()),
                              ratio(m.staleUse()),
                              m.leakage(),
                              ratio(m.precision()),
                              ratio(m.abstention()),
                              ratio(m.fetchRate()),
                              m.meanTokens(),
                              m.irrelevantTokens(),
                              m.latencyP50Ms(),
                              m.latencyP99Ms())));
              sb.append(System.lineSeparator());
            });
    return sb.toString();
  }

  /**
   * The kind of a query, read off its id as the history generator writes them ({@code o1-phone-now}
   * is {@code now}, {@code o1-when-trip} is {@code when}); other ids are their last dash-separated
   * part.
   */
  static String kind(String queryId) {
    if (queryId.contains("-when-")) return "when";
    int dash = queryId.lastIndexOf('-');
    return dash < 0 ? queryId : queryId.substring(dash + 1);
  }

  /** Metrics of one policy per split and kind of query ({@link #kind}). */
  public Map<String, Map<String, PolicyMetrics>> byKind(Policy policy) {
    Map<String, Map<String, List<QueryResult>>> grouped = new java.util.TreeMap<>();
    for (QueryResult r : results) {
      if (r.policy() != policy) continue;
      grouped
          .computeIfAbsent(r.split(), k -> new java.util.TreeMap<>())
          .computeIfAbsent(kind(r.query()), k -> new ArrayList<>())
          .add(r);
    }
    Map<String, Map<String, PolicyMetrics>> out = new java.util.TreeMap<>();
    grouped.forEach(
        (split, kinds) ->
            kinds.forEach(
                (kind, rs) ->
                    out.computeIfAbsent(split, k -> new java.util.TreeMap<>())
                        .put(kind, PolicyMetrics.of(rs))));
    return out;
  }

  /**
   * {@link #byKind} as a table: recall, precision, abstention, fetch rate and irrelevant tokens per
   * kind.
   */
  public String kindTable(Policy policy) {
    StringBuilder sb = new StringBuilder();
    byKind(policy)
        .forEach(
            (split, kinds) -> {
              sb.append(
                  String.format(
                      Locale.ROOT, "%s by kind of question, split %s%n", policy.code(), split));
              sb.append(
                  String.format(
                      Locale.ROOT,
                      "%-10s %7s %7s %10s %11s %6s %10s%n",
                      "kind",
                      "queries",
                      "recall",
                      "precision",
                      "abstention",
                      "fetch",
                      "irrelevant"));
              kinds.forEach(
                  (kind, m) ->
                      sb.append(
                          String.format(
                              Locale.ROOT,
                              "%-10s %7d %7s %10s %11s %6s %10.1f%n",
                              kind,
                              m.queries(),
                              ratio(m.recall()),
                              ratio(m.precision()),
                              ratio(m.abstention()),
                              ratio(m.fetchRate()),
                              m.irrelevantTokens())));
              sb.append(System.lineSeparator());
            });
    return sb.toString();
  }

  private static String ratio(double v) {
    return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.3f", v);
  }
}
