package dev.mnemo.json;

import static dev.mnemo.json.Nodes.round;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.InvalidRequestException.Violation;
import dev.mnemo.MemoryRecord;
import dev.mnemo.RecallResult;
import dev.mnemo.RecallTrace;
import dev.mnemo.Recalled;
import java.util.ArrayList;
import java.util.List;

/**
 * The wire form of a recall's answer ({@link RecallResult}): {@code selected} records (a stored
 * record's fields, see {@link RecordJson}, plus {@code score}, {@code relevance}, {@code tokens},
 * {@code conflicts_with}), {@code rendered}, {@code tokens_used}, {@code rendered_tokens} and the
 * {@code trace} when there is one. Scores travel rounded to 4 decimals. The reader reads Mnemo's
 * own output: tolerant of unknown fields, a problem is an {@link IllegalArgumentException} (see
 * {@link RecordJson#readAnswer}). Stateless, thread-safe.
 */
public final class ResultJson {
  private ResultJson() {}

  /**
   * The two shapes of a recall's answer, each field named once: the codec's (the CLI's {@code
   * --json}, the retrieval log) and the REST API's ({@code POST /v1/recall}), which calls the
   * selected records {@code records} and the rendered block {@code block}.
   */
  public enum Shape {
    /**
     * {@code selected}, {@code rendered}, {@code tokens_used}, {@code rendered_tokens}, {@code
     * trace}.
     */
    CODEC("selected", "rendered", "rendered_tokens"),
    /** {@code records}, {@code block}, {@code tokens_used}, {@code block_tokens}, {@code trace}. */
    REST("records", "block", "block_tokens");

    private final String selected;
    private final String rendered;
    private final String renderedTokens;

    Shape(String selected, String rendered, String renderedTokens) {
      this.selected = selected;
      this.rendered = rendered;
      this.renderedTokens = renderedTokens;
    }
  }

  /** A recall result in the codec's shape, with its trace when it has one. */
  public static ObjectNode write(RecallResult r) {
    return write(r, Shape.CODEC);
  }

  /** A recall result in {@code shape}, with its trace when it has one. */
  public static ObjectNode write(RecallResult r, Shape shape) {
    ObjectNode o = JsonCodec.object();
    ArrayNode sel = o.putArray(shape.selected);
    for (Recalled s : r.selected()) sel.add(recalled(s));
    o.put(shape.rendered, r.rendered());
    o.put("tokens_used", r.tokensUsed());
    o.put(shape.renderedTokens, r.renderedTokens());
    o.set("withheld", withheld(r.withheld()));
    if (r.trace() != null) o.set("trace", TraceJson.write(r.trace()));
    return o;
  }

  /**
   * What the fetch gate held back: {@code searched} (false: small talk, not looked up), {@code
   * count}, {@code best_relevance} (null when none) and the {@code min_relevance} it applied.
   */
  static ObjectNode withheld(RecallResult.Withheld w) {
    ObjectNode o = JsonCodec.object();
    o.put("searched", w.searched());
    o.put("count", w.count());
    Nodes.num(o, "best_relevance", w.bestRelevance());
    Nodes.num(o, "min_relevance", w.minRelevance());
    return o;
  }

  private static RecallResult.Withheld withheld(FieldReader w) {
    if (w == null) return RecallResult.Withheld.NONE;
    Boolean searched = w.bool("searched");
    Integer count = w.integer("count");
    Double best = w.number("best_relevance");
    Double min = w.number("min_relevance");
    return new RecallResult.Withheld(
        searched == null || searched,
        count == null ? 0 : count,
        best == null ? Double.NaN : best,
        min == null ? 0 : min);
  }

  /**
   * One selected record: the record's fields plus score, match (the fused evidence), relevance (the
   * gate's probability, null when no relevance model applied), tokens, conflicts.
   */
  public static ObjectNode recalled(Recalled s) {
    ObjectNode x = RecordJson.write(s.record(), false);
    x.put("score", round(s.score()));
    Nodes.num(x, "match", s.match());
    Nodes.num(x, "relevance", s.relevance());
    x.put("tokens", s.tokens());
    if (!s.conflictsWith().isEmpty()) {
      ArrayNode c = x.putArray("conflicts_with");
      s.conflictsWith().forEach(c::add);
    }
    return x;
  }

  /** A recall result from its codec shape (the inverse of {@link #write(RecallResult)}). */
  public static RecallResult read(JsonNode n) {
    return read(n, Shape.CODEC);
  }

  /** A recall result from {@code shape} (the inverse of {@link #write(RecallResult, Shape)}). */
  public static RecallResult read(JsonNode n, Shape shape) {
    List<Violation> v = new ArrayList<>();
    FieldReader x = Nodes.answerObject(n, "result.", "result", v);
    List<Recalled> selected = new ArrayList<>();
    for (JsonNode s : n.path(shape.selected)) selected.add(recalled(s));
    RecallTrace trace = x.has("trace") ? TraceJson.read(n.get("trace")) : null;
    FieldReader withheldReader = x.object("withheld", "an object");
    return Nodes.answer(
        "result",
        v,
        () -> {
          String rendered = x.requiredString(shape.rendered);
          Integer used = x.integer("tokens_used");
          Integer renderedTokens = x.integer(shape.renderedTokens);
          RecallResult.Withheld withheld = withheld(withheldReader);
          if (!v.isEmpty()) return null;
          return new RecallResult(
              selected,
              rendered,
              used == null ? 0 : used,
              renderedTokens == null ? 0 : renderedTokens,
              withheld,
              trace);
        });
  }

  /**
   * One selected record of a recall from its JSON form (the inverse of {@link
   * #recalled(Recalled)}).
   */
  public static Recalled recalled(JsonNode n) {
    MemoryRecord r = RecordJson.readAnswer(n);
    List<Violation> v = new ArrayList<>();
    FieldReader x = Nodes.answerObject(n, "selected record.", "selected record", v);
    return Nodes.answer(
        "selected record",
        v,
        () -> {
          Double score = x.number("score");
          Double match = x.number("match");
          Double relevance = x.number("relevance");
          Integer tokens = x.integer("tokens");
          List<String> conflicts = x.strings("conflicts_with");
          if (!v.isEmpty()) return null;
          return new Recalled(
              r,
              score == null ? Double.NaN : score,
              match == null ? Double.NaN : match,
              relevance == null ? Double.NaN : relevance,
              tokens == null ? 0 : tokens,
              conflicts);
        });
  }
}
