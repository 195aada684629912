package dev.mnemo.json;

import static dev.mnemo.json.Nodes.putNullable;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.InvalidRequestException.Violation;
import dev.mnemo.StoredTurn;
import dev.mnemo.Turn;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The wire form of a conversation turn ({@link Turn}, {@code POST /v1/ingest}) and of a turn log
 * entry ({@link StoredTurn}, a line of a turns export). Reading is strict: unknown fields refused,
 * {@code id}, {@code owner} and {@code text} required and not blank, every problem at once as an
 * {@link dev.mnemo.InvalidRequestException}. Stateless, thread-safe.
 */
public final class TurnJson {
  private TurnJson() {}

  /** The fields a turn may have. */
  public static final Set<String> FIELDS =
      Set.of(
          "id",
          "owner",
          "episode",
          "role",
          "speaker",
          "text",
          "at",
          "turn_id",
          "attempt",
          "status",
          "metadata");

  /** The fields a turn log entry adds to a turn's. */
  private static final List<String> STORED_FIELDS = List.of("state", "seq", "note");

  /**
   * A conversation turn from its JSON form: {@code {id, owner, episode, role, speaker, text, at,
   * turn_id, attempt, status, metadata}}; role is one of user, assistant, system, tool_call,
   * tool_result (default user), status one of complete, partial, failed (default complete), attempt
   * a whole number >= 1 (default 1).
   */
  public static Turn read(JsonNode n, String path) {
    List<Violation> v = new ArrayList<>();
    Turn t = read(FieldReader.of(n, path, "turn", v).only(FIELDS));
    if (!v.isEmpty()) throw new dev.mnemo.InvalidRequestException(v);
    return t;
  }

  private static Turn read(FieldReader x) {
    Turn.Role role = x.code("role", Turn.Role::fromCode);
    Turn.Status status = x.code("status", Turn.Status::fromCode);
    Integer attempt = x.integer("attempt");
    // Required fields are checked here too, beside the type errors, so that one answer names every
    // problem of a batch (the engine checks them again for callers that build turns in code).
    String id = x.requiredText("id");
    String owner = x.requiredText("owner");
    String body = x.requiredText("text");
    if (attempt != null && attempt < 1)
      x.reject("attempt", attempt, "must be >= 1, was " + attempt);
    String episode = x.text("episode");
    String speaker = x.text("speaker");
    var at = x.instant("at");
    String turnId = x.text("turn_id");
    var metadata = x.stringMap("metadata");
    if (!x.violations().isEmpty()) return null;
    return new Turn(
        id,
        owner,
        episode,
        role,
        speaker,
        body,
        at,
        turnId,
        attempt == null ? 1 : attempt,
        status,
        metadata);
  }

  /** A turn's JSON form (the inverse of {@link #read}). */
  public static ObjectNode write(Turn t) {
    ObjectNode o = JsonCodec.object();
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
   * A turn as the turn log keeps it: the turn's fields plus {@code state} (pending, extracted,
   * kept, error), {@code seq} and {@code note}; one line of a turns export.
   */
  public static ObjectNode writeStored(StoredTurn t) {
    ObjectNode o = write(t.turn());
    o.put("state", t.state().code());
    o.put("seq", t.seq());
    putNullable(o, "note", t.note());
    return o;
  }

  /**
   * A turn log entry from its JSON form (the inverse of {@link #writeStored}); {@code state}
   * defaults to pending, {@code seq} is checked but ignored (the importing log assigns its own).
   */
  public static StoredTurn readStored(JsonNode n, String path) {
    List<Violation> v = new ArrayList<>();
    List<String> allowed = new ArrayList<>(FIELDS);
    allowed.addAll(STORED_FIELDS);
    FieldReader x = FieldReader.of(n, path, "turn", v).only(allowed);
    StoredTurn.State state = x.code("state", StoredTurn.State::fromCode);
    String note = x.text("note");
    x.longInteger("seq");
    Turn t = read(x);
    if (!v.isEmpty()) throw new dev.mnemo.InvalidRequestException(v);
    return new StoredTurn(t, state == null ? StoredTurn.State.PENDING : state, 0, note);
  }
}
