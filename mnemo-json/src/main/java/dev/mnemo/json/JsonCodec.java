package dev.mnemo.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.Authority;
import dev.mnemo.CandidateTrace;
import dev.mnemo.Category;
import dev.mnemo.ConflictPolicy;
import dev.mnemo.LowerAuthority;
import dev.mnemo.Fusion;
import dev.mnemo.IngestProgress;
import dev.mnemo.IngestReceipt;
import dev.mnemo.StoredTurn;
import dev.mnemo.InvalidRequestException;
import dev.mnemo.Turn;
import dev.mnemo.InvalidRequestException.Violation;
import dev.mnemo.MemoryRecord;
import dev.mnemo.NewMemory;
import dev.mnemo.Packing;
import dev.mnemo.RecallRequest;
import dev.mnemo.RecallResult;
import dev.mnemo.RecallTrace;
import dev.mnemo.Recalled;
import dev.mnemo.Signals;
import dev.mnemo.TemporalMode;
import dev.mnemo.TimeFilter;
import dev.mnemo.Weights;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The JSON wire form of Mnemo's values, in snake_case, shared by the CLI, the evaluation and the
 * servers so that they cannot disagree. Reading is strict: an unknown field, a wrong type or a bad
 * value is an {@link InvalidRequestException} naming the field's path and the value. Stateless,
 * thread-safe.
 */
public final class JsonCodec {
  private JsonCodec() {}

  /** The shared mapper (thread-safe once configured). */
  public static final ObjectMapper MAPPER = new ObjectMapper();

  private static final Set<String> MEMORY_FIELDS = Set.of("id", "owner", "text", "scope", "category", "context",
      "sources", "source", "episode", "seq", "recorded_at", "valid_from", "valid_to", "fact_key", "importance",
      "authority", "conflict_policy", "lower_authority", "entities", "metadata", "access");

  /**
   * A memory to write from its JSON form. {@code id} (the source event id, as in scenario files) and
   * {@code source} are added to {@code sources}. Dates are ISO-8601 instants, offset date-times or
   * plain dates (00:00 UTC).
   *
   * @param path the field path prefix for messages, e.g. {@code "line 3: "} or {@code "memories[2]."}
   */
  public static NewMemory memory(JsonNode n, String path) {
    List<Violation> v = new ArrayList<>();
    if (n == null || !n.isObject()) {
      throw new InvalidRequestException(path + "memory", n == null ? null : n.getNodeType(),
          path + "memory must be a JSON object, was " + (n == null ? "null" : n.getNodeType().toString().toLowerCase(Locale.ROOT)));
    }
    unknown(n, MEMORY_FIELDS, path, v);
    List<String> sources = new ArrayList<>();
    String id = text(n, "id", path, v);
    if (id != null) sources.add(id);
    String source = text(n, "source", path, v);
    if (source != null) sources.add(source);
    sources.addAll(strings(n, "sources", path, v));
    NewMemory.Builder b = NewMemory.builder(text(n, "owner", path, v), text(n, "text", path, v));
    b.scope(text(n, "scope", path, v)).context(text(n, "context", path, v)).sources(sources)
        .factKey(text(n, "fact_key", path, v))
        .recordedAt(instant(n, "recorded_at", path, v)).validFrom(instant(n, "valid_from", path, v))
        .validTo(instant(n, "valid_to", path, v)).entities(strings(n, "entities", path, v))
        .metadata(stringMap(n, "metadata", path, v)).access(strings(n, "access", path, v));
    String cat = text(n, "category", path, v);
    if (cat != null) guard(() -> b.category(Category.fromCode(path + "category", cat)), v);
    String auth = text(n, "authority", path, v);
    if (auth != null) guard(() -> b.authority(Authority.fromCode(path + "authority", auth)), v);
    String policy = text(n, "conflict_policy", path, v);
    if (policy != null) guard(() -> b.conflictPolicy(ConflictPolicy.fromCode(path + "conflict_policy", policy)), v);
    String lower = text(n, "lower_authority", path, v);
    if (lower != null) guard(() -> b.lowerAuthority(LowerAuthority.fromCode(path + "lower_authority", lower)), v);
    Double imp = number(n, "importance", path, v);
    if (imp != null) b.importance(imp);
    String episode = text(n, "episode", path, v);
    Integer seq = integer(n, "seq", path, v);
    if (episode != null || seq != null) b.episode(episode, seq == null ? 0 : seq);
    if (!v.isEmpty()) throw new InvalidRequestException(v);
    return b.build();
  }

  private static final Set<String> TURN_FIELDS = Set.of("id", "owner", "episode", "role", "speaker", "text", "at",
      "turn_id", "attempt", "status", "metadata");

  /**
   * A conversation turn from its JSON form: {@code {id, owner, episode, role, speaker, text, at,
   * turn_id, attempt, status, metadata}}; role is one of user, assistant, system, tool_call,
   * tool_result (default user), status one of complete, partial, failed (default complete).
   */
  public static Turn turn(JsonNode n, String path) {
    List<Violation> v = new ArrayList<>();
    if (n == null || !n.isObject()) {
      throw new InvalidRequestException(path + "turn", n == null ? null : n.getNodeType(),
          path + "turn must be a JSON object, was " + (n == null ? "null" : n.getNodeType().toString().toLowerCase(Locale.ROOT)));
    }
    unknown(n, TURN_FIELDS, path, v);
    Turn.Role[] role = {null};
    String r = text(n, "role", path, v);
    if (r != null) guard(() -> role[0] = Turn.Role.fromCode(path + "role", r), v);
    Turn.Status[] status = {null};
    String st = text(n, "status", path, v);
    if (st != null) guard(() -> status[0] = Turn.Status.fromCode(path + "status", st), v);
    Integer attempt = integer(n, "attempt", path, v);
    String id = text(n, "id", path, v);
    String owner = text(n, "owner", path, v);
    String body = text(n, "text", path, v);
    // Required fields are checked here too, beside the type errors, so that one answer names every
    // problem of a batch (the engine checks them again for callers that build turns in code).
    required(n, "id", id, path, v);
    required(n, "owner", owner, path, v);
    required(n, "text", body, path, v);
    if (attempt != null && attempt < 1) {
      v.add(new Violation(path + "attempt", attempt, path + "attempt must be >= 1, was " + attempt));
    }
    Turn t = new Turn(id, owner, text(n, "episode", path, v), role[0], text(n, "speaker", path, v), body,
        instant(n, "at", path, v), text(n, "turn_id", path, v), attempt == null ? 1 : attempt, status[0],
        stringMap(n, "metadata", path, v));
    if (!v.isEmpty()) throw new InvalidRequestException(v);
    return t;
  }

