package dev.mnemo.spi;

import dev.mnemo.MemoryRecord;
import dev.mnemo.NewMemory;
import java.util.List;

/**
 * Decides how a new candidate memory relates to the owner's similar existing records (found with
 * the engine's own recall): add it, make it a new version of a fact, treat it as a duplicate, or
 * keep both as a conflict. Implementations are thread-safe.
 */
public interface Consolidator {

  /** A stable id, e.g. {@code "rules"} or {@code "llm"}. */
  String id();

  /**
   * @param candidate the new memory, with its sources
   * @param similar the owner's current records most similar to it, best first (may be empty)
   */
  Decision decide(NewMemory candidate, List<MemoryRecord> similar);

  /** What to do with a candidate. */
  enum Action {
    /** A new fact: write it. */
    ADD,
    /**
     * A new version of {@code target}'s fact: write it under the target's fact key; the old one
     * expires.
     */
    UPDATE,
    /**
     * A duplicate of {@code target}: write nothing; add the candidate's sources to the target, bump
     * frequency.
     */
    NOOP,
    /** Contradicts {@code target} with unclear order: keep both, flagged as a conflict. */
    CONFLICT
  }

  /**
   * @param action what to do
   * @param target id of the existing record concerned (null for ADD)
   * @param reason a short human-readable why, kept in the trace
   */
  record Decision(Action action, String target, String reason) {
    public Decision {
      if (action == null) throw new IllegalArgumentException("action is required");
      if (action != Action.ADD && (target == null || target.isBlank())) {
        throw new IllegalArgumentException(action + " needs a target record id");
      }
    }

    public static Decision add(String reason) {
      return new Decision(Action.ADD, null, reason);
    }
  }
}
