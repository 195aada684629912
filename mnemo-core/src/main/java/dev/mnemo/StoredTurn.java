package dev.mnemo;

import java.util.Locale;
import java.util.Objects;

/**
 * A turn as the durable turn log keeps it: the turn, what the write path did with it, and its
 * position in the log.
 *
 * <p>Immutable. The turn log keeps every ingested turn (tool calls, tool results, system messages,
 * failed and partial attempts included) until the owner is forgotten or retention removes it; only
 * turns in state {@link State#PENDING} are handed to the extractor.
 *
 * @param turn the turn as ingested (its {@code at} filled with the engine's clock when it had none)
 * @param state what happened to it
 * @param seq position in the log (assigned by the log at append, increasing); 0 before append
 * @param note why it is in its state: the extraction error of an {@link State#ERROR} artifact, the
 *     reason a turn is only {@link State#KEPT}; may be null
 */
public record StoredTurn(Turn turn, State state, long seq, String note) {
  public StoredTurn {
    Objects.requireNonNull(turn, "turn");
    Objects.requireNonNull(state, "state");
  }

  /** The same turn in another state. */
  public StoredTurn with(State newState, String newNote) {
    return new StoredTurn(turn, newState, seq, newNote);
  }

  /** What the write path did with a turn. Persisted by {@link #code()}, never by ordinal. */
  public enum State {
    /** Durable and waiting for extraction. */
    PENDING,
    /** The extractor has seen it; any records it gave name it among their sources. */
    EXTRACTED,
    /**
     * Kept as a source only, never extracted: tool calls and results, system messages, failed or
     * partial attempts.
     */
    KEPT,
    /**
     * Extraction failed for good (malformed output after a retry, ...): kept as an error artifact
     * with the error as note.
     */
    ERROR;

    public String code() {
      return name().toLowerCase(Locale.ROOT);
    }

    public static State fromCode(String field, String code) {
      for (State s : values()) if (s.code().equals(code)) return s;
      throw new InvalidRequestException(
          field,
          code,
          field + " must be one of pending, extracted, kept, error, was '" + code + "'");
    }
  }
}