  /** Adds a violation when a required text field is missing or blank (a wrong type is reported by the reader). */
  private static void required(JsonNode n, String field, String value, String path, List<Violation> v) {
    JsonNode f = n.get(field);
    boolean wrongType = f != null && !f.isNull() && !f.isTextual();
    if (!wrongType && (value == null || value.isBlank())) {
      v.add(new Violation(path + field, value, path + field + (value == null ? " is required" : " must not be blank")));
    }
  }

  /** A turn's JSON form (the inverse of {@link #turn(JsonNode, String)}). */
  public static ObjectNode turn(Turn t) {
    ObjectNode o = MAPPER.createObjectNode();
    o.put("id", t.id());
    o.put("owner", t.owner());
    putNullable(o, "episode", t.episode());
    o.put("role", t.role().code());
    putNullable(o, "speaker", t.speaker());
    o.put("text", t.text());
    putNullable(o, "at", t.at());
    o.put("turn_id", t.turnId());
    o.put("attempt", t.attempt());
    o.put("status", t.status().code());
    ObjectNode m = o.putObject("metadata");
    t.metadata().forEach(m::put);
    return o;
  }

  /**
   * A turn as the turn log keeps it: the turn's fields plus {@code state} (pending, extracted, kept,
   * error), {@code seq} and {@code note}; one line of a turns export.
   */
  public static ObjectNode storedTurn(StoredTurn t) {
    ObjectNode o = turn(t.turn());
    o.put("state", t.state().code());
    o.put("seq", t.seq());
    putNullable(o, "note", t.note());
    return o;
  }

  /**
   * A turn log entry from its JSON form (the inverse of {@link #storedTurn(StoredTurn)}); {@code state}
   * defaults to pending, {@code seq} is ignored (the importing log assigns its own).
   */
  public static StoredTurn storedTurn(JsonNode n, String path) {
    if (n == null || !n.isObject()) return new StoredTurn(turn(n, path), StoredTurn.State.PENDING, 0, null);
    ObjectNode plain = n.deepCopy();
    plain.remove(List.of("state", "seq", "note"));
    List<Violation> v = new ArrayList<>();
    String state = text(n, "state", path, v);
    String note = text(n, "note", path, v);
    StoredTurn.State[] st = {StoredTurn.State.PENDING};
    if (state != null) guard(() -> st[0] = StoredTurn.State.fromCode(path + "state", state), v);
    Turn t;
    try {
      t = turn(plain, path);
    } catch (InvalidRequestException e) {
      v.addAll(0, e.violations());
      throw new InvalidRequestException(v);
    }
    if (!v.isEmpty()) throw new InvalidRequestException(v);
    return new StoredTurn(t, st[0], 0, note);
  }

  /** Background extraction's progress: {@code {pending, extracted, kept, errors, records_written, duplicates_merged, conflicts, last_error, dead_lettered, dead_letters}}. */
  public static ObjectNode progress(IngestProgress p) {
    ObjectNode o = MAPPER.createObjectNode();
    o.put("pending", p.pending());
    o.put("extracted", p.extracted());
    o.put("kept", p.kept());
    o.put("errors", p.errors());
    o.put("records_written", p.recordsWritten());
    o.put("duplicates_merged", p.duplicatesMerged());
    o.put("conflicts", p.conflicts());
    putNullable(o, "last_error", p.lastError());
    o.put("dead_lettered", p.deadLettered());
    var dead = o.putArray("dead_letters");
    p.deadLetters().forEach(dead::add);
    return o;
  }

  /** An ingest receipt: {@code {accepted: [turn ids], duplicates: [turn ids], queued: n, records: [record ids]}}. */
  public static ObjectNode receipt(IngestReceipt r) {
    ObjectNode o = MAPPER.createObjectNode();
    r.accepted().forEach(o.putArray("accepted")::add);
    r.duplicates().forEach(o.putArray("duplicates")::add);
    o.put("queued", r.queued());
    ArrayNode recs = o.putArray("records");
    r.records().forEach(x -> recs.add(x.id()));
    return o;
  }

  private static final Set<String> REQUEST_FIELDS = Set.of("owner", "query", "text", "asked_at", "mode", "at", "scope",
      "categories", "metadata", "k", "budget_tokens", "threshold", "relative_threshold", "fusion", "packing", "time_filter", "weights",
      "mmr_lambda", "duplicate_similarity", "candidates", "explain", "half_lives", "max_ages", "focus", "min_relevance",
      "exhaustive", "principals", "block_relevance", "usage_note");
  private static final Set<String> FOCUS_FIELDS = Set.of("question", "task", "artifact", "entities");
  /** A request's fields and {@code log}, the retrieval log's switch (see {@link #logSwitch}). */
  private static final Set<String> RECALL_FIELDS = union(REQUEST_FIELDS, "log");

  private static Set<String> union(Set<String> a, String b) {
    Set<String> out = new java.util.HashSet<>(a);
    out.add(b);
    return Set.copyOf(out);
  }

  /** {@code log: false} keeps a recall out of the retrieval log. */
  private static void logSwitch(JsonNode n, String path, RecallRequest.Builder b, List<Violation> v) {
    JsonNode log = n.get("log");
    if (log == null || log.isNull()) return;
    if (log.isBoolean()) b.log(log.asBoolean());
    else v.add(new Violation(path + "log", log.toString(), path + "log must be true or false, was " + log));
  }

