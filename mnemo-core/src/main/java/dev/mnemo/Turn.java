package dev.mnemo;

import java.time.Instant;
import java.util.Locale;
import java.util.Map;

/**
 * One event of a conversation, as an agent hands it to {@link Mnemo#ingest}: a user or assistant
 * message, a system message, or a tool call or tool result.
 *
 * <p>Turns are the raw material of the write path, not memories: they are kept durably beside the
 * memories (so that a record's {@link MemoryRecord#sources() sources} can be fetched back), and the
 * configured extractor decides which of them become records. Tool calls and tool results are kept
 * as their own kinds and never become memories; a {@link Status#FAILED failed} or {@link
 * Status#PARTIAL partial} generation is kept as an error artifact and becomes a memory only when
 * explicitly accepted.
 *
 * <p>Identity: {@code id} names this one event (an attempt); {@code turnId} names the logical turn,
 * so that a retry ({@code attempt} 2, 3, ...) links to its failed attempt by sharing the turn id.
 * Ingesting the same {@code id} twice is idempotent.
 *
 * @param id unique id of this event within the owner; required
 * @param owner the tenant/user id; required
 * @param episode the session (conversation) id, or null
 * @param role who produced it
 * @param speaker display name of the speaker ("Caroline", "assistant"), or null
 * @param text the content (for a tool call: the call; for a tool result: the result); required
 * @param at when it was said; null = the engine's clock at ingest
 * @param turnId the logical turn this event is an attempt at; null = {@code id}
 * @param attempt 1 for a first attempt, 2.. for retries
 * @param status whether the generation completed
 * @param metadata the caller's own string attributes
 */
public record Turn(
    String id,
    String owner,
    String episode,
    Role role,
    String speaker,
    String text,
    Instant at,
    String turnId,
    int attempt,
    Status status,
    Map<String, String> metadata) {

  public Turn {
    role = role == null ? Role.USER : role;
    status = status == null ? Status.COMPLETE : status;
    turnId = turnId == null ? id : turnId;
    metadata = metadata == null ? Map.of() : Map.copyOf(metadata);
  }

  /** A complete first attempt by {@code role}; the common case. */
  public static Turn of(
      String owner, String id, Role role, String speaker, String text, Instant at) {
    return new Turn(id, owner, null, role, speaker, text, at, id, 1, Status.COMPLETE, Map.of());
  }

  /** This turn in an episode (session). */
  public Turn inEpisode(String episodeId) {
    return new Turn(
        id, owner, episodeId, role, speaker, text, at, turnId, attempt, status, metadata);
  }

  /** Whether this turn is conversation (user, assistant or system), not a tool event. */
  public boolean isMessage() {
    return role == Role.USER || role == Role.ASSISTANT || role == Role.SYSTEM;
  }

  /** Who produced a turn. */
  public enum Role {
    USER,
    ASSISTANT,
    SYSTEM,
    TOOL_CALL,
    TOOL_RESULT;

    public String code() {
      return name().toLowerCase(Locale.ROOT);
    }

    public static Role fromCode(String field, String code) {
      for (Role r : values()) if (r.code().equals(code)) return r;
      throw new InvalidRequestException(
          field,
          code,
          field
              + " must be one of user, assistant, system, tool_call, "
              + "tool_result, was '"
              + code
              + "'");
    }
  }

  /** Whether a generation finished. */
  public enum Status {
    COMPLETE,
    PARTIAL,
    FAILED;

    public String code() {
      return name().toLowerCase(Locale.ROOT);
    }

    public static Status fromCode(String field, String code) {
      for (Status s : values()) if (s.code().equals(code)) return s;
      throw new InvalidRequestException(
          field, code, field + " must be one of complete, partial, failed, was '" + code + "'");
    }
  }
}
