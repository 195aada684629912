package dev.mnemo.json;

import static dev.mnemo.json.Nodes.num;
import static dev.mnemo.json.Nodes.putNullable;
import static dev.mnemo.json.Nodes.round;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.CandidateTrace;
import dev.mnemo.InvalidRequestException.Violation;
import dev.mnemo.Outcome;
import dev.mnemo.RecallTrace;
import dev.mnemo.RelevanceTrace;
import dev.mnemo.Signals;
import dev.mnemo.Weights;
import dev.mnemo.time.TimeRange;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The wire form of a recall's trace ({@link RecallTrace}): the resolved request, every candidate
 * with its signals, outcome and reason, the gate's decision, stage timings. Signals and timings
 * travel as the wire rounds them (4 decimals; stage times in milliseconds; NaN as {@code null});
 * the relevance model's features and contributions (when the trace has them) at full precision. The
 * reader reads Mnemo's own output (a server's answer, the retrieval log): tolerant of unknown
 * fields, a problem is an {@link IllegalArgumentException} naming the field's path ({@code
 * trace.candidates[2].id}). Stateless, thread-safe.
 */
public final class TraceJson {
  private TraceJson() {}

  /** A trace: the resolved request, every candidate with its signals and outcome, timings. */
  public static ObjectNode write(RecallTrace t) {
    ObjectNode o = JsonCodec.object();
    o.put("owner", t.owner());
    o.put("query", t.query());
    o.put("asked_at", t.askedAt().toString());
    o.put("mode", t.mode());
    o.put("valid_time", t.validTime().toString());
    o.put("known_time", t.knownTime().toString());
    if (t.timeRange() != null) {
      ObjectNode tr = o.putObject("time_range");
      tr.put("expression", t.timeRange().expression());
      tr.put("from", t.timeRange().from().toString());
      tr.put("to", t.timeRange().to().toString());
    }
    ArrayNode qe = o.putArray("query_entities");
    t.queryEntities().forEach(qe::add);
    num(o, "dense_floor", t.denseFloor());
    o.put("fusion", t.fusion());
    o.put("packing", t.packing());
    o.put("k", t.k());
    o.put("budget_tokens", t.budgetTokens());
    o.put("threshold", t.threshold());
    o.set("weights", RequestJson.weights(t.weights()));
    o.put("tokenizer", t.tokenizer());
    putNullable(o, "embedding_model", t.embeddingModel());
    o.put("tokens_used", t.tokensUsed());
    if (t.gate() != null) {
      ObjectNode g = o.putObject("gate");
      g.put("fetch", t.gate().fetch());
      g.put("reason", t.gate().reason());
      g.put("min_relevance", t.gate().minRelevance());
      g.put("exhaustive", t.gate().exhaustive());
      g.put("model", t.gate().model());
    }
    o.put("block_tokens", t.blockTokens());
    ArrayNode cands = o.putArray("candidates");
    for (CandidateTrace c : t.candidates()) cands.add(candidate(c));
    ObjectNode timings = o.putObject("stage_ms");
    t.stageNanos().forEach((k, v) -> timings.put(k, round(v / 1e6)));
    return o;
  }

  private static ObjectNode candidate(CandidateTrace c) {
    ObjectNode x = JsonCodec.object();
    x.put("id", c.id());
    ArrayNode src = x.putArray("sources");
    c.sources().forEach(src::add);
    x.put("text", c.text());
    putNullable(x, "fact_key", c.factKey());
    x.put("valid_from", c.validFrom().toString());
    putNullable(x, "valid_to", c.validTo());
    x.put("recorded_at", c.recordedAt().toString());
    ArrayNode by = x.putArray("found_by");
    c.foundBy().forEach(by::add);
    x.set("signals", signals(c.signals()));
    x.put("outcome", c.outcome() == null ? "unranked" : c.outcome().code());
    putNullable(x, "reason", c.reason());
    x.put("tokens", c.tokens());
    if (!c.conflictsWith().isEmpty()) {
      ArrayNode cw = x.putArray("conflicts_with");
      c.conflictsWith().forEach(cw::add);
    }
    if (c.relevance() != null) {
      ObjectNode rel = x.putObject("relevance");
      num(rel, "probability", c.relevance().probability());
      // features and contributions at full precision: a logged recall's contributions are
      // computed from its features when it is read (RelevanceTrace), and must be the recall's own
      exact(rel.putObject("features"), c.relevance().features());
      if (!c.relevance().contributions().isEmpty())
        exact(rel.putObject("contributions"), c.relevance().contributions());
    }
    return x;
  }

  /** {@code values} by name, unrounded (NaN as {@code null}). */
  private static void exact(ObjectNode o, Map<String, Double> values) {
    new TreeMap<>(values)
        .forEach(
            (k, v) -> {
              if (Double.isNaN(v)) o.putNull(k);
              else o.put(k, v);
            });
  }

  private static final String[] SIGNALS = {
    "cosine",
    "dense",
    "window",
    "bm25_raw",
    "bm25",
    "entity",
    "match",
    "rrf",
    "recency",
    "importance",
    "frequency",
    "authority",
    "time_match",
    "speaker",
    "final"
  };

  private static ObjectNode signals(Signals s) {
    ObjectNode o = JsonCodec.object();
    double[] values = {
      s.cosine(),
      s.dense(),
      s.window(),
      s.bm25Raw(),
      s.bm25(),
      s.entity(),
      s.match(),
      s.rrf(),
      s.recency(),
      s.importance(),
      s.frequency(),
      s.authority(),
      s.timeMatch(),
      s.speaker(),
      s.finalScore()
    };
    for (int i = 0; i < values.length; i++) num(o, SIGNALS[i], values[i]);
    return o;
  }

