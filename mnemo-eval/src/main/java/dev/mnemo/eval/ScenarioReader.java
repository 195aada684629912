package dev.mnemo.eval;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import dev.mnemo.InvalidRequestException;
import dev.mnemo.NewMemory;
import dev.mnemo.TemporalMode;
import dev.mnemo.json.JsonCodec;
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
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Reads scenario files ({@code .jsonl}, one scenario per line, format in {@code docs/scenarios.md}).
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
  /** The WRITE fields of docs/scenarios.md; JsonCodec accepts more (context, episode...), scenarios do not. */
  private static final Set<String> WRITE_FIELDS = Set.of("id", "owner", "recorded_at", "text", "category",
      "fact_key", "valid_from", "valid_to", "importance", "authority", "scope");
  private static final Set<String> QUERY_FIELDS = Set.of("id", "owner", "asked_at", "text", "mode", "at", "scope",
      "k", "budget_tokens", "expect", "forbid", "expect_none");
  private static final Set<String> SPLITS = Set.of("dev", "heldout");

  // A second value on a line or a repeated key is a malformed line, not something to guess about.
  private static final ObjectReader READER = JsonCodec.MAPPER.reader()
      .with(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
      .with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  /** Every scenario of every file, in order; scenario ids must be unique across all of them. */
  public static List<Scenario> read(List<Path> files) {
    List<Scenario> out = new ArrayList<>();
    Map<String, String> seen = new HashMap<>();
    for (Path f : files) {
      for (Scenario s : read(f)) {
        String before = seen.putIfAbsent(s.id(), s.origin());
        if (before != null) {
          throw new IllegalArgumentException(s.origin() + ": id '" + s.id() + "' repeats the scenario of " + before
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
      throw new UncheckedIOException("cannot read scenario file " + file + ": " + e.getMessage(), e);
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
      n = READER.readTree(line);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(origin + ": not valid JSON: " + e.getOriginalMessage(), e);
    }
    List<String> errors = new ArrayList<>();
    if (n == null || !n.isObject()) {
      throw new IllegalArgumentException(origin + ": a scenario must be a JSON object, was " + kind(n));
    }
    unknown(n, SCENARIO_FIELDS, "", errors);
    String id = requiredText(n, "id", "", errors);
    String split = requiredText(n, "split", "", errors);
    if (split != null && !SPLITS.contains(split)) {
      errors.add("split must be one of [dev, heldout], was '" + split + "'");
    }
    List<NewMemory> writes = new ArrayList<>();
    Set<String> writeIds = new HashSet<>();
    JsonNode ws = array(n, "writes", "", errors);
    if (ws != null) {
      for (int i = 0; i < ws.size(); i++) {
        NewMemory m = write(ws.get(i), "writes[" + i + "].", errors);
        if (m == null) continue;
        String wid = m.sources().get(0);
        if (!writeIds.add(wid)) errors.add("writes[" + i + "].id '" + wid + "' repeats an earlier write id");
        writes.add(m);
      }
    }
    List<ScenarioQuery> queries = new ArrayList<>();
    JsonNode qs = array(n, "queries", "", errors);
    if (qs != null) {
      if (qs.isEmpty()) errors.add("queries must not be empty: a scenario without queries tests nothing");
      Set<String> queryIds = new HashSet<>();
      for (int i = 0; i < qs.size(); i++) {
        ScenarioQuery q = query(qs.get(i), "queries[" + i + "].", writeIds, ws != null, errors);
        if (q == null) continue;
        if (!queryIds.add(q.id())) errors.add("queries[" + i + "].id '" + q.id() + "' repeats an earlier query id");
        queries.add(q);
      }
    }
    if (!errors.isEmpty()) {
      throw new IllegalArgumentException(origin + ": " + String.join("; ", errors));
    }
    return new Scenario(id, split, origin, writes, queries);
  }

  private static NewMemory write(JsonNode w, String p, List<String> errors) {
    if (w == null || !w.isObject()) {
      errors.add(p.substring(0, p.length() - 1) + " must be a JSON object, was " + kind(w));
      return null;
    }
    int before = errors.size();
    unknown(w, WRITE_FIELDS, p, errors);
    for (String f : List.of("id", "owner", "recorded_at", "text")) requiredText(w, f, p, errors);
    // JsonCodec would repeat the findings above in its own words; ask it only about the rest.
    if (errors.size() != before) return null;
    try {
      return JsonCodec.memory(w, p);
    } catch (InvalidRequestException e) {
      for (InvalidRequestException.Violation v : e.violations()) errors.add(v.message());
      return null;
    }
  }

  private static ScenarioQuery query(JsonNode q, String p, Set<String> writeIds, boolean checkIds,
      List<String> errors) {
    if (q == null || !q.isObject()) {
      errors.add(p.substring(0, p.length() - 1) + " must be a JSON object, was " + kind(q));
      return null;
    }
    int before = errors.size();
    unknown(q, QUERY_FIELDS, p, errors);
    String id = requiredText(q, "id", p, errors);
    String owner = requiredText(q, "owner", p, errors);
    Instant askedAt = instant(q, "asked_at", p, true, errors);
    String text = requiredText(q, "text", p, errors);
    String modeCode = optionalText(q, "mode", p, errors);
    Instant at = instant(q, "at", p, false, errors);
    TemporalMode mode = null;
    try {
      mode = TemporalMode.of(modeCode, at);
    } catch (InvalidRequestException e) {
      errors.add(p + e.getMessage());
    }
    if (at != null && mode instanceof TemporalMode.Current) {
      errors.add(p + "at is only meaningful with mode valid_at or known_at, was given with mode current");
    }
    String scope = optionalText(q, "scope", p, errors);
    int k = integer(q, "k", p, ScenarioQuery.DEFAULT_K, 1, errors);
    int budget = integer(q, "budget_tokens", p, ScenarioQuery.DEFAULT_BUDGET, 0, errors);
    List<String> expect = ids(q, "expect", p, writeIds, checkIds, errors);
    List<String> forbid = ids(q, "forbid", p, writeIds, checkIds, errors);
    boolean expectNone = false;
    JsonNode en = q.get("expect_none");
    if (en != null && !en.isNull()) {
      if (!en.isBoolean()) errors.add(p + "expect_none must be true or false, was " + en);
      else expectNone = en.booleanValue();
    }
    if (expectNone && !expect.isEmpty()) {
      errors.add(p + "expect_none is true but expect names " + expect + "; a query expects records or nothing");
    }
    for (String f : forbid) {
      if (expect.contains(f)) errors.add(p + "id '" + f + "' is both expected and forbidden");
    }
    if (errors.size() != before) return null;
    return new ScenarioQuery(id, owner, askedAt, text, mode, scope, k, budget, expect, forbid, expectNone);
  }

  // ---- strict field readers --------------------------------------------------------------------

  private static void unknown(JsonNode n, Set<String> allowed, String p, List<String> errors) {
    for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
      String f = it.next();
      if (!allowed.contains(f)) {
        errors.add("unknown field " + p + f + "; expected one of " + new TreeSet<>(allowed));
      }
    }
  }

  private static String requiredText(JsonNode n, String f, String p, List<String> errors) {
    JsonNode x = n.get(f);
    if (x == null || x.isNull()) {
      errors.add(p + f + " is required");
      return null;
    }
    if (!x.isTextual() || x.asText().isBlank()) {
      errors.add(p + f + " must be a non-empty string, was " + x);
      return null;
    }
    return x.asText();
  }

  private static String optionalText(JsonNode n, String f, String p, List<String> errors) {
    JsonNode x = n.get(f);
    if (x == null || x.isNull()) return null;
    if (!x.isTextual()) {
      errors.add(p + f + " must be a string, was " + x);
      return null;
    }
    return x.asText();
  }

  private static Instant instant(JsonNode n, String f, String p, boolean required, List<String> errors) {
    String s = required ? requiredText(n, f, p, errors) : optionalText(n, f, p, errors);
    if (s == null) return null;
    try {
      return JsonCodec.parseInstant(p + f, s);
    } catch (InvalidRequestException e) {
      errors.add(e.getMessage());
      return null;
    }
  }

  private static int integer(JsonNode n, String f, String p, int fallback, int min, List<String> errors) {
    JsonNode x = n.get(f);
    if (x == null || x.isNull()) return fallback;
    if (!x.isIntegralNumber() || !x.canConvertToInt() || x.intValue() < min) {
      errors.add(p + f + " must be a whole number >= " + min + ", was " + x);
      return fallback;
    }
    return x.intValue();
  }

  private static JsonNode array(JsonNode n, String f, String p, List<String> errors) {
    JsonNode x = n.get(f);
    if (x == null || x.isNull()) {
      errors.add(p + f + " is required");
      return null;
    }
    if (!x.isArray()) {
      errors.add(p + f + " must be an array, was " + x.getNodeType().toString().toLowerCase(java.util.Locale.ROOT));
      return null;
    }
    return x;
  }

  private static List<String> ids(JsonNode n, String f, String p, Set<String> writeIds, boolean check,
      List<String> errors) {
    JsonNode x = n.get(f);
    if (x == null || x.isNull()) return List.of();
    if (!x.isArray()) {
      errors.add(p + f + " must be an array of write ids, was " + x);
      return List.of();
    }
    Map<String, Boolean> out = new LinkedHashMap<>();
    for (JsonNode e : x) {
      if (!e.isTextual()) {
        errors.add(p + f + " must contain only strings, had " + e);
      } else if (check && !writeIds.contains(e.asText())) {
        errors.add(p + f + " names '" + e.asText() + "', which is no write id of this scenario; known: "
            + new TreeSet<>(writeIds));
      } else {
        out.put(e.asText(), true);
      }
    }
    return List.copyOf(out.keySet());
  }

  private static String kind(JsonNode n) {
    return n == null ? "nothing" : n.getNodeType().toString().toLowerCase(java.util.Locale.ROOT);
  }
}
