package dev.mnemo.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.LoggedRecall;
import dev.mnemo.RecallLogQuery;
import dev.mnemo.RecallRequest;
import dev.mnemo.RecallStats;
import dev.mnemo.Replay;
import dev.mnemo.RetrievalLog;
import dev.mnemo.json.JsonCodec;
import dev.mnemo.json.RecallLogJson;
import dev.mnemo.json.RequestJson;
import dev.mnemo.json.TraceJson;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * A tenant's retrieval log over the server's {@code /v1/recalls} routes.
 *
 * <p>The search route answers one-line summaries, so {@link #recalls} reads each listed entry whole
 * (one extra request per entry, as {@link MnemoClient#ingest} reads records back); an entry
 * forgotten in between is left out. A replay on the server changes the logged request's {@code
 * threshold} and {@code weights} only: a {@code change} that alters anything else is refused here,
 * before any call.
 */
final class RemoteRetrievalLog implements RetrievalLog {
  /** Most entries the server lists per request. */
  static final int PAGE = 1_000;

  /** What a replay on the server can change. */
  private static final Set<String> REPLAYABLE = Set.of("threshold", "weights");

  private final MnemoClient client;

  RemoteRetrievalLog(MnemoClient client) {
    this.client = client;
  }

  @Override
  public List<LoggedRecall> recalls(RecallLogQuery query) {
    Objects.requireNonNull(query, "query");
    List<LoggedRecall> out = new ArrayList<>();
    int offset = query.offset();
    int left = query.limit();
    while (left > 0) {
      int limit = Math.min(PAGE, left);
      JsonNode page = client.httpGet("/v1/recalls" + params(query, offset, limit), false).json();
      JsonNode listed = page.path("recalls");
      for (JsonNode summary : listed) loggedRecall(summary.path("id").asText()).ifPresent(out::add);
      if (listed.size() < limit) break;
      offset += limit;
      left -= limit;
    }
    return out;
  }

  @Override
  public long countRecalls(RecallLogQuery query) {
    Objects.requireNonNull(query, "query");
    return client.httpGet("/v1/recalls" + params(query, 0, 1), false).json().path("total").asLong();
  }

  @Override
  public Optional<LoggedRecall> loggedRecall(String id) {
    if (id == null || id.isBlank()) return Optional.empty();
    MnemoClient.Reply r = client.httpGet("/v1/recalls/" + MnemoClient.encode(id), true);
    if (r.status() == 404) return Optional.empty();
    JsonNode n = r.json();
    return Optional.of(client.read(() -> RecallLogJson.entry(n)));
  }

  /**
   * The counts as the server sends them; injected tokens from their mean when an older server omits
   * the sum.
   */
  @Override
  public RecallStats recallStats(RecallLogQuery query) {
    Objects.requireNonNull(query, "query");
    JsonNode n = client.httpGet("/v1/recalls/stats" + params(query, -1, -1), false).json();
    long fetched = n.path("fetched").asLong();
    long injected =
        n.has("injected_tokens")
            ? n.path("injected_tokens").asLong()
            : Math.round(n.path("mean_injected_tokens").asDouble(0) * fetched);
    return new RecallStats(
        n.path("recalls").asLong(),
        fetched,
        n.path("selected").asLong(),
        n.path("used").asLong(),
        injected,
        n.path("dropped").asLong());
  }

  @Override
  public Optional<Replay> replay(String id, UnaryOperator<RecallRequest.Builder> change) {
    if (id == null || id.isBlank()) return Optional.empty();
    ObjectNode body = JsonCodec.object().put("explain", true);
    if (change != null) {
      Optional<LoggedRecall> then = loggedRecall(id);
      if (then.isEmpty()) return Optional.empty();
      RecallRequest.Builder b = then.get().request().toBuilder().explain(true).log(false);
      ObjectNode before = RequestJson.write(b.build());
      ObjectNode after =
          RequestJson.write(
              change.apply(then.get().request().toBuilder().explain(true).log(false)).build());
      for (Iterator<String> it = after.fieldNames(); it.hasNext(); ) {
        String f = it.next();
        if (!REPLAYABLE.contains(f) && !after.get(f).equals(before.get(f))) {
          throw new IllegalArgumentException(
              "a replay on the server changes threshold and weights only; this change "
                  + "also sets "
                  + f
                  + " ("
                  + before.get(f)
                  + " -> "
                  + after.get(f)
                  + ")");
        }
      }
      if (!after.path("threshold").equals(before.path("threshold")))
        body.set("threshold", after.get("threshold"));
      if (!after.path("weights").equals(before.path("weights")))
        body.set("weights", after.get("weights"));
    }
    MnemoClient.Reply r =
        client.httpPostRepeatable("/v1/recalls/" + MnemoClient.encode(id) + "/replay", body, true);
    if (r.status() == 404) return Optional.empty();
    JsonNode n = r.json();
    return Optional.of(client.read(() -> replay(n)));
  }

  /** A replay from its wire form ({@link RecallLogJson#replay}, with its trace). */
  private static Replay replay(JsonNode n) {
    List<Replay.Change> changes = new ArrayList<>();
    for (JsonNode c : n.path("changes")) {
      changes.add(
          new Replay.Change(
              c.path("id").asText(),
              c.path("outcome_then").asText(),
              c.path("outcome_now").asText(),
              number(c.get("score_then")),
              number(c.get("score_now")),
              c.hasNonNull("reason_now") ? c.get("reason_now").asText() : null));
    }
    Map<String, List<String>> engine = new LinkedHashMap<>();
    n.path("engine_changes")
        .properties()
        .forEach(e -> engine.put(e.getKey(), MnemoClient.strings(e.getValue())));
    return new Replay(
        n.path("id").asText(),
        n.path("identical").asBoolean(),
        MnemoClient.strings(n.path("selected_then")),
        MnemoClient.strings(n.path("selected_now")),
        MnemoClient.strings(n.path("added")),
        MnemoClient.strings(n.path("removed")),
        changes,
        engine,
        TraceJson.read(n.get("trace")),
        Math.round(n.path("replay_ms").asDouble() * 1e6));
  }

  private static double number(JsonNode n) {
    return n == null || n.isNull() ? Double.NaN : n.asDouble();
  }

  /** The query string of a search ({@code offset} and {@code limit} left out when negative). */
  private static String params(RecallLogQuery q, int offset, int limit) {
    StringBuilder b = new StringBuilder();
    add(b, "owner", q.owner());
    add(b, "from", q.from() == null ? null : q.from().toString());
    add(b, "to", q.to() == null ? null : q.to().toString());
    add(b, "outcome", q.outcome());
    add(b, "q", q.text());
    add(b, "record", q.record());
    if (offset >= 0) add(b, "offset", Integer.toString(offset));
    if (limit >= 0) add(b, "limit", Integer.toString(limit));
    return b.toString();
  }

  private static void add(StringBuilder b, String name, String value) {
    if (value == null) return;
    b.append(b.isEmpty() ? '?' : '&').append(name).append('=').append(MnemoClient.encode(value));
  }
}
