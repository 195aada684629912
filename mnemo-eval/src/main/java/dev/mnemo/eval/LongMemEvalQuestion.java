package dev.mnemo.eval;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * One LongMemEval question with its own haystack of dated chat sessions, as {@link
 * LongMemEvalLoader} reads it.
 *
 * <p>Immutable. A turn's id is {@code <session key>:<index in the session>}; the evidence turns are
 * those marked {@code has_answer}; the evidence sessions are {@code answer_session_ids}.
 *
 * @param id {@code question_id}; ids ending in {@code _abs} are abstention questions
 * @param type {@code question_type} (single-session-user, multi-session, temporal-reasoning, ...)
 * @param question the question text
 * @param answer the gold answer (read as text)
 * @param askedAt {@code question_date}, read as UTC
 * @param sessions the haystack, in file order
 * @param answerSessionIds the evidence sessions
 */
public record LongMemEvalQuestion(
    String id,
    String type,
    String question,
    String answer,
    Instant askedAt,
    List<Session> sessions,
    Set<String> answerSessionIds) {

  public LongMemEvalQuestion {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(askedAt, "askedAt");
    sessions = List.copyOf(sessions);
    answerSessionIds = Set.copyOf(answerSessionIds);
  }

  /**
   * One chat session of the haystack.
   *
   * @param id {@code haystack_session_ids[i]}
   * @param key unique within the haystack: the id, or {@code <id>#<n>} for its n-th repeat (a few
   *     haystacks hold one session twice, on two dates)
   * @param at {@code haystack_dates[i]}, read as UTC
   * @param turns its turns, in order
   */
  public record Session(String id, String key, Instant at, List<Turn> turns) {
    public Session {
      turns = List.copyOf(turns);
    }

    /** The id of the turn at {@code index}: {@code <key>:<index>}. */
    public String turnId(int index) {
      return key + ":" + index;
    }
  }

  /**
   * One turn.
   *
   * @param role {@code user} or {@code assistant}
   * @param content its text (may be empty)
   * @param hasAnswer whether the dataset marks it as evidence
   */
  public record Turn(String role, String content, boolean hasAnswer) {}

  /** Whether this is an abstention question (the answer is not in the history). */
  public boolean abstention() {
    return id.endsWith("_abs");
  }

  /** The ids of the evidence turns, in haystack order. */
  public List<String> evidenceTurnIds() {
    List<String> out = new ArrayList<>();
    for (Session s : sessions) {
      for (int i = 0; i < s.turns().size(); i++)
        if (s.turns().get(i).hasAnswer()) out.add(s.turnId(i));
    }
    return out;
  }

  /** The number of turns in the haystack. */
  public int turnCount() {
    return sessions.stream().mapToInt(s -> s.turns().size()).sum();
  }
}
