package dev.mnemo.json;

import static dev.mnemo.json.Nodes.putNullable;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.Authority;
import dev.mnemo.Category;
import dev.mnemo.ConflictPolicy;
import dev.mnemo.EventTime;
import dev.mnemo.InvalidRequestException;
import dev.mnemo.InvalidRequestException.Violation;
import dev.mnemo.MemoryRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;

/**
 * The wire form of a stored record ({@link MemoryRecord}): a record in an answer of the REST
 * server, a line of {@code ./mnemo export}, a selected record of a recall.
 *
 * <p>One reader, one rule for every use. Required: {@code id}, {@code owner}, {@code text} (not
 * blank), {@code category}, {@code recorded_at}, {@code valid_from}: a record has no sensible value
 * for them. Optional, with the defaults of a new memory ({@link dev.mnemo.NewMemory}): {@code
 * importance} 0.5, {@code authority} explicit, {@code conflict_policy} supersede, {@code version}
 * 0, {@code seq} none (-1), {@code access_count} 0, lists and metadata empty, the rest null; the
 * embedding and its model as written; {@code event_time} (an object {@code from}, {@code to},
 * {@code phrase}) is written only when the record has one, and a record without it (written before
 * event times existed) reads as having none. {@link #write} writes every field, so a record read
 * back is equal to the record written; the defaults only fill in a record written by hand.
 *
 * <p>What differs is who wrote the JSON, and so what an error means:
 *
 * <ul>
 *   <li>{@link #readInput}: a caller's file ({@code ./mnemo import}). An unknown field is refused
 *       (a misspelt {@code "improtance"} would otherwise be lost quietly); problems are an {@link
 *       InvalidRequestException} naming every field with its path.
 *   <li>{@link #readAnswer}: Mnemo's own output (a server's answer). Unknown fields are ignored, so
 *       a newer server may add fields; a field that is present is still type-checked, and a problem
 *       is an {@link IllegalArgumentException} ({@code "unreadable record: ..."}): the two sides
 *       disagree about the wire form, the caller did not err.
 * </ul>
 *
 * <p>Stateless, thread-safe.
 */
public final class RecordJson {
  private RecordJson() {}

  /** The fields of a stored record. */
  public static final Set<String> FIELDS =
      Set.of(
          "id",
          "owner",
          "scope",
          "category",
          "text",
          "context",
          "sources",
          "episode",
          "seq",
          "recorded_at",
          "expired_at",
          "valid_from",
          "valid_to",
          "fact_key",
          "version",
          "origin",
          "importance",
          "authority",
          "conflict_policy",
          "entities",
          "access_count",
          "last_accessed_at",
          "embedding_model",
          "embedding",
          "metadata",
          "access",
          "event_time");

  /** The importance of a record that states none: a new memory's default. */
  public static final double DEFAULT_IMPORTANCE = 0.5;

  /** A stored record; the vector is left out unless {@code withEmbedding}. */
  public static ObjectNode write(MemoryRecord r, boolean withEmbedding) {
    ObjectNode o = JsonCodec.object();
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
    new TreeMap<>(r.metadata()).forEach(meta::put);
    if (!r.access().isEmpty()) r.access().forEach(o.putArray("access")::add);
    if (r.eventTime() != null) {
      ObjectNode e = o.putObject("event_time");
      e.put("from", r.eventTime().from().toString());
      e.put("to", r.eventTime().to().toString());
      e.put("phrase", r.eventTime().phrase());
    }
    return o;
  }

  /**
   * A record from a caller's file (the inverse of {@link #write}, for restoring an export): strict,
   * see the class comment.
   *
   * @param path the prefix of field names in messages ({@code "export.jsonl:3: "})
   */
  public static MemoryRecord readInput(JsonNode n, String path) {
    List<Violation> v = new ArrayList<>();
    MemoryRecord r = read(FieldReader.of(n, path, "record", v).only(FIELDS));
    if (!v.isEmpty()) throw new InvalidRequestException(v);
    return r;
  }

  /**
   * A record from Mnemo's own answer (the inverse of {@link #write}): tolerant of new fields, see
   * the class comment.
   */
  public static MemoryRecord readAnswer(JsonNode n) {
    List<Violation> v = new ArrayList<>();
    FieldReader x = Nodes.answerObject(n, "record.", "record", v);
    return Nodes.answer("record", v, () -> read(x));
  }

  /** The one reader; null when a violation was collected. */
  static MemoryRecord read(FieldReader x) {
    String id = x.requiredText("id");
    String owner = x.requiredText("owner");
    String text = x.requiredText("text");
    Instant recorded = x.requiredInstant("recorded_at");
    Instant from = x.requiredInstant("valid_from");
    if (!x.has("category")) x.add(FieldReader.missing(x.path("category")));
    Category category = x.code("category", Category::fromCode);
    Authority authority = x.code("authority", Authority::fromCode);
    ConflictPolicy policy = x.code("conflict_policy", ConflictPolicy::fromCode);
    Integer seq = x.integer("seq");
    Integer version = x.integer("version");
    Double importance = x.number("importance");
    Long accessCount = x.longInteger("access_count");
    float[] vector = x.floats("embedding");
    List<String> sources = x.strings("sources");
    List<String> entities = x.strings("entities");
    var meta = x.stringMap("metadata");
    List<String> access = x.strings("access");
    String scope = x.text("scope");
    String context = x.text("context");
    String episode = x.text("episode");
    Instant expired = x.instant("expired_at");
    Instant to = x.instant("valid_to");
    String factKey = x.text("fact_key");
    String origin = x.text("origin");
    Instant lastAccessed = x.instant("last_accessed_at");
    String model = x.text("embedding_model");
    EventTime event = eventTime(x);
    if (!x.violations().isEmpty()) return null;
    return new MemoryRecord(
        id,
        owner,
        scope,
        category,
        text,
        context,
        sources,
        episode,
        seq == null ? -1 : seq,
        recorded,
        expired,
        from,
        to,
        factKey,
        version == null ? 0 : version,
        origin,
        importance == null ? DEFAULT_IMPORTANCE : importance,
        authority == null ? Authority.EXPLICIT : authority,
        policy == null ? ConflictPolicy.SUPERSEDE : policy,
        entities,
        accessCount == null ? 0 : accessCount,
        lastAccessed,
        vector,
        model,
        meta,
        access,
        event);
  }

  /**
   * The optional {@code event_time} object ({@code from}, {@code to}, {@code phrase}, all required
   * inside it, so a misspelt field is reported as a missing one); absent (a record written before
   * event times): null.
   */
  private static EventTime eventTime(FieldReader x) {
    FieldReader e = x.object("event_time", "an object {from, to, phrase}");
    if (e == null) return null;
    int before = e.violations().size();
    Instant from = e.requiredInstant("from");
    Instant to = e.requiredInstant("to");
    String phrase = e.requiredString("phrase");
    if (e.violations().size() > before) return null;
    if (!to.isAfter(from)) {
      e.reject("to", to.toString(), "must be after from (" + from + ")");
      return null;
    }
    return new EventTime(from, to, phrase);
  }
}