  /** A recall request from its JSON form ({@code query} or {@code text} holds the question). */
  public static RecallRequest request(JsonNode n, String path) {
    List<Violation> v = new ArrayList<>();
    if (n == null || !n.isObject()) {
      throw new InvalidRequestException(path + "request", null, path + "request must be a JSON object");
    }
    unknown(n, RECALL_FIELDS, path, v);
    String query = n.has("query") ? text(n, "query", path, v) : text(n, "text", path, v);
    RecallRequest.Builder b = RecallRequest.builder(text(n, "owner", path, v), query);
    b.askedAt(instant(n, "asked_at", path, v)).scope(text(n, "scope", path, v)).metadata(stringMap(n, "metadata", path, v));
    if (n.hasNonNull("principals")) b.principals(new java.util.LinkedHashSet<>(strings(n, "principals", path, v)));
    String mode = text(n, "mode", path, v);
    Instant at = instant(n, "at", path, v);
    guard(() -> b.mode(TemporalMode.of(mode, at)), v);
    List<String> cats = strings(n, "categories", path, v);
    if (!cats.isEmpty()) {
      Set<Category> set = EnumSet.noneOf(Category.class);
      for (String c : cats) guard(() -> set.add(Category.fromCode(path + "categories", c)), v);
      b.categories(set);
    }
    Integer i;
    if ((i = integer(n, "k", path, v)) != null) b.k(i);
    if ((i = integer(n, "budget_tokens", path, v)) != null) b.budgetTokens(i);
    if ((i = integer(n, "candidates", path, v)) != null) b.candidates(i);
    Double d;
    if ((d = number(n, "threshold", path, v)) != null) b.threshold(d);
    if ((d = number(n, "relative_threshold", path, v)) != null) b.relativeThreshold(d);
    if ((d = number(n, "min_relevance", path, v)) != null) b.minRelevance(d);
    if ((d = number(n, "mmr_lambda", path, v)) != null) b.mmrLambda(d);
    if ((d = number(n, "duplicate_similarity", path, v)) != null) b.duplicateSimilarity(d);
    String s;
    if ((s = text(n, "fusion", path, v)) != null) { String f = s; guard(() -> b.fusion(Fusion.of(f)), v); }
    if ((s = text(n, "packing", path, v)) != null) { String f = s; guard(() -> b.packing(Packing.fromCode(f)), v); }
    if ((s = text(n, "time_filter", path, v)) != null) { String f = s; guard(() -> b.timeFilter(TimeFilter.fromCode(f)), v); }
    JsonNode explain = n.get("explain");
    if (explain != null && !explain.isNull()) {
      if (explain.isBoolean()) b.explain(explain.asBoolean());
      else v.add(new Violation(path + "explain", explain.toString(), path + "explain must be true or false, was " + explain));
    }
    JsonNode relevance = n.get("block_relevance");
    if (relevance != null && !relevance.isNull()) {
      if (relevance.isBoolean()) b.blockRelevance(relevance.asBoolean());
      else v.add(new Violation(path + "block_relevance", relevance.toString(), path + "block_relevance must be true or false, was " + relevance));
    }
    JsonNode note = n.get("usage_note");
    if (note != null && !note.isNull()) {
      if (note.isBoolean()) b.usageNote(note.asBoolean() ? RecallRequest.USAGE_NOTE : null);
      else if (note.isTextual()) b.usageNote(note.asText());
      else v.add(new Violation(path + "usage_note", note.toString(), path + "usage_note must be a line of text, or true for the default note, was " + note));
    }
    JsonNode exhaustive = n.get("exhaustive");
    if (exhaustive != null && !exhaustive.isNull()) {
      if (exhaustive.isBoolean()) b.exhaustive(exhaustive.asBoolean());
      else v.add(new Violation(path + "exhaustive", exhaustive.toString(),
          path + "exhaustive must be true or false (or absent: on for questions that count or list), was " + exhaustive));
    }
    JsonNode hl = n.get("half_lives");
    Map<String, java.time.Duration> kindHalfLives = new java.util.TreeMap<>();
    if (hl != null && !hl.isNull()) b.halfLives(halfLives(hl, path + "half_lives", v, kindHalfLives));
    JsonNode max = n.get("max_ages");
    Map<String, java.time.Duration> maxAges = new java.util.TreeMap<>();
    if (max != null && !max.isNull()) durations(max, path + "max_ages", v, maxAges);
    if (!kindHalfLives.isEmpty() || !maxAges.isEmpty()) {
      guard(() -> b.freshness(new dev.mnemo.Freshness(kindHalfLives, maxAges)), v);
    }
    if (n.has("weights")) guard(() -> b.weights(weights(n.get("weights"), path + "weights.")), v);
    JsonNode focus = n.get("focus");
    if (focus != null && !focus.isNull()) {
      String fp = path + "focus.";
      if (!focus.isObject()) {
        v.add(new Violation(path + "focus", focus.toString(), path + "focus must be an object {question, task, artifact, entities}, was " + focus));
      } else {
        unknown(focus, FOCUS_FIELDS, fp, v);
        b.focus(new dev.mnemo.Focus(text(focus, "question", fp, v), text(focus, "task", fp, v),
            text(focus, "artifact", fp, v), strings(focus, "entities", fp, v)));
      }
    }
    logSwitch(n, path, b, v);
    if (!v.isEmpty()) throw new InvalidRequestException(v);
    try {
      return b.build();
    } catch (InvalidRequestException e) {
      throw prefixed(e, path);
    }
  }

  /**
   * Half-lives per category (a category code) or per fact kind (any other key, into {@code kinds}):
   * a number of days, or an ISO-8601 duration such as {@code "P30D"}.
   */
  private static Map<Category, java.time.Duration> halfLives(JsonNode n, String path, List<Violation> v,
      Map<String, java.time.Duration> kinds) {
    Map<Category, java.time.Duration> out = new java.util.EnumMap<>(Category.class);
    Map<String, java.time.Duration> all = new java.util.LinkedHashMap<>();
    durations(n, path, v, all);
    for (var e : all.entrySet()) {
      Category c = null;
      for (Category x : Category.values()) if (x.code().equals(e.getKey())) c = x;
      if (c != null) out.put(c, e.getValue());
      else kinds.put(e.getKey(), e.getValue());
    }
    return out;
  }

