package dev.mnemo.eval;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.mnemo.InvalidRequestException;
import dev.mnemo.InvalidRequestException.Violation;
import dev.mnemo.NewMemory;
import dev.mnemo.TemporalMode;
import dev.mnemo.json.BatchPath;
import dev.mnemo.json.FieldReader;
import dev.mnemo.json.JsonCodec;
import dev.mnemo.json.MemoryJson;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Reads scenario files ({@code .jsonl}, one scenario per line, format in {@code
 * docs/scenarios.md}).
 *
 * <p>Strict, because a silently ignored typo ({@code "expcet"}) would make a scenario test nothing:
 * an unknown field, a missing required field, a wrong type, an unknown mode, a repeated id or an
 * expected/forbidden id that names no write of the scenario is an {@link IllegalArgumentException}
 * whose message starts with {@code file:line:} and names every offending field of that line. Blank
 * lines are skipped. Values the engine itself checks (importance range, text length) are checked
 * when the scenario is written. Stateless, thread-safe.
 */
public final class ScenarioReader {
  private ScenarioReader() {}

  private static final Set<String> SCENARIO_FIELDS = Set.of("id", "split", "writes", "queries");

  /**
   * The WRITE fields of docs/scenarios.md; MemoryJson accepts more (context, episode...), scenarios
   * do not.
   */
  private static final Set<String> WRITE_FIELDS =
      Set.of(
          "id",
          "owner",
          "recorded_at",
          "text",
          "category",
          "fact_key",
          "valid_from",
          "valid_to",
          "importance",
          "authority",
          "scope");

  private static final Set<String> QUERY_FIELDS =
      Set.of(
          "id",
          "owner",
          "asked_at",
          "text",
          "mode",
          "at",
          "scope",
          "k",
          "budget_tokens",
          "expect",
          "forbid",
          "expect_none");
  private static final Set<String> SPLITS = Set.of("dev", "heldout");

  /** Every scenario of every file, in order; scenario ids must be unique across all of them. */
  public static List<Scenario> read(List<Path> files) {
    List<Scenario> out = new ArrayList<>();
    Map<String, String> seen = new HashMap<>();
    for (Path f : files) {
      for (Scenario s : read(f)) {
        String before = seen.putIfAbsent(s.id(), s.origin());
        if (before != null) {
          throw new IllegalArgumentException(
              s.origin()
                  + ": id '"
                  + s.id()
                  + "' repeats the scenario of "
                  + before
                  + "; scenario ids must be unique across the files of one run");
        }
        out.add(s);
      }
    }
    return out;
  }

  /** Every scenario of one file, in order. */
  public static List<Scenario> read(Path file) {
    List<Scenario> out = new ArrayList<>();
    try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      String line;
      int n = 0;
      while ((line = in.readLine()) != null) {
        n++;
        if (line.isBlank()) continue;
        out.add(parse(line, file + ":" + n));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot read scenario file " + file + ": " + e.getMessage(), e);
    }
    return out;
  }

  /**
   * One scenario from one line of JSON.
   *
   * @param origin {@code file:line}, the prefix of every error message
   */
  public static Scenario parse(String line, String origin) {
    JsonNode n;
    try {
      // A second value on a line or a repeated key is a malformed line, not something to guess
      // about.
      n = JsonCodec.STRICT_READER.readTree(line);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(origin + ": not valid JSON: " + e.getOriginalMessage(), e);
    }
    if (n == null || !n.isObject()) {
      throw new IllegalArgumentException(
          origin + ": a scenario must be a JSON object, was " + FieldReader.kind(n));
    }
    List<Violation> v = new ArrayList<>();
    FieldReader x = FieldReader.of(n, "", "scenario", v).only(SCENARIO_FIELDS);
    String id = x.requiredText("id");
    String split = x.requiredText("split");
    if (split != null && !SPLITS.contains(split))
      x.reject("split", split, "must be one of [dev, heldout], was '" + split + "'");
    List<NewMemory> writes = new ArrayList<>();
    Set<String> writeIds = new HashSet<>();
    JsonNode ws = array(x, "writes");
    if (ws != null) {
      for (int i = 0; i < ws.size(); i++) {
        String p = BatchPath.WRITES.item(i);
        NewMemory m = write(ws.get(i), p, v);
        if (m == null) continue;
        String wid = m.sources().get(0);
        if (!writeIds.add(wid))
          v.add(new Violation(p + "id", wid, p + "id '" + wid + "' repeats an earlier write id"));
        writes.add(m);
      }
    }
    List<ScenarioQuery> queries = new ArrayList<>();
    JsonNode qs = array(x, "queries");
    if (qs != null) {
      if (qs.isEmpty())
        x.reject("queries", 0, "must not be empty: a scenario without queries tests nothing");
      Set<String> queryIds = new HashSet<>();
      for (int i = 0; i < qs.size(); i++) {
        String p = "queries[" + i + "].";
        ScenarioQuery q = query(qs.get(i), p, writeIds, ws != null, v);
        if (q == null) continue;
        if (!queryIds.add(q.id()))
          v.add(
              new Violation(
                  p + "id", q.id(), p + "id '" + q.id() + "' repeats an earlier query id"));
        queries.add(q);
      }
    }
    if (!v.isEmpty()) {
      List<String> errors = new ArrayList<>();
      v.forEach(e -> errors.add(e.message()));
      throw new IllegalArgumentException(origin + ": " + String.join("; ", errors));
    }
    return new Scenario(id, split, origin, writes, queries);
  }

