package dev.mnemo.json;

import static dev.mnemo.json.Nodes.num;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.CandidateTrace;
import dev.mnemo.InvalidRequestException.Violation;
import dev.mnemo.LoggedRecall;
import dev.mnemo.RecallStats;
import dev.mnemo.Replay;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON forms of the retrieval log: a logged recall whole (what the log stores, and what {@code
 * GET /v1/recalls/{id}} returns), its one-line summary ({@code ./mnemo log --json}, {@code GET
 * /v1/recalls}), a replay and the rates.
 *
 * <p>The whole form nests the request and the trace in their wire forms ({@link RequestJson#write},
 * {@link TraceJson#write}), so a field added to either is logged with no change here; the reader is
 * tolerant of fields it does not know, so an older build reads a newer log.
 */
public final class RecallLogJson {
  private RecallLogJson() {}

  /** The whole entry. */
  public static ObjectNode entry(LoggedRecall e) {
    ObjectNode o = JsonCodec.object();
    o.put("id", e.id());
    o.put("logged_at", e.loggedAt().toString());
    o.put("owner", e.owner());
    o.set("request", RequestJson.write(e.request()));
    ArrayNode sel = o.putArray("selected");
    e.selected().forEach(sel::add);
    o.put("rendered_tokens", e.renderedTokens());
    ObjectNode eng = o.putObject("engine");
    new java.util.TreeMap<>(e.engine()).forEach(eng::put);
    if (e.storeState() != null) o.put("store_state", e.storeState());
    ObjectNode in = o.putObject("ineligible");
    e.ineligible().forEach(in::put);
    ArrayNode used = o.putArray("used");
    e.used().forEach(used::add);
    o.set("trace", TraceJson.write(e.trace()));
    return o;
  }

  /**
   * An entry from its whole form (the inverse of {@link #entry(LoggedRecall)}); Mnemo's own output,
   * so unknown fields are ignored and a field it cannot read is an {@link IllegalArgumentException}
   * ({@code "unreadable logged recall: ..."}).
   */
  public static LoggedRecall entry(JsonNode n) {
    List<Violation> v = new ArrayList<>();
    FieldReader x = Nodes.answerObject(n, "", "logged recall", v);
    return Nodes.answer(
        "logged recall",
        v,
        () -> {
          Map<String, Long> ineligible = new LinkedHashMap<>();
          JsonNode in = x.get("ineligible");
          if (in != null)
            in.properties().forEach(e -> ineligible.put(e.getKey(), e.getValue().asLong()));
          String id = x.requiredString("id");
          Instant loggedAt = x.requiredInstant("logged_at");
          Integer renderedTokens = x.integer("rendered_tokens");
          LoggedRecall e =
              new LoggedRecall(
                  id,
                  loggedAt,
                  RequestJson.read(n.get("request"), "request."),
                  TraceJson.read(n.get("trace")),
                  x.strings("selected"),
                  renderedTokens == null ? 0 : renderedTokens,
                  x.stringMap("engine"),
                  x.text("store_state"),
                  ineligible,
                  x.strings("used"));
          return v.isEmpty() ? e : null;
        });
  }

  /**
   * An entry's whole form without any mention of the records {@code ids} (forgotten): their
   * candidate lines, their ids among the selected and used and in conflict lists, and their ids in
   * other candidates' reasons (as {@code (forgotten)}). Works on the JSON, so fields this build
   * does not know are kept as they are.
   */
  public static ObjectNode without(JsonNode entry, java.util.Collection<String> ids) {
    java.util.Set<String> gone = new java.util.HashSet<>(ids);
    ObjectNode o = ((ObjectNode) entry).deepCopy();
    for (String f : List.of("selected", "used")) o.set(f, filtered(o.path(f), gone));
    JsonNode cands = o.path("trace").path("candidates");
    if (cands.isArray()) {
      ArrayNode kept = JsonCodec.array();
      for (JsonNode c : cands) {
        if (gone.contains(c.path("id").asText())) continue;
        ObjectNode x = ((ObjectNode) c).deepCopy();
        if (x.has("conflicts_with"))
          x.set("conflicts_with", filtered(x.get("conflicts_with"), gone));
        if (x.hasNonNull("reason")) {
          String reason = x.get("reason").asText();
          for (String id : gone) {
            reason =
                reason.replaceAll(
                    "(?<![\\w-])" + java.util.regex.Pattern.quote(id) + "(?![\\w-])",
                    "(forgotten)");
          }
          x.put("reason", reason);
        }
        kept.add(x);
      }
      ((ObjectNode) o.get("trace")).set("candidates", kept);
    }
    return o;
  }

  private static ArrayNode filtered(JsonNode a, java.util.Set<String> gone) {
    ArrayNode out = JsonCodec.array();
    for (JsonNode x : a) if (!gone.contains(x.asText())) out.add(x);
    return out;
  }

  /**
   * The one-line form: {@code id}, {@code logged_at}, {@code owner}, {@code text}, {@code
   * asked_at}, {@code mode}, {@code selected} (ids), {@code omitted} ({@code id}, {@code outcome},
   * {@code reason}), {@code rendered_tokens}, {@code ineligible}, {@code used}.
   */
  public static ObjectNode summary(LoggedRecall e) {
    ObjectNode o = JsonCodec.object();
    o.put("id", e.id());
    o.put("logged_at", e.loggedAt().toString());
    o.put("owner", e.owner());
    o.put("text", e.request().query());
    o.put("asked_at", e.trace().askedAt().toString());
    o.put("mode", e.trace().mode());
    ArrayNode sel = o.putArray("selected");
    e.selected().forEach(sel::add);
    ArrayNode om = o.putArray("omitted");
    for (CandidateTrace c : e.omitted()) {
      ObjectNode x = om.addObject();
      x.put("id", c.id());
      x.put("outcome", c.outcome() == null ? "unranked" : c.outcome().code());
      if (c.reason() != null) x.put("reason", c.reason());
    }
    o.put("rendered_tokens", e.renderedTokens());
    ObjectNode in = o.putObject("ineligible");
    e.ineligible().forEach(in::put);
    ArrayNode used = o.putArray("used");
    e.used().forEach(used::add);
    return o;
  }

  /**
   * A replay: {@code identical}, the selections, what changed, the engine identities that differ.
   */
  public static ObjectNode replay(Replay r, boolean withTrace) {
    ObjectNode o = JsonCodec.object();
    o.put("id", r.id());
    o.put("identical", r.identical());
    r.selectedThen().forEach(o.putArray("selected_then")::add);
    r.selectedNow().forEach(o.putArray("selected_now")::add);
    r.added().forEach(o.putArray("added")::add);
    r.removed().forEach(o.putArray("removed")::add);
    ArrayNode ch = o.putArray("changes");
    for (Replay.Change c : r.changes()) {
      ObjectNode x = ch.addObject();
      x.put("id", c.id());
      x.put("outcome_then", c.outcomeThen());
      x.put("outcome_now", c.outcomeNow());
      num(x, "score_then", c.scoreThen());
      num(x, "score_now", c.scoreNow());
      if (c.reasonNow() != null) x.put("reason_now", c.reasonNow());
    }
    ObjectNode eng = o.putObject("engine_changes");
    r.engineChanges()
        .forEach(
            (k, v) -> {
              ArrayNode a = eng.putArray(k);
              v.forEach(a::add);
            });
    o.put("replay_ms", Math.round(r.nanos() / 1e4) / 100.0);
    if (withTrace) o.set("trace", TraceJson.write(r.trace()));
    return o;
  }

  /** The rates ({@code null} where undefined, e.g. a use rate without any selected record). */
  public static ObjectNode stats(RecallStats s) {
    ObjectNode o = JsonCodec.object();
    o.put("recalls", s.recalls());
    o.put("fetched", s.fetched());
    o.put("selected", s.selected());
    o.put("used", s.used());
    o.put("dropped", s.dropped());
    o.put("injected_tokens", s.injectedTokens());
    num(o, "fetch_rate", s.fetchRate());
    num(o, "abstention_rate", s.abstentionRate());
    num(o, "mean_injected_tokens", s.meanInjectedTokens());
    num(o, "use_rate", s.useRate());
    return o;
  }
}