  /** An object of key -> a number of days or an ISO-8601 duration, into {@code out}. */
  private static void durations(JsonNode n, String path, List<Violation> v, Map<String, java.time.Duration> out) {
    if (!n.isObject()) {
      v.add(new Violation(path, n.toString(), path + " must be an object of category or fact kind -> days, was " + n));
      return;
    }
    for (Iterator<Map.Entry<String, JsonNode>> it = n.properties().iterator(); it.hasNext(); ) {
      var e = it.next();
      String f = path + "." + e.getKey();
      JsonNode x = e.getValue();
      try {
        if (x.isNumber()) {
          out.put(e.getKey(), java.time.Duration.ofMillis(Math.round(x.asDouble() * 86_400_000L)));
        } else if (x.isTextual()) {
          out.put(e.getKey(), java.time.Duration.parse(x.asText()));
        } else {
          v.add(new Violation(f, x.toString(), f + " must be a number of days or an ISO-8601 duration, was " + x));
        }
      } catch (java.time.format.DateTimeParseException | ArithmeticException ex) {
        v.add(new Violation(f, x.asText(), f + " must be a number of days or an ISO-8601 duration (P30D), was '"
            + x.asText() + "'"));
      }
    }
  }

  /** Weights from JSON; absent fields keep their defaults. */
  public static Weights weights(JsonNode n, String path) {
    Weights w = Weights.DEFAULT;
    if (n == null || !n.isObject()) throw new InvalidRequestException(path, null, path + " must be an object");
    for (Iterator<Map.Entry<String, JsonNode>> it = n.properties().iterator(); it.hasNext(); ) {
      var e = it.next();
      if (!e.getValue().isNumber()) {
        throw new InvalidRequestException(path + e.getKey(), e.getValue(), path + e.getKey() + " must be a number, was " + e.getValue());
      }
      double x = e.getValue().asDouble();
      w = switch (e.getKey()) {
        case "dense" -> w.withDense(x);
        case "bm25" -> w.withBm25(x);
        case "entity" -> w.withEntity(x);
        case "recency" -> w.withRecency(x);
        case "importance" -> w.withImportance(x);
        case "frequency" -> w.withFrequency(x);
        case "authority" -> w.withAuthority(x);
        case "time_match" -> w.withTimeMatch(x);
        case "window" -> w.withWindow(x);
        case "speaker" -> w.withSpeaker(x);
        case "context" -> w.withContext(x);
        case "bm25_scale" -> w.withBm25Scale(x);
        default -> throw new InvalidRequestException(path + e.getKey(), e.getKey(), "unknown field " + path + e.getKey()
            + "; expected one of [dense, window, bm25, entity, recency, importance, frequency, authority, time_match, speaker, context, bm25_scale]");
      };
    }
    return w;
  }

  /** A stored record; the vector is left out unless {@code withEmbedding}. */
  public static ObjectNode record(MemoryRecord r, boolean withEmbedding) {
    ObjectNode o = MAPPER.createObjectNode();
    o.put("id", r.id());
    o.put("owner", r.owner());
    putNullable(o, "scope", r.scope());
    o.put("category", r.category().code());
    o.put("text", r.text());
    putNullable(o, "context", r.context());
    ArrayNode src = o.putArray("sources");
    r.sources().forEach(src::add);
    putNullable(o, "episode", r.episode());
    if (r.seq() >= 0) o.put("seq", r.seq());
    o.put("recorded_at", r.recordedAt().toString());
    putNullable(o, "expired_at", r.expiredAt());
    o.put("valid_from", r.validFrom().toString());
    putNullable(o, "valid_to", r.validTo());
    putNullable(o, "fact_key", r.factKey());
    o.put("version", r.version());
    putNullable(o, "origin", r.origin());
    o.put("importance", r.importance());
    o.put("authority", r.authority().code());
    o.put("conflict_policy", r.conflictPolicy().code());
    ArrayNode ent = o.putArray("entities");
    r.entities().forEach(ent::add);
    o.put("access_count", r.accessCount());
    putNullable(o, "last_accessed_at", r.lastAccessedAt());
    putNullable(o, "embedding_model", r.embeddingModel());
    if (withEmbedding && r.embedding() != null) {
      ArrayNode vec = o.putArray("embedding");
      for (float f : r.embedding()) vec.add(f);
    }
    ObjectNode meta = o.putObject("metadata");
    new java.util.TreeMap<>(r.metadata()).forEach(meta::put);
    if (!r.access().isEmpty()) r.access().forEach(o.putArray("access")::add);
    return o;
  }

  private static final Set<String> RECORD_FIELDS = Set.of("id", "owner", "scope", "category", "text", "context",
      "sources", "episode", "seq", "recorded_at", "expired_at", "valid_from", "valid_to", "fact_key", "version",
      "origin", "importance", "authority", "conflict_policy", "entities", "access_count", "last_accessed_at",
      "embedding_model", "embedding", "metadata", "access");