  /**
   * A write: only the fields of docs/scenarios.md, id, owner, recorded_at and text required; the
   * rest read as a memory.
   */
  private static NewMemory write(JsonNode w, String p, List<Violation> v) {
    FieldReader x = item(w, p, v);
    if (x == null) return null;
    int before = v.size();
    x.only(WRITE_FIELDS);
    for (String f : List.of("id", "owner", "recorded_at", "text")) x.requiredText(f);
    // The memory reader would repeat the findings above; ask it only about the rest.
    if (v.size() != before) return null;
    try {
      return MemoryJson.read(w, p);
    } catch (InvalidRequestException e) {
      v.addAll(e.violations());
      return null;
    }
  }

  private static ScenarioQuery query(
      JsonNode q, String p, Set<String> writeIds, boolean checkIds, List<Violation> v) {
    FieldReader x = item(q, p, v);
    if (x == null) return null;
    int before = v.size();
    x.only(QUERY_FIELDS);
    String id = x.requiredText("id");
    String owner = x.requiredText("owner");
    Instant askedAt = x.requiredInstant("asked_at");
    String text = x.requiredText("text");
    String modeCode = x.text("mode");
    Instant at = x.instant("at");
    TemporalMode mode = null;
    try {
      mode = TemporalMode.of(modeCode, at);
    } catch (InvalidRequestException e) {
      for (Violation e1 : e.violations())
        v.add(new Violation(p + e1.field(), e1.value(), p + e1.message()));
    }
    if (at != null && mode instanceof TemporalMode.Current) {
      x.reject(
          "at",
          at,
          "is only meaningful with mode valid_at or known_at, was given with mode current");
    }
    String scope = x.text("scope");
    Integer k = x.integer("k", 1);
    Integer budget = x.integer("budget_tokens", 0);
    List<String> expect = ids(x, "expect", writeIds, checkIds);
    List<String> forbid = ids(x, "forbid", writeIds, checkIds);
    boolean expectNone = Boolean.TRUE.equals(x.bool("expect_none"));
    if (expectNone && !expect.isEmpty()) {
      x.reject(
          "expect_none",
          true,
          "is true but expect names " + expect + "; a query expects records or nothing");
    }
    for (String f : forbid) {
      if (expect.contains(f))
        v.add(new Violation(p + "forbid", f, p + "id '" + f + "' is both expected and forbidden"));
    }
    if (v.size() != before) return null;
    return new ScenarioQuery(
        id,
        owner,
        askedAt,
        text,
        mode,
        scope,
        k == null ? ScenarioQuery.DEFAULT_K : k,
        budget == null ? ScenarioQuery.DEFAULT_BUDGET : budget,
        expect,
        forbid,
        expectNone);
  }

  /** A reader of the array item at {@code p}, or null (reported) when it is not an object. */
  private static FieldReader item(JsonNode n, String p, List<Violation> v) {
    String name = p.substring(0, p.length() - 1);
    if (n == null || !n.isObject()) {
      v.add(
          new Violation(
              name,
              FieldReader.kind(n),
              name + " must be a JSON object, was " + FieldReader.kind(n)));
      return null;
    }
    return FieldReader.of(n, p, "item", v);
  }

  /** A required array. */
  private static JsonNode array(FieldReader x, String f) {
    JsonNode a = x.get(f);
    if (a == null) {
      x.add(FieldReader.missing(x.path(f)));
      return null;
    }
    if (!a.isArray()) {
      x.reject(f, FieldReader.kind(a), "must be an array, was " + FieldReader.kind(a));
      return null;
    }
    return a;
  }

  /** Write ids, each once; when {@code check}, each must name a write of the scenario. */
  private static List<String> ids(FieldReader x, String f, Set<String> writeIds, boolean check) {
    Set<String> out = new LinkedHashSet<>();
    for (String id : x.strings(f)) {
      if (check && !writeIds.contains(id)) {
        x.reject(
            f,
            id,
            "names '"
                + id
                + "', which is no write id of this scenario; known: "
                + new TreeSet<>(writeIds));
      } else {
        out.add(id);
      }
    }
    return List.copyOf(out);
  }
}
