package dev.mnemo.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.InvalidRequestException;
import dev.mnemo.LoggedRecall;
import dev.mnemo.RecallLogQuery;
import dev.mnemo.Replay;
import dev.mnemo.RetrievalLog;
import dev.mnemo.json.FieldReader;
import dev.mnemo.json.JsonCodec;
import dev.mnemo.json.RecallLogJson;
import dev.mnemo.json.RequestJson;
import io.javalin.http.Context;
import java.time.Instant;
import java.util.Set;

/**
 * The retrieval log's routes, behind the tenant's key (the log is the tenant's, like its store):
 * {@code GET /v1/recalls} (search, newest first), {@code GET /v1/recalls/stats} (rates), {@code GET
 * /v1/recalls/{id}} (one recall whole) and {@code POST /v1/recalls/{id}/replay}. Another tenant's
 * recall ids are simply not found.
 */
final class RecallLogRoutes {
  private static final Set<String> FILTERS = Set.of("owner", "from", "to", "outcome", "record");
  private static final Set<String> REPLAY_FIELDS = Set.of("threshold", "weights", "explain");

  private RecallLogRoutes() {}

  /** {@code GET /v1/recalls?owner=&from=&to=&outcome=&q=&record=&offset=&limit=}. */
  static ObjectNode search(Context ctx, TenantMemory m) {
    RecallLogQuery q = query(ctx);
    // Counted before listing: the log's reader only moves forward, so the page never holds fewer
    // entries than the total says exist (listing first could miss a commit that the count sees).
    long total = log(m).countRecalls(q);
    var entries = log(m).recalls(q);
    ObjectNode o = JsonCodec.object();
    o.put("total", total);
    o.put("offset", q.offset());
    o.put("limit", q.limit());
    ArrayNode arr = o.putArray("recalls");
    for (LoggedRecall e : entries) arr.add(RecallLogJson.summary(e));
    return o;
  }

  /** {@code GET /v1/recalls/stats?owner=&from=&to=}: the rates of the matching recalls. */
  static ObjectNode stats(Context ctx, TenantMemory m) {
    RecallLogQuery q = query(ctx);
    return RecallLogJson.stats(log(m).recallStats(q));
  }

  /** {@code GET /v1/recalls/{id}}: the entry whole. */
  static ObjectNode get(Context ctx, TenantMemory m) {
    String id = ctx.pathParam("id");
    LoggedRecall e =
        log(m)
            .loggedRecall(id)
            .orElseThrow(() -> ProblemException.notFound("no logged recall '" + id + "'"));
    return RecallLogJson.entry(e);
  }

  /**
   * {@code POST /v1/recalls/{id}/replay}, body optional: {@code {"threshold"?, "weights"?,
   * "explain"?}} replays with those changed; {@code explain} adds the replay's trace.
   */
  static ObjectNode replay(Context ctx, TenantMemory m, JsonNode body) {
    String id = ctx.pathParam("id");
    boolean explain = false;
    Double threshold = null;
    JsonNode weights = null;
    if (body != null && !body.isNull() && !body.isMissingNode()) {
      if (!body.isObject())
        throw new InvalidRequestException(
            "body", body.toString(), "the body must be a JSON object, was " + body);
      for (var it = body.fieldNames(); it.hasNext(); ) {
        String f = it.next();
        if (!REPLAY_FIELDS.contains(f)) {
          throw new InvalidRequestException(
              f, f, "unknown field " + f + "; expected one of [explain, threshold, weights]");
        }
      }
      JsonNode x = body.get("explain");
      if (x != null && !x.isNull()) {
        if (!x.isBoolean())
          throw new InvalidRequestException(
              "explain", x.toString(), "explain must be true or false, was " + x);
        explain = x.asBoolean();
      }
      x = body.get("threshold");
      if (x != null && !x.isNull()) {
        if (!x.isNumber())
          throw new InvalidRequestException(
              "threshold", x.toString(), "threshold must be a number, was " + x);
        threshold = x.asDouble();
      }
      weights = body.get("weights");
    }
    Double t = threshold;
    JsonNode w = weights;
    Replay r =
        log(m)
            .replay(
                id,
                b -> {
                  if (t != null) b.threshold(t);
                  if (w != null && !w.isNull()) {
                    var merged =
                        ((ObjectNode) RequestJson.write(b.build()).get("weights")).deepCopy();
                    if (!w.isObject())
                      throw new InvalidRequestException(
                          "weights", w.toString(), "weights must be an object, was " + w);
                    merged.setAll((ObjectNode) w);
                    b.weights(RequestJson.weights(merged, "weights."));
                  }
                  return b;
                })
            .orElseThrow(() -> ProblemException.notFound("no logged recall '" + id + "'"));
    return RecallLogJson.replay(r, explain);
  }

  private static RecallLogQuery query(Context ctx) {
    Browse.Paging p = Browse.Paging.of(ctx, FILTERS);
    // the rules of every other door: an owner from the safe set, ids and texts of bounded length
    return RecallLogQuery.checked(
        ctx.queryParam("owner"),
        instant(ctx, "from"),
        instant(ctx, "to"),
        ctx.queryParam("outcome"),
        ctx.queryParam("q"),
        ctx.queryParam("record"),
        p.offset(),
        p.limit(),
        java.util.List.of("owner", "from", "to", "outcome", "q", "record"));
  }

  private static Instant instant(Context ctx, String name) {
    return FieldReader.parseInstantInRange(name, ctx.queryParam(name));
  }

  /** The tenant's retrieval log; a store without one (SolrCloud) answers 501, saying so. */
  private static RetrievalLog log(TenantMemory m) {
    return m.retrievalLog()
        .orElseThrow(
            () ->
                ProblemException.of(
                    501,
                    "not-implemented",
                    "Not implemented",
                    "this tenant's store keeps no retrieval log"));
  }
}