  /**
   * A stored record from its JSON form (the inverse of {@link #record(MemoryRecord, boolean)}), for
   * restoring an export: every field as exported; id, owner, category, text, recorded_at and
   * valid_from required; the embedding optional.
   */
  public static MemoryRecord recordFrom(JsonNode n, String path) {
    if (n == null || !n.isObject()) {
      throw new InvalidRequestException(path + "record", n == null ? null : n.getNodeType(),
          path + "record must be a JSON object, was " + (n == null ? "null" : n.getNodeType().toString().toLowerCase(Locale.ROOT)));
    }
    List<Violation> v = new ArrayList<>();
    unknown(n, RECORD_FIELDS, path, v);
    String id = text(n, "id", path, v);
    String owner = text(n, "owner", path, v);
    String text = text(n, "text", path, v);
    Instant recorded = instant(n, "recorded_at", path, v);
    Instant from = instant(n, "valid_from", path, v);
    Map<String, Object> required = new LinkedHashMap<>();
    required.put("id", id == null || id.isBlank() ? null : id);
    required.put("owner", owner == null || owner.isBlank() ? null : owner);
    required.put("text", text == null || text.isBlank() ? null : text);
    required.put("recorded_at", recorded);
    required.put("valid_from", from);
    required.forEach((f, x) -> {
      if (x == null) v.add(new Violation(path + f, null, path + f + " is required"));
    });
    Category[] cat = {null};
    String c = text(n, "category", path, v);
    guard(() -> cat[0] = Category.fromCode(path + "category", c), v);
    Authority[] auth = {Authority.EXPLICIT};
    String a = text(n, "authority", path, v);
    if (a != null) guard(() -> auth[0] = Authority.fromCode(path + "authority", a), v);
    ConflictPolicy[] pol = {ConflictPolicy.SUPERSEDE};
    String cp = text(n, "conflict_policy", path, v);
    if (cp != null) guard(() -> pol[0] = ConflictPolicy.fromCode(path + "conflict_policy", cp), v);
    Integer seq = integer(n, "seq", path, v);
    Integer version = integer(n, "version", path, v);
    Double importance = number(n, "importance", path, v);
    Double accessCount = number(n, "access_count", path, v);
    float[] vector = null;
    JsonNode e = n.get("embedding");
    if (e != null && !e.isNull()) {
      if (!e.isArray()) {
        v.add(new Violation(path + "embedding", e.toString(), path + "embedding must be an array of numbers"));
      } else {
        vector = new float[e.size()];
        for (int i = 0; i < e.size(); i++) vector[i] = (float) e.get(i).asDouble();
      }
    }
    List<String> sources = strings(n, "sources", path, v);
    List<String> entities = strings(n, "entities", path, v);
    Map<String, String> meta = stringMap(n, "metadata", path, v);
    List<String> access = strings(n, "access", path, v);
    String scope = text(n, "scope", path, v);
    String context = text(n, "context", path, v);
    String episode = text(n, "episode", path, v);
    Instant expired = instant(n, "expired_at", path, v);
    Instant to = instant(n, "valid_to", path, v);
    String factKey = text(n, "fact_key", path, v);
    String origin = text(n, "origin", path, v);
    Instant lastAccessed = instant(n, "last_accessed_at", path, v);
    String model = text(n, "embedding_model", path, v);
    if (!v.isEmpty()) throw new InvalidRequestException(v);
    return new MemoryRecord(id, owner, scope, cat[0], text, context, sources, episode, seq == null ? -1 : seq, recorded,
        expired, from, to, factKey, version == null ? 0 : version, origin, importance == null ? 0.5 : importance,
        auth[0], pol[0], entities, accessCount == null ? 0 : accessCount.longValue(), lastAccessed, vector,
        vector == null ? null : model, meta, access);
  }

  /** A recall result, with its trace when it has one. */
  public static ObjectNode result(RecallResult r) {
    ObjectNode o = MAPPER.createObjectNode();
    ArrayNode sel = o.putArray("selected");
    for (Recalled s : r.selected()) {
      ObjectNode x = record(s.record(), false);
      x.put("score", round(s.score()));
      x.put("relevance", round(s.relevance()));
      x.put("tokens", s.tokens());
      if (!s.conflictsWith().isEmpty()) {
        ArrayNode c = x.putArray("conflicts_with");
        s.conflictsWith().forEach(c::add);
      }
      sel.add(x);
    }
    o.put("rendered", r.rendered());
    o.put("tokens_used", r.tokensUsed());
    o.put("rendered_tokens", r.renderedTokens());
    if (r.trace() != null) o.set("trace", trace(r.trace()));
    return o;
  }

