package dev.mnemo.json;

import static dev.mnemo.json.Nodes.putIfSet;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.Authority;
import dev.mnemo.Category;
import dev.mnemo.ConflictPolicy;
import dev.mnemo.LowerAuthority;
import dev.mnemo.NewMemory;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;

/**
 * The wire form of a memory to write ({@link NewMemory}): the body of {@code POST /v1/memories}, a
 * line of {@code ./mnemo import}, a scenario's write, an MCP {@code remember}. Reading is strict
 * (unknown fields refused, types checked, every problem at once as an {@link
 * dev.mnemo.InvalidRequestException}); absent fields keep {@link NewMemory}'s documented defaults.
 * Stateless, thread-safe.
 */
public final class MemoryJson {
  private MemoryJson() {}

  /** The fields a memory may have. */
  public static final Set<String> FIELDS =
      Set.of(
          "id",
          "owner",
          "text",
          "scope",
          "category",
          "context",
          "sources",
          "source",
          "episode",
          "seq",
          "recorded_at",
          "valid_from",
          "valid_to",
          "fact_key",
          "importance",
          "authority",
          "conflict_policy",
          "lower_authority",
          "entities",
          "metadata",
          "access");

  /**
   * A memory to write from its JSON form. {@code id} (the source event id, as in scenario files)
   * and {@code source} are added to {@code sources}. Dates are ISO-8601 instants, offset date-times
   * or plain dates (00:00 UTC).
   *
   * @param path the field path prefix for messages, e.g. {@code "line 3: "} or {@code
   *     "records[2]."}
   */
  public static NewMemory read(JsonNode n, String path) {
    FieldReader x = FieldReader.of(n, path, "memory").only(FIELDS);
    List<String> sources = new ArrayList<>();
    String id = x.text("id");
    if (id != null) sources.add(id);
    String source = x.text("source");
    if (source != null) sources.add(source);
    sources.addAll(x.strings("sources"));
    NewMemory.Builder b = NewMemory.builder(x.text("owner"), x.text("text"));
    b.scope(x.text("scope"))
        .context(x.text("context"))
        .sources(sources)
        .factKey(x.text("fact_key"))
        .recordedAt(x.instant("recorded_at"))
        .validFrom(x.instant("valid_from"))
        .validTo(x.instant("valid_to"))
        .entities(x.strings("entities"))
        .metadata(x.stringMap("metadata"))
        .access(x.strings("access"));
    Category cat = x.code("category", Category::fromCode);
    if (cat != null) b.category(cat);
    Authority auth = x.code("authority", Authority::fromCode);
    if (auth != null) b.authority(auth);
    ConflictPolicy policy = x.code("conflict_policy", ConflictPolicy::fromCode);
    if (policy != null) b.conflictPolicy(policy);
    LowerAuthority lower = x.code("lower_authority", LowerAuthority::fromCode);
    if (lower != null) b.lowerAuthority(lower);
    Double imp = x.number("importance");
    if (imp != null) b.importance(imp);
    String episode = x.text("episode");
    Integer seq = x.integer("seq");
    if (episode != null || seq != null) b.episode(episode, seq == null ? 0 : seq);
    x.throwIfAny();
    return b.build();
  }

  /**
   * A memory's JSON form for a write request (the inverse of {@link #read}); unset fields are left
   * out.
   */
  public static ObjectNode write(NewMemory m) {
    ObjectNode o = JsonCodec.object();
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
    if (!m.metadata().isEmpty()) new TreeMap<>(m.metadata()).forEach(o.putObject("metadata")::put);
    if (!m.access().isEmpty()) m.access().forEach(o.putArray("access")::add);
    return o;
  }
}
