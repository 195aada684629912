package dev.mnemo.llm;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;

/**
 * Judges an answer against a gold answer with a fixed rubric ({@link #RUBRIC}, versioned by {@link
 * #RUBRIC_ID} so that reports say which rubric scored them). Reply {@code {"correct", "reason"}}
 * checked strictly ({@link JsonChat}). Thread-safe.
 */
public final class LlmJudge {

  public static final String RUBRIC_ID = "mnemo-judge-v1";

  public static final String RUBRIC =
      """
      You grade an assistant's answer to a question against the gold answer. Rubric:
      1. CORRECT when the answer states the gold answer's key facts (names, values, dates; a date may be \
      written another way or be less precise only if the question does not ask for the precision), even \
      in other words or with extra detail that does not contradict it.
      2. INCORRECT when it states another value, contradicts the gold answer, misses its key fact, or \
      hedges between several values.
      3. When the gold answer says the information is not available, CORRECT only if the answer says it \
      does not know or that nothing is recorded; any specific claim is INCORRECT.
      4. "I don't know" is INCORRECT when the gold answer has a value.
      Judge only correctness, not style.
      Reply with one JSON object and nothing else: {"correct": true or false, "reason": "a short why"}.""";

  /** A verdict and its reason. */
  public record Verdict(boolean correct, String reason) {}

  record Reply(@JsonProperty("correct") Boolean correct, @JsonProperty("reason") String reason) {}

  private final JsonChat chat;

  public LlmJudge(JsonChat chat) {
    this.chat = Objects.requireNonNull(chat, "chat");
  }

  public Verdict judge(String question, String gold, String answer) {
    String user =
        "Question: " + question + "\nGold answer: " + gold + "\nAssistant's answer: " + answer;
    Reply r = chat.ask(RUBRIC, user, Reply.class, LlmJudge::check);
    return new Verdict(r.correct(), r.reason().strip());
  }

  static void check(Reply r) {
    if (r.correct() == null)
      throw new JsonChat.InvalidReply("correct must be true or false, was null");
    if (r.reason() == null || r.reason().isBlank())
      throw new JsonChat.InvalidReply("reason must not be empty");
  }
}