  /** A trace: the resolved request, every candidate with its signals and outcome, timings. */
  public static ObjectNode trace(RecallTrace t) {
    ObjectNode o = MAPPER.createObjectNode();
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
    o.set("weights", MAPPER.valueToTree(weightsMap(t.weights())));
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
    for (CandidateTrace c : t.candidates()) {
      ObjectNode x = cands.addObject();
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
        ObjectNode fs = rel.putObject("features");
        new java.util.TreeMap<>(c.relevance().features()).forEach((k, val) -> num(fs, k, val));
        ObjectNode cs = rel.putObject("contributions");
        new java.util.TreeMap<>(c.relevance().contributions()).forEach((k, val) -> num(cs, k, val));
      }
    }
    ObjectNode timings = o.putObject("stage_ms");
    t.stageNanos().forEach((k, v) -> timings.put(k, round(v / 1e6)));
    return o;
  }

  private static ObjectNode signals(Signals s) {
    ObjectNode o = MAPPER.createObjectNode();
    num(o, "cosine", s.cosine());
    num(o, "dense", s.dense());
    num(o, "window", s.window());
    num(o, "bm25_raw", s.bm25Raw());
    num(o, "bm25", s.bm25());
    num(o, "entity", s.entity());
    num(o, "relevance", s.relevance());
    num(o, "rrf", s.rrf());
    num(o, "recency", s.recency());
    num(o, "importance", s.importance());
    num(o, "frequency", s.frequency());
    num(o, "authority", s.authority());
    num(o, "time_match", s.timeMatch());
    num(o, "speaker", s.speaker());
    num(o, "final", s.finalScore());
    return o;
  }

  private static Map<String, Double> weightsMap(Weights w) {
    Map<String, Double> m = new LinkedHashMap<>();
    m.put("dense", w.dense());
    m.put("bm25", w.bm25());
    m.put("entity", w.entity());
    m.put("recency", w.recency());
    m.put("importance", w.importance());
    m.put("frequency", w.frequency());
    m.put("authority", w.authority());
    m.put("time_match", w.timeMatch());
    m.put("window", w.window());
    m.put("speaker", w.speaker());
    m.put("context", w.context());
    m.put("bm25_scale", w.bm25Scale());
    return m;
  }

  private static void num(ObjectNode o, String k, double v) {
    if (Double.isNaN(v)) o.putNull(k);
    else o.put(k, round(v));
  }

  private static double round(double v) {
    return Math.round(v * 10_000.0) / 10_000.0;
  }

  /** Parses an ISO instant, an offset date-time or a plain date (00:00 UTC). */
  public static Instant parseInstant(String field, String s) {
    if (s == null) return null;
    String t = s.trim();
    try {
      if (t.length() == 10) return LocalDate.parse(t).atStartOfDay(ZoneOffset.UTC).toInstant();
      try {
        return Instant.parse(t);
      } catch (DateTimeParseException e) {
        return OffsetDateTime.parse(t).toInstant();
      }
    } catch (DateTimeParseException e) {
      throw new InvalidRequestException(field, s, field + " must be an ISO-8601 date (2026-03-01) or instant "
          + "(2026-03-01T10:00:00Z), was '" + s + "'");
    }
  }

  // ---- the inverse forms: what a client sends and reads back ------------------------------------
  // The readers above are strict (a request must be exactly right); the readers below read the
  // server's answers and are tolerant of fields they do not know, so that a newer server can add
  // fields without breaking an older client. A value they cannot read is an IllegalArgumentException
  // naming the field: it means the two sides disagree about the wire form, not that the caller erred.

  /** A memory's JSON form for a write request (the inverse of {@link #memory(JsonNode, String)}). */
  public static ObjectNode memory(NewMemory m) {
    ObjectNode o = MAPPER.createObjectNode();
    o.put("owner", m.owner());
    o.put("text", m.text());
    putIfSet(o, "scope", m.scope());
    if (m.category() != null) o.put("category", m.category().code());
    putIfSet(o, "context", m.context());
    if (!m.sources().isEmpty()) m.sources().forEach(o.putArray("sources")::add);
    putIfSet(o, "episode", m.episode());
    if (m.seq() != null) o.put("seq", m.seq());
    putIfSet(o, "recorded_at", m.recordedAt());
    putIfSet(o, "valid_from", m.validFrom());
    putIfSet(o, "valid_to", m.validTo());
    putIfSet(o, "fact_key", m.factKey());
    if (m.importance() != null) o.put("importance", m.importance());
    if (m.authority() != null) o.put("authority", m.authority().code());
    if (m.conflictPolicy() != null) o.put("conflict_policy", m.conflictPolicy().code());
    if (m.lowerAuthority() != null) o.put("lower_authority", m.lowerAuthority().code());
    if (!m.entities().isEmpty()) m.entities().forEach(o.putArray("entities")::add);
    if (!m.metadata().isEmpty()) new java.util.TreeMap<>(m.metadata()).forEach(o.putObject("metadata")::put);
    if (!m.access().isEmpty()) m.access().forEach(o.putArray("access")::add);
    return o;
  }

  /**
   * A recall request's JSON form (the inverse of {@link #request(JsonNode, String)}): every option,
   * so the server resolves exactly the request the caller built. RRF is sent by its code, so a
   * constant other than the default 60 does not travel.
   */
  public static ObjectNode request(RecallRequest r) {
    ObjectNode o = MAPPER.createObjectNode();
    o.put("owner", r.owner());
    o.put("query", r.query());
    putIfSet(o, "asked_at", r.askedAt());
    o.put("mode", r.mode().code());
    if (r.mode() instanceof TemporalMode.ValidAt(Instant at)) o.put("at", at.toString());
    if (r.mode() instanceof TemporalMode.KnownAt(Instant at)) o.put("at", at.toString());
    putIfSet(o, "scope", r.scope());
    if (!r.categories().isEmpty()) r.categories().stream().map(Category::code).sorted().forEach(o.putArray("categories")::add);
    if (!r.metadata().isEmpty()) new java.util.TreeMap<>(r.metadata()).forEach(o.putObject("metadata")::put);
    if (!r.principals().isEmpty()) new java.util.TreeSet<>(r.principals()).forEach(o.putArray("principals")::add);
    if (r.blockRelevance()) o.put("block_relevance", true);
    putIfSet(o, "usage_note", r.usageNote());
    o.put("k", r.k());
    o.put("budget_tokens", r.budgetTokens());
    o.put("threshold", r.threshold());
    o.put("relative_threshold", r.relativeThreshold());
    if (r.minRelevance() != null) o.put("min_relevance", r.minRelevance());
    if (r.exhaustive() != null) o.put("exhaustive", r.exhaustive());
    o.put("fusion", r.fusion().code());
    o.put("packing", r.packing().code());
    o.put("time_filter", r.timeFilter().code());
    o.set("weights", MAPPER.valueToTree(weightsMap(r.weights())));
    ObjectNode hl = o.putObject("half_lives");
    new java.util.TreeMap<>(r.halfLives()).forEach((c, d) -> hl.put(c.code(), d.toString()));
    if (r.freshness() != null) {
      r.freshness().halfLives().forEach((k, d) -> hl.put(k, d.toString()));
      if (!r.freshness().maxAges().isEmpty()) {
        ObjectNode max = o.putObject("max_ages");
        r.freshness().maxAges().forEach((k, d) -> max.put(k, d.toString()));
      }
    }
    o.put("mmr_lambda", r.mmrLambda());
    o.put("duplicate_similarity", r.duplicateSimilarity());
    o.put("candidates", r.candidates());
    o.put("explain", r.explain());
    if (!r.log()) o.put("log", false);
    if (!r.focus().isEmpty()) {
      ObjectNode f = o.putObject("focus");
      putIfSet(f, "question", r.focus().question());
      putIfSet(f, "task", r.focus().task());
      putIfSet(f, "artifact", r.focus().artifact());
      if (!r.focus().entities().isEmpty()) r.focus().entities().forEach(f.putArray("entities")::add);
    }
    return o;
  }

  /** A stored record from its JSON form (the inverse of {@link #record(MemoryRecord, boolean)}). */
  public static MemoryRecord storedRecord(JsonNode n) {
    Reader x = new Reader(n, "record");
    float[] embedding = null;
    JsonNode e = n.get("embedding");
    if (e != null && e.isArray()) {
      embedding = new float[e.size()];
      for (int i = 0; i < embedding.length; i++) embedding[i] = e.get(i).floatValue();
    }
    MemoryRecord r = x.build(() -> new MemoryRecord(x.required("id"), x.required("owner"), x.text("scope"),
        Category.fromCode("category", x.required("category")), x.required("text"), x.text("context"),
        x.strings("sources"), x.text("episode"), n.hasNonNull("seq") ? n.get("seq").asInt() : -1,
        x.instant("recorded_at"), x.instant("expired_at"), x.instant("valid_from"), x.instant("valid_to"),
        x.text("fact_key"), n.path("version").asInt(0), x.text("origin"), n.path("importance").asDouble(),
        Authority.fromCode("authority", x.required("authority")),
        ConflictPolicy.fromCode("conflict_policy", x.required("conflict_policy")), x.strings("entities"),
        n.path("access_count").asLong(0), x.instant("last_accessed_at"), null, x.text("embedding_model"),
        x.stringMap("metadata"), x.strings("access")));
    return embedding == null ? r : new MemoryRecord(r.id(), r.owner(), r.scope(), r.category(), r.text(), r.context(),
        r.sources(), r.episode(), r.seq(), r.recordedAt(), r.expiredAt(), r.validFrom(), r.validTo(), r.factKey(),
        r.version(), r.origin(), r.importance(), r.authority(), r.conflictPolicy(), r.entities(), r.accessCount(),
        r.lastAccessedAt(), embedding, r.embeddingModel(), r.metadata(), r.access());
  }

  /** One selected record of a recall: a stored record's fields plus score, relevance, tokens, conflicts. */
  public static Recalled recalled(JsonNode n) {
    Reader x = new Reader(n, "selected record");
    MemoryRecord r = storedRecord(n);
    return x.build(() -> new Recalled(r, x.number("score"), x.number("relevance"), n.path("tokens").asInt(),
        x.strings("conflicts_with")));
  }

  /** A recall result from its JSON form (the inverse of {@link #result(RecallResult)}). */
  public static RecallResult result(JsonNode n) {
    Reader x = new Reader(n, "result");
    List<Recalled> selected = new ArrayList<>();
    for (JsonNode s : n.path("selected")) selected.add(recalled(s));
    RecallTrace trace = n.hasNonNull("trace") ? trace(n.get("trace")) : null;
    return x.build(() -> new RecallResult(selected, x.required("rendered"), n.path("tokens_used").asInt(),
        n.path("rendered_tokens").asInt(), trace));
  }

  /**
   * A trace from its JSON form (the inverse of {@link #trace(RecallTrace)}). Signals and timings
   * come back as the wire rounds them (4 decimals; stage times in milliseconds).
   */
  public static RecallTrace trace(JsonNode n) {
    Reader x = new Reader(n, "trace");
    dev.mnemo.time.TimeRange range = null;
    JsonNode tr = n.get("time_range");
    if (tr != null && tr.isObject()) {
      Reader t = new Reader(tr, "trace.time_range");
      range = t.build(() -> new dev.mnemo.time.TimeRange(t.instant("from"), t.instant("to"), t.required("expression")));
    }
    List<CandidateTrace> candidates = new ArrayList<>();
    int i = 0;
    for (JsonNode c : n.path("candidates")) {
      Reader y = new Reader(c, "trace.candidates[" + i++ + "]");
      candidates.add(y.build(() -> new CandidateTrace(y.required("id"), y.strings("sources"), y.required("text"),
          y.text("fact_key"), y.instant("valid_from"), y.instant("valid_to"), y.instant("recorded_at"),
          new java.util.LinkedHashSet<>(y.strings("found_by")), signals(c.path("signals")), outcome(y.text("outcome")),
          y.text("reason"), c.path("tokens").asInt(), y.strings("conflicts_with"), relevanceTrace(c.get("relevance")))));
    }
    Map<String, Long> stages = new LinkedHashMap<>();
    n.path("stage_ms").properties().forEach(e -> stages.put(e.getKey(), Math.round(e.getValue().asDouble() * 1e6)));
    dev.mnemo.time.TimeRange timeRange = range;
    return x.build(() -> new RecallTrace(x.required("owner"), x.required("query"), x.instant("asked_at"),
        x.required("mode"), x.instant("valid_time"), x.instant("known_time"), timeRange, x.strings("query_entities"),
        x.number("dense_floor"), x.required("fusion"), x.required("packing"), n.path("k").asInt(),
        n.path("budget_tokens").asInt(), n.path("threshold").asDouble(),
        n.hasNonNull("weights") ? weights(n.get("weights"), "trace.weights.") : Weights.DEFAULT, x.required("tokenizer"),
        x.text("embedding_model"), candidates, n.path("tokens_used").asInt(), n.path("block_tokens").asInt(), stages,
        gate(n.get("gate"))));
  }

  private static RecallTrace.Gate gate(JsonNode g) {
    if (g == null || !g.isObject()) return null;
    Reader x = new Reader(g, "trace.gate");
    return x.build(() -> new RecallTrace.Gate(x.required("fetch"), x.text("reason"), x.number("min_relevance"),
        g.path("exhaustive").asBoolean(), x.text("model")));
  }

  private static dev.mnemo.RelevanceTrace relevanceTrace(JsonNode r) {
    if (r == null || !r.isObject()) return null;
    Map<String, Double> features = new LinkedHashMap<>();
    r.path("features").properties().forEach(e -> features.put(e.getKey(), e.getValue().asDouble()));
    Map<String, Double> contributions = new LinkedHashMap<>();
    r.path("contributions").properties().forEach(e -> contributions.put(e.getKey(), e.getValue().asDouble()));
    return new dev.mnemo.RelevanceTrace(r.path("probability").asDouble(), features, contributions);
  }

  private static Signals signals(JsonNode n) {
    Reader x = new Reader(n, "signals");
    return new Signals(x.number("cosine"), x.number("dense"), x.number("window"), x.number("bm25_raw"), x.number("bm25"),
        x.number("entity"), x.number("relevance"), x.number("rrf"), x.number("recency"), x.number("importance"),
        x.number("frequency"), x.number("authority"), x.number("time_match"), x.number("speaker"), x.number("final"));
  }

  private static dev.mnemo.Outcome outcome(String code) {
    if (code == null || code.equals("unranked")) return null;
    for (dev.mnemo.Outcome o : dev.mnemo.Outcome.values()) if (o.code().equals(code)) return o;
    throw new IllegalArgumentException("outcome must be one of selected, below_threshold, beyond_k, over_budget, "
        + "duplicate, unranked, was '" + code + "'");
  }

  /** Reads one object of a server's answer; problems are collected and reported together by {@link #build}. */
  private static final class Reader {
    private final JsonNode n;
    private final String what;
    private final List<Violation> v = new ArrayList<>();

    Reader(JsonNode n, String what) {
      if (n == null || !n.isObject()) {
        throw new IllegalArgumentException(what + " must be a JSON object, was " + (n == null ? "missing" : n));
      }
      this.n = n;
      this.what = what;
    }

    String text(String f) { return JsonCodec.text(n, f, what + ".", v); }

    String required(String f) {
      String s = text(f);
      if (s == null && (n.get(f) == null || n.get(f).isNull())) v.add(new Violation(what + "." + f, null, what + "." + f + " is missing"));
      return s;
    }

    Instant instant(String f) { return JsonCodec.instant(n, f, what + ".", v); }

    double number(String f) {
      Double d = JsonCodec.number(n, f, what + ".", v);
      return d == null ? Double.NaN : d;
    }

    List<String> strings(String f) { return JsonCodec.strings(n, f, what + ".", v); }

    Map<String, String> stringMap(String f) { return JsonCodec.stringMap(n, f, what + ".", v); }

    /** Builds the value, or reports every unreadable field at once. */
    <T> T build(java.util.function.Supplier<T> make) {
      T out = null;
      RuntimeException failure = null;
      try {
        out = make.get();
      } catch (RuntimeException e) {
        failure = e;
      }
      if (v.isEmpty() && failure == null) return out;
      StringBuilder sb = new StringBuilder("unreadable ").append(what).append(": ");
      v.forEach(x -> sb.append(x.message()).append("; "));
      if (failure != null && v.isEmpty()) sb.append(failure.getMessage());
      throw new IllegalArgumentException(sb.toString().replaceAll("; $", ""), failure);
    }
  }

  private static void putIfSet(ObjectNode o, String k, Object v) {
    if (v != null) o.put(k, v.toString());
  }

  // ---- strict field readers -------------------------------------------------------------------

  private static void unknown(JsonNode n, Set<String> allowed, String path, List<Violation> v) {
    for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
      String f = it.next();
      if (!allowed.contains(f)) {
        v.add(new Violation(path + f, f, "unknown field " + path + f + "; expected one of " + new java.util.TreeSet<>(allowed)));
      }
    }
  }

  private static String text(JsonNode n, String f, String path, List<Violation> v) {
    JsonNode x = n.get(f);
    if (x == null || x.isNull()) return null;
    if (!x.isTextual()) {
      v.add(new Violation(path + f, x.toString(), path + f + " must be a string, was " + x));
      return null;
    }
    return x.asText();
  }

  private static Double number(JsonNode n, String f, String path, List<Violation> v) {
    JsonNode x = n.get(f);
    if (x == null || x.isNull()) return null;
    if (!x.isNumber()) {
      v.add(new Violation(path + f, x.toString(), path + f + " must be a number, was " + x));
      return null;
    }
    return x.asDouble();
  }

  private static Integer integer(JsonNode n, String f, String path, List<Violation> v) {
    JsonNode x = n.get(f);
    if (x == null || x.isNull()) return null;
    if (!x.isNumber() || !x.canConvertToExactIntegral() || !x.canConvertToInt()) {
      v.add(new Violation(path + f, x.toString(), path + f + " must be a whole number, was " + x));
      return null;
    }
    return x.intValue();
  }

  private static Instant instant(JsonNode n, String f, String path, List<Violation> v) {
    String s = text(n, f, path, v);
    if (s == null) return null;
    try {
      return parseInstant(path + f, s);
    } catch (InvalidRequestException e) {
      v.addAll(e.violations());
      return null;
    }
  }

  private static List<String> strings(JsonNode n, String f, String path, List<Violation> v) {
    JsonNode x = n.get(f);
    if (x == null || x.isNull()) return List.of();
    if (!x.isArray()) {
      v.add(new Violation(path + f, x.toString(), path + f + " must be an array of strings, was " + x));
      return List.of();
    }
    List<String> out = new ArrayList<>();
    for (JsonNode e : x) {
      if (!e.isTextual()) {
        v.add(new Violation(path + f, e.toString(), path + f + " must contain only strings, had " + e));
      } else {
        out.add(e.asText());
      }
    }
    return out;
  }

  private static Map<String, String> stringMap(JsonNode n, String f, String path, List<Violation> v) {
    JsonNode x = n.get(f);
    if (x == null || x.isNull()) return Map.of();
    if (!x.isObject()) {
      v.add(new Violation(path + f, x.toString(), path + f + " must be an object of strings, was " + x));
      return Map.of();
    }
    Map<String, String> out = new LinkedHashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = x.properties().iterator(); it.hasNext(); ) {
      var e = it.next();
      if (!e.getValue().isTextual()) {
        v.add(new Violation(path + f + "." + e.getKey(), e.getValue().toString(),
            path + f + "." + e.getKey() + " must be a string, was " + e.getValue()));
      } else {
        out.put(e.getKey(), e.getValue().asText());
      }
    }
    return out;
  }

  private static void guard(Runnable r, List<Violation> v) {
    try {
      r.run();
    } catch (InvalidRequestException e) {
      v.addAll(e.violations());
    }
  }

  private static InvalidRequestException prefixed(InvalidRequestException e, String path) {
    if (path.isEmpty()) return e;
    List<Violation> out = new ArrayList<>();
    for (Violation x : e.violations()) out.add(new Violation(path + x.field(), x.value(), path + x.message()));
    return new InvalidRequestException(out);
  }

  private static void putNullable(ObjectNode o, String k, Object v) {
    if (v == null) o.putNull(k);
    else o.put(k, v.toString());
  }
}
