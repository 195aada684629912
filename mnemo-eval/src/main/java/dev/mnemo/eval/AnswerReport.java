package dev.mnemo.eval;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.json.JsonCodec;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * The outcome of an answer-level evaluation and the metrics computed from it. Immutable.
 *
 * <p>Over the questions without an error (N):
 *
 * <ul>
 *   <li>{@code benefit_rate}: wrong without memory and right with it, / N;
 *   <li>{@code disturbance_rate}: right without memory and wrong with it, / N;
 *   <li>{@code net_benefit}: benefit rate minus disturbance rate;
 *   <li>{@code fetch_rate}: questions for which at least one record was recalled, / N;
 *   <li>{@code use_rate}: of those, the share whose with-memory answer cites a recalled record;
 *   <li>{@code precision_at_k}: recalled records that are about the question (a source among its
 *       relevant ids) / recalled records, averaged over questions that recalled some and have
 *       relevant ids;
 *   <li>{@code accuracy}, {@code exact_match}, {@code f1}: with and without memory (the judge's
 *       verdict, and the SQuAD-normalized scores against the gold answer).
 * </ul>
 *
 * The counterfactual check reports {@code sensitivity} (answers that changed among questions about
 * the changed memory) and {@code stability} (answers that stayed the same among the others). The
 * utility curve: stored records ordered by how many questions needed them (leave-one-out; never
 * recalled or never needed first), and for each share of storage removed from the bottom, the share
 * of the measured correct answers that lose a record they needed.
 *
 * @param outcomes one per question
 * @param counterfactuals one per changed memory
 * @param storedRecords memories written over all suites (the storage the curve reduces)
 * @param utilityMeasured whether leave-one-out was run
 */
