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

  /** A recall result, with its trace when it has one. */
  public static ObjectNode write(RecallResult r) {
    ObjectNode o = JsonCodec.object();
    ArrayNode sel = o.putArray("selected");
    for (Recalled s : r.selected()) sel.add(recalled(s));
    o.put("rendered", r.rendered());
    o.put("tokens_used", r.tokensUsed());
    o.put("rendered_tokens", r.renderedTokens());
    if (r.trace() != null) o.set("trace", TraceJson.write(r.trace()));
    return o;
  }

  /** One selected record: the record's fields plus score, relevance, tokens, conflicts. */
  public static ObjectNode recalled(Recalled s) {
    ObjectNode x = RecordJson.write(s.record(), false);
    x.put("score", round(s.score()));
    x.put("relevance", round(s.relevance()));
    x.put("tokens", s.tokens());
    if (!s.conflictsWith().isEmpty()) {
      ArrayNode c = x.putArray("conflicts_with");
      s.conflictsWith().forEach(c::add);
    }
    return x;
  }

  /** A recall result from its JSON form (the inverse of {@link #write}). */
  public static RecallResult read(JsonNode n) {
    List<Violation> v = new ArrayList<>();
    FieldReader x = Nodes.answerObject(n, "result.", "result", v);
    List<Recalled> selected = new ArrayList<>();
    for (JsonNode s : n.path("selected")) selected.add(recalled(s));
    RecallTrace trace = x.has("trace") ? TraceJson.read(n.get("trace")) : null;
    return Nodes.answer("result", v, () -> {
      String rendered = x.requiredString("rendered");
      Integer used = x.integer("tokens_used");
      Integer renderedTokens = x.integer("rendered_tokens");
      if (!v.isEmpty()) return null;
      return new RecallResult(selected, rendered, used == null ? 0 : used, renderedTokens == null ? 0 : renderedTokens, trace);
    });
  }

  /** One selected record of a recall from its JSON form (the inverse of {@link #recalled(Recalled)}). */
  public static Recalled recalled(JsonNode n) {
    MemoryRecord r = RecordJson.readAnswer(n);
    List<Violation> v = new ArrayList<>();
    FieldReader x = Nodes.answerObject(n, "selected record.", "selected record", v);
    return Nodes.answer("selected record", v, () -> {
      Double score = x.number("score");
      Double relevance = x.number("relevance");
      Integer tokens = x.integer("tokens");
      List<String> conflicts = x.strings("conflicts_with");
      if (!v.isEmpty()) return null;
      return new Recalled(r, score == null ? Double.NaN : score, relevance == null ? Double.NaN : relevance, tokens == null ? 0 : tokens, conflicts);
    });
  }
}