  /** A trace from its JSON form (the inverse of {@link #write}). */
  public static RecallTrace read(JsonNode n) {
    List<Violation> v = new ArrayList<>();
    FieldReader x = Nodes.answerObject(n, "trace.", "trace", v);
    return Nodes.answer(
        "trace",
        v,
        () -> {
          FieldReader tr = x.object("time_range", "an object");
          TimeRange range = null;
          if (tr != null) {
            var from = tr.requiredInstant("from");
            var to = tr.requiredInstant("to");
            String expression = tr.requiredString("expression");
            if (v.isEmpty()) range = new TimeRange(from, to, expression);
          }
          List<CandidateTrace> candidates = new ArrayList<>();
          JsonNode cs = x.get("candidates");
          if (cs != null) {
            for (int i = 0; i < cs.size(); i++) {
              CandidateTrace c =
                  candidate(
                      FieldReader.of(cs.get(i), "trace.candidates[" + i + "].", "candidate", v));
              if (c != null) candidates.add(c);
            }
          }
          Map<String, Long> stages = new LinkedHashMap<>();
          doubles(x.get("stage_ms")).forEach((k, ms) -> stages.put(k, Math.round(ms * 1e6)));
          FieldReader g = x.object("gate", "an object");
          RecallTrace.Gate gate =
              g == null
                  ? null
                  : new RecallTrace.Gate(
                      g.requiredString("fetch"),
                      g.text("reason"),
                      orNaN(g.number("min_relevance")),
                      Boolean.TRUE.equals(g.bool("exhaustive")),
                      g.text("model"));
          Weights weights =
              x.has("weights")
                  ? x.guard(() -> RequestJson.weights(x.get("weights"), "trace.weights."))
                  : Weights.DEFAULT;
          RecallTrace t =
              new RecallTrace(
                  x.requiredString("owner"),
                  x.requiredString("query"),
                  x.instant("asked_at"),
                  x.requiredString("mode"),
                  x.instant("valid_time"),
                  x.instant("known_time"),
                  range,
                  x.strings("query_entities"),
                  orNaN(x.number("dense_floor")),
                  x.requiredString("fusion"),
                  x.requiredString("packing"),
                  orZero(x.integer("k")),
                  orZero(x.integer("budget_tokens")),
                  orZero(x.number("threshold")),
                  weights,
                  x.requiredString("tokenizer"),
                  x.text("embedding_model"),
                  candidates,
                  orZero(x.integer("tokens_used")),
                  orZero(x.integer("block_tokens")),
                  stages,
                  gate);
          return v.isEmpty() ? t : null;
        });
  }

  private static CandidateTrace candidate(FieldReader y) {
    Signals signals = signals(y.object("signals", "an object"));
    Outcome outcome = outcome(y);
    JsonNode rel = y.get("relevance");
    RelevanceTrace relevance =
        rel == null || !rel.isObject()
            ? null
            : new RelevanceTrace(
                orNaN(
                    rel.path("probability").isNumber() ? rel.get("probability").asDouble() : null),
                doubles(rel.get("features")),
                doubles(rel.get("contributions")));
    CandidateTrace c =
        new CandidateTrace(
            y.requiredString("id"),
            y.strings("sources"),
            y.requiredString("text"),
            y.text("fact_key"),
            y.instant("valid_from"),
            y.instant("valid_to"),
            y.instant("recorded_at"),
            new LinkedHashSet<>(y.strings("found_by")),
            signals,
            outcome,
            y.text("reason"),
            orZero(y.integer("tokens")),
            y.strings("conflicts_with"),
            relevance);
    return y.violations().isEmpty() ? c : null;
  }

  private static Signals signals(FieldReader x) {
    double[] s = new double[SIGNALS.length];
    for (int i = 0; i < s.length; i++) s[i] = x == null ? Double.NaN : orNaN(x.number(SIGNALS[i]));
    // logs written before format 2 of the trace named the match "relevance"
    if (x != null && !x.has("match")) s[6] = orNaN(x.number("relevance"));
    return new Signals(
        s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8], s[9], s[10], s[11], s[12], s[13],
        s[14]);
  }

  private static Outcome outcome(FieldReader y) {
    String code = y.text("outcome");
    if (code == null || code.equals("unranked")) return null;
    for (Outcome o : Outcome.values()) if (o.code().equals(code)) return o;
    y.reject(
        "outcome",
        code,
        "must be one of selected, below_threshold, beyond_k, over_budget, duplicate, unranked, was '"
            + code
            + "'");
    return null;
  }

  /** An object of numbers as written by {@code num} ({@code null} = NaN); absent: empty. */
  private static Map<String, Double> doubles(JsonNode o) {
    Map<String, Double> out = new LinkedHashMap<>();
    if (o != null && o.isObject())
      o.properties()
          .forEach(
              e ->
                  out.put(
                      e.getKey(), e.getValue().isNumber() ? e.getValue().asDouble() : Double.NaN));
    return out;
  }

  private static double orNaN(Double d) {
    return d == null ? Double.NaN : d;
  }

  private static double orZero(Double d) {
    return d == null ? 0 : d;
  }

  private static int orZero(Integer i) {
    return i == null ? 0 : i;
  }
}
