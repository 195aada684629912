package dev.mnemo.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.json.JsonCodec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The metrics of one policy over a set of queries, as {@code docs/scenarios.md} defines them.
 *
 * <p>Ratios are micro-averaged (summed over queries, then divided) and are {@code NaN} when their
 * denominator is empty (no query expects anything, none forbids a stale id, ...); JSON prints NaN
 * as null. Immutable.
 *
 * @param queries number of queries
 * @param recall expected ids selected / expected ids
 * @param staleUse queries that selected a forbidden id of the query's own owner / queries with such
 *     forbidden ids
 * @param leakage number of selected records whose owner is not the query's owner (must be 0)
 * @param precision selected ids that are expected / selected ids, over the queries that expect ids
 * @param abstention queries with {@code expect_none} that selected nothing / such queries
 * @param meanTokens mean tokens used per query
 * @param latencyP50Ms median selection latency in milliseconds (nearest rank)
 * @param latencyP99Ms 99th-percentile selection latency in milliseconds (nearest rank)
 * @param fetchRate queries that selected anything / queries
 * @param irrelevantTokens mean tokens per query of selected texts that were not expected (NaN when
 *     unknown)
 */
public record PolicyMetrics(
    int queries,
    double recall,
    double staleUse,
    int leakage,
    double precision,
    double abstention,
    double meanTokens,
    double latencyP50Ms,
    double latencyP99Ms,
    double fetchRate,
    double irrelevantTokens) {

  /** Metrics without fetch rate and irrelevant tokens. */
  public PolicyMetrics(
      int queries,
      double recall,
      double staleUse,
      int leakage,
      double precision,
      double abstention,
      double meanTokens,
      double latencyP50Ms,
      double latencyP99Ms) {
    this(
        queries,
        recall,
        staleUse,
        leakage,
        precision,
        abstention,
        meanTokens,
        latencyP50Ms,
        latencyP99Ms,
        Double.NaN,
        Double.NaN);
  }

  /** The metrics of these results (normally of one policy). */
  public static PolicyMetrics of(List<QueryResult> results) {
    long expected = 0;
    long found = 0;
    int staleQueries = 0;
    int staleHit = 0;
    int leaked = 0;
    long selectedOnExpect = 0;
    long correctOnExpect = 0;
    int noneQueries = 0;
    int abstained = 0;
    long tokens = 0;
    long fetched = 0;
    long irrelevant = 0;
    boolean irrelevantKnown = !results.isEmpty();
    double[] latencies = new double[results.size()];
    for (int i = 0; i < results.size(); i++) {
      QueryResult r = results.get(i);
      if (!r.expect().isEmpty()) {
        expected += r.expect().size();
        long hits = r.selected().stream().filter(r.expect()::contains).count();
        found += hits;
        selectedOnExpect += r.selected().size();
        correctOnExpect += hits;
      }
      if (!r.stale().isEmpty()) {
        staleQueries++;
        if (r.selected().stream().anyMatch(r.stale()::contains)) staleHit++;
      }
      leaked += r.leaked();
      if (r.expectNone()) {
        noneQueries++;
        if (r.selected().isEmpty()) abstained++;
      }
      tokens += r.tokensUsed();
      if (!r.selected().isEmpty()) fetched++;
      if (r.irrelevantTokens() < 0) irrelevantKnown = false;
      else irrelevant += r.irrelevantTokens();
      latencies[i] = r.latencyMs();
    }
    Arrays.sort(latencies);
    return new PolicyMetrics(
        results.size(),
        ratio(found, expected),
        ratio(staleHit, staleQueries),
        leaked,
        ratio(correctOnExpect, selectedOnExpect),
        ratio(abstained, noneQueries),
        results.isEmpty() ? Double.NaN : (double) tokens / results.size(),
        percentile(latencies, 0.50),
        percentile(latencies, 0.99),
        results.isEmpty() ? Double.NaN : (double) fetched / results.size(),
        irrelevantKnown ? (double) irrelevant / results.size() : Double.NaN);
  }

  /**
   * Nearest-rank percentile of sorted values: the smallest value with at least {@code p} of them at
   * or below it.
   */
  static double percentile(double[] sorted, double p) {
    if (sorted.length == 0) return Double.NaN;
    int rank = (int) Math.ceil(p * sorted.length);
    return sorted[Math.max(0, Math.min(sorted.length, rank) - 1)];
  }

  private static double ratio(long num, long den) {
    return den == 0 ? Double.NaN : (double) num / den;
  }

  /**
   * Whether this is at least as good as {@code recorded} on every quality metric (recall, precision
   * and abstention not lower; stale use and leakage not higher), up to {@code 1e-9}. A metric that
   * is NaN in {@code recorded} is not compared; one that is NaN here while recorded is worse.
   *
   * @return the regressions, empty when there are none
   */
  public List<String> regressionsAgainst(PolicyMetrics recorded) {
    List<String> out = new ArrayList<>();
    lower("recall", recall, recorded.recall, out);
    lower("precision", precision, recorded.precision, out);
    lower("abstention", abstention, recorded.abstention, out);
    higher("stale_use", staleUse, recorded.staleUse, out);
    higher("leakage", leakage, recorded.leakage, out);
    return out;
  }

  private static void lower(String name, double now, double was, List<String> out) {
    if (Double.isNaN(was)) return;
    if (Double.isNaN(now) || now < was - 1e-9)
      out.add(name + " dropped from " + was + " to " + now);
  }

  private static void higher(String name, double now, double was, List<String> out) {
    if (Double.isNaN(was)) return;
    if (Double.isNaN(now) || now > was + 1e-9) out.add(name + " rose from " + was + " to " + now);
  }

  /** The JSON form: snake_case names, ratios rounded to 4 decimals, NaN as null. */
  public ObjectNode toJson() {
    ObjectNode o = JsonCodec.object();
    o.put("queries", queries);
    put(o, "recall", recall);
    put(o, "stale_use", staleUse);
    o.put("leakage", leakage);
    put(o, "precision", precision);
    put(o, "abstention", abstention);
    put(o, "tokens", meanTokens);
    put(o, "latency_p50_ms", latencyP50Ms);
    put(o, "latency_p99_ms", latencyP99Ms);
    if (!Double.isNaN(fetchRate)) put(o, "fetch_rate", fetchRate);
    if (!Double.isNaN(irrelevantTokens)) put(o, "irrelevant_tokens", irrelevantTokens);
    return o;
  }

  /**
   * Reads the quality metrics back from {@link #toJson()} form; absent or null ones are NaN (not
   * compared).
   */
  public static PolicyMetrics fromJson(JsonNode n) {
    return new PolicyMetrics(
        n.path("queries").asInt(0),
        num(n, "recall"),
        num(n, "stale_use"),
        n.path("leakage").asInt(0),
        num(n, "precision"),
        num(n, "abstention"),
        num(n, "tokens"),
        num(n, "latency_p50_ms"),
        num(n, "latency_p99_ms"));
  }

  private static double num(JsonNode n, String f) {
    JsonNode x = n.get(f);
    return x == null || !x.isNumber() ? Double.NaN : x.asDouble();
  }

  static void put(ObjectNode o, String k, double v) {
    if (Double.isNaN(v)) o.putNull(k);
    else o.put(k, Math.round(v * 10_000.0) / 10_000.0);
  }
}