public record AnswerReport(
    List<Outcome> outcomes,
    List<Counterfactual> counterfactuals,
    int storedRecords,
    boolean utilityMeasured) {

  // Its own mapper, private and configured once at build: the report's records in snake_case.
  private static final com.fasterxml.jackson.databind.ObjectMapper LINES =
      com.fasterxml.jackson.databind.json.JsonMapper.builder()
          .propertyNamingStrategy(
              com.fasterxml.jackson.databind.PropertyNamingStrategies.SNAKE_CASE)
          .build();

  public AnswerReport {
    outcomes = List.copyOf(outcomes);
    counterfactuals = List.copyOf(counterfactuals);
  }

  /**
   * One question's result.
   *
   * @param fetched ids of the recalled records, best first
   * @param relevantFetched how many of them are about the question
   * @param hasRelevant whether the question names relevant ids
   * @param used 1-based numbers of the recalled records the with-memory answer cites
   * @param needed ids of recalled records the correct answer needed (leave-one-out), or null when
   *     not measured
   * @param error the language-model failure that stopped this question, or null
   */
  public record Outcome(
      String suite,
      String id,
      String category,
      String question,
      String gold,
      List<String> fetched,
      int relevantFetched,
      boolean hasRelevant,
      String answerWithout,
      String answerWith,
      List<Integer> used,
      boolean correctWithout,
      boolean correctWith,
      String judgeReason,
      double exactWithout,
      double exactWith,
      double f1Without,
      double f1With,
      List<String> needed,
      String error) {

    static Outcome failed(
        String suite,
        String id,
        String category,
        String question,
        String gold,
        List<String> fetched,
        int relevantFetched,
        boolean hasRelevant,
        String error) {
      return new Outcome(
          suite,
          id,
          category,
          question,
          gold,
          fetched,
          relevantFetched,
          hasRelevant,
          null,
          null,
          List.of(),
          false,
          false,
          null,
          0,
          0,
          0,
          0,
          null,
          error);
    }
  }

  /** One re-asked question of a counterfactual: whether its with-memory answer changed. */
  public record Check(String id, boolean relevant, String before, String after, boolean changed) {}

  /** One changed memory and the questions re-asked; {@code error} when the model failed. */
  public record Counterfactual(
      String suite,
      String target,
      String original,
      String changed,
      List<Check> checks,
      String error) {}

  /** Questions that ran without a model failure. */
  public List<Outcome> answered() {
    return outcomes.stream().filter(o -> o.error() == null).toList();
  }

  public ObjectNode toJson() {
    ObjectNode o = JsonCodec.object();
    o.put("questions", outcomes.size());
    o.put("errors", outcomes.size() - answered().size());
    metrics(o, answered());
    Map<String, List<Outcome>> byCategory = new TreeMap<>();
    for (Outcome x : answered())
      byCategory.computeIfAbsent(x.category(), k -> new ArrayList<>()).add(x);
    ObjectNode per = o.putObject("per_category");
    byCategory.forEach((k, v) -> metrics(per.putObject(k), v));
    ObjectNode cf = o.putObject("counterfactual");
    counterfactualMetrics(cf);
    if (utilityMeasured) utility(o.putObject("utility"));
    return o;
  }

  private static void metrics(ObjectNode o, List<Outcome> xs) {
    int n = xs.size();
    o.put("n", n);
    num(o, "benefit_rate", rate(xs, x -> !x.correctWithout() && x.correctWith(), n));
    num(o, "disturbance_rate", rate(xs, x -> x.correctWithout() && !x.correctWith(), n));
    num(
        o,
        "net_benefit",
        rate(xs, x -> !x.correctWithout() && x.correctWith(), n)
            - rate(xs, x -> x.correctWithout() && !x.correctWith(), n));
    List<Outcome> fetched = xs.stream().filter(x -> !x.fetched().isEmpty()).toList();
    num(o, "fetch_rate", rate(xs, x -> !x.fetched().isEmpty(), n));
    num(o, "use_rate", rate(fetched, x -> !x.used().isEmpty(), fetched.size()));
    List<Outcome> judged = fetched.stream().filter(Outcome::hasRelevant).toList();
    num(
        o,
        "precision_at_k",
        judged.isEmpty()
            ? Double.NaN
            : round(
                judged.stream()
                    .mapToDouble(x -> (double) x.relevantFetched() / x.fetched().size())
                    .average()
                    .orElse(0)));
    ObjectNode with = o.putObject("with_memory");
    num(with, "accuracy", rate(xs, Outcome::correctWith, n));
    num(with, "exact_match", mean(xs, Outcome::exactWith));
    num(with, "f1", mean(xs, Outcome::f1With));
    ObjectNode without = o.putObject("without_memory");
    num(without, "accuracy", rate(xs, Outcome::correctWithout, n));
    num(without, "exact_match", mean(xs, Outcome::exactWithout));
    num(without, "f1", mean(xs, Outcome::f1Without));
  }

  private void counterfactualMetrics(ObjectNode o) {
    List<Check> checks = counterfactuals.stream().flatMap(c -> c.checks().stream()).toList();
    List<Check> relevant = checks.stream().filter(Check::relevant).toList();
    List<Check> others = checks.stream().filter(c -> !c.relevant()).toList();
    o.put("memories_changed", counterfactuals.stream().filter(c -> c.error() == null).count());
    o.put("errors", counterfactuals.stream().filter(c -> c.error() != null).count());
    o.put("relevant_questions", relevant.size());
    num(o, "sensitivity", rate(relevant, Check::changed, relevant.size()));
    o.put("other_questions", others.size());
    num(o, "stability", rate(others, c -> !c.changed(), others.size()));
  }

  /** The leave-one-out counts and the storage-reduction curve. */
  private void utility(ObjectNode o) {
    List<Outcome> measured = answered().stream().filter(x -> x.needed() != null).toList();
    Map<String, Integer> need = new HashMap<>();
    Set<String> selected = new HashSet<>();
    for (Outcome x : answered()) for (String id : x.fetched()) selected.add(x.suite() + "/" + id);
    for (Outcome x : measured)
      for (String id : x.needed()) need.merge(x.suite() + "/" + id, 1, Integer::sum);
    o.put("questions_measured", measured.size());
    o.put("records_stored", storedRecords);
    o.put("records_recalled", selected.size());
    o.put("records_needed", need.size());
    // Removal order: records no measured answer needed go first (never recalled ones among them);
    // then by need.
    List<String> order = new ArrayList<>(need.keySet());
    order.sort(Comparator.comparingInt((String k) -> need.get(k)).thenComparing(k -> k));
    int unneeded = Math.max(0, storedRecords - order.size());
    ArrayNode curve = o.putArray("curve");
    for (int step = 0; step <= 10; step++) {
      int remove = (int) Math.round(storedRecords * step / 10.0);
      Set<String> removed =
          new HashSet<>(order.subList(0, Math.max(0, Math.min(order.size(), remove - unneeded))));
      long lost =
          measured.stream()
              .filter(
                  x -> x.needed().stream().anyMatch(id -> removed.contains(x.suite() + "/" + id)))
              .count();
      ObjectNode p = curve.addObject();
      p.put("storage_removed", step / 10.0);
      p.put("records_removed", remove);
      num(
          p,
          "answers_lost",
          measured.isEmpty() ? Double.NaN : round((double) lost / measured.size()));
    }
  }

  /** One JSON line per question. */
  public List<ObjectNode> queryLines() {
    List<ObjectNode> out = new ArrayList<>();
    for (Outcome x : outcomes) {
      out.add(LINES.valueToTree(x));
    }
    return out;
  }

  public String table() {
    ObjectNode j = toJson();
    StringBuilder b = new StringBuilder();
    b.append(
        String.format(
            Locale.ROOT,
            "answer-level evaluation: %d questions (%d with a model error)%n",
            j.get("questions").asInt(),
            j.get("errors").asInt()));
    b.append(
        String.format(
            Locale.ROOT,
            "%-14s %5s %8s %8s %8s %7s %7s %7s %9s %9s %7s %7s%n",
            "category",
            "n",
            "benefit",
            "disturb",
            "net",
            "fetch",
            "use",
            "P@k",
            "acc(mem)",
            "acc(none)",
            "F1mem",
            "F1none"));
    row(b, "all", j);
    j.get("per_category").properties().forEach(e -> row(b, e.getKey(), (ObjectNode) e.getValue()));
    ObjectNode cf = (ObjectNode) j.get("counterfactual");
    b.append(
        String.format(
            Locale.ROOT,
            "counterfactual: %d memories changed; answers changed on %s of %d questions about "
                + "them (sensitivity), unchanged on %s of %d others (stability)%n",
            cf.get("memories_changed").asInt(),
            fmt(cf.get("sensitivity")),
            cf.get("relevant_questions").asInt(),
            fmt(cf.get("stability")),
            cf.get("other_questions").asInt()));
    if (j.has("utility")) {
      ObjectNode u = (ObjectNode) j.get("utility");
      b.append(
          String.format(
              Locale.ROOT,
              "utility (leave-one-out over %d correct answers): %d records stored, %d recalled, "
                  + "%d needed%n  storage removed -> answers lost:",
              u.get("questions_measured").asInt(),
              u.get("records_stored").asInt(),
              u.get("records_recalled").asInt(),
              u.get("records_needed").asInt()));
      for (var p : u.get("curve")) {
        b.append(
            String.format(
                Locale.ROOT,
                " %.0f%%->%s",
                100 * p.get("storage_removed").asDouble(),
                fmt(p.get("answers_lost"))));
      }
      b.append(System.lineSeparator());
    }
    return b.toString();
  }

  private static void row(StringBuilder b, String name, ObjectNode m) {
    b.append(
        String.format(
            Locale.ROOT,
            "%-14s %5d %8s %8s %8s %7s %7s %7s %9s %9s %7s %7s%n",
            name,
            m.get("n").asInt(),
            fmt(m.get("benefit_rate")),
            fmt(m.get("disturbance_rate")),
            fmt(m.get("net_benefit")),
            fmt(m.get("fetch_rate")),
            fmt(m.get("use_rate")),
            fmt(m.get("precision_at_k")),
            fmt(m.get("with_memory").get("accuracy")),
            fmt(m.get("without_memory").get("accuracy")),
            fmt(m.get("with_memory").get("f1")),
            fmt(m.get("without_memory").get("f1"))));
  }

  private static void num(ObjectNode o, String k, double v) {
    if (Double.isNaN(v)) o.putNull(k);
    else o.put(k, round(v));
  }

  private static String fmt(com.fasterxml.jackson.databind.JsonNode n) {
    return n == null || n.isNull() ? "-" : fmt(n.asDouble());
  }

  private static String fmt(double v) {
    return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.3f", v);
  }

  private static <T> double rate(List<T> xs, Predicate<T> p, int n) {
    return n == 0 ? Double.NaN : round((double) xs.stream().filter(p).count() / n);
  }

  private static double mean(List<Outcome> xs, java.util.function.ToDoubleFunction<Outcome> f) {
    return xs.isEmpty() ? Double.NaN : round(xs.stream().mapToDouble(f).average().orElse(0));
  }

  private static double round(double v) {
    return Double.isNaN(v) ? v : Math.round(v * 1e4) / 1e4;
  }
}
