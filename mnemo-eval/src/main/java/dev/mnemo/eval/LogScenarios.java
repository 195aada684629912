package dev.mnemo.eval;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.CandidateTrace;
import dev.mnemo.LoggedRecall;
import dev.mnemo.MemoryRecord;
import dev.mnemo.RecallRequest;
import dev.mnemo.TemporalMode;
import dev.mnemo.json.JsonCodec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Logged recalls as scenarios ({@code SCENARIOS.md}, read by {@link ScenarioReader}): one scenario
 * per recall, whose writes are the records the recall saw (its candidates, oldest recorded first)
 * and whose one query is the logged request, expecting what was selected then ({@code expect_none}
 * when nothing was). A team edits {@code expect} and {@code forbid} to what should have been
 * selected and keeps the file as a regression test for {@code eval scenarios}.
 *
 * <p>A write's id is the record's first source event id (the id a scenario's expectations name), or
 * the record id when it has none. Fields a trace does not carry (category, importance, authority,
 * scope) come from the store when the record is still there, else keep their defaults.
 */
public final class LogScenarios {
  private LogScenarios() {}

  /** The scenario of one logged recall; {@code lookup} finds a record still in the store by id. */
  public static ObjectNode scenario(
      LoggedRecall e, Function<String, Optional<MemoryRecord>> lookup) {
    ObjectNode s = JsonCodec.object();
    s.put("id", "log-" + e.id());
    s.put("split", "dev");
    List<CandidateTrace> seen = new ArrayList<>(e.trace().candidates());
    seen.sort(Comparator.comparing(CandidateTrace::recordedAt).thenComparing(CandidateTrace::id));
    Map<String, String> writeId = new LinkedHashMap<>();
    Set<String> used = new HashSet<>();
    ArrayNode writes = s.putArray("writes");
    for (CandidateTrace c : seen) {
      String wid = c.sources().isEmpty() ? c.id() : c.sources().get(0);
      if (!used.add(wid)) wid = c.id();
      writeId.put(c.id(), wid);
      ObjectNode w = writes.addObject();
      w.put("id", wid);
      w.put("owner", e.owner());
      w.put("recorded_at", c.recordedAt().toString());
      w.put("text", c.text());
      w.put("valid_from", c.validFrom().toString());
      if (c.validTo() != null) w.put("valid_to", c.validTo().toString());
      if (c.factKey() != null) w.put("fact_key", c.factKey());
      lookup
          .apply(c.id())
          .ifPresent(
              r -> {
                w.put("category", r.category().code());
                w.put("importance", r.importance());
                w.put("authority", r.authority().code());
                if (r.scope() != null) w.put("scope", r.scope());
              });
    }
    RecallRequest r = e.request();
    ObjectNode q = s.putArray("queries").addObject();
    q.put("id", "q-" + e.id());
    q.put("owner", e.owner());
    q.put("asked_at", e.trace().askedAt().toString());
    q.put("text", r.query());
    q.put("mode", r.mode().code());
    if (r.mode() instanceof TemporalMode.ValidAt(Instant at)) q.put("at", at.toString());
    if (r.mode() instanceof TemporalMode.KnownAt(Instant at)) q.put("at", at.toString());
    if (r.scope() != null) q.put("scope", r.scope());
    q.put("k", r.k());
    q.put("budget_tokens", r.budgetTokens());
    if (e.selected().isEmpty()) {
      q.put("expect_none", true);
    } else {
      ArrayNode expect = q.putArray("expect");
      for (String id : e.selected()) if (writeId.containsKey(id)) expect.add(writeId.get(id));
    }
    return s;
  }
}
