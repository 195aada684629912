package dev.mnemo.llm;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * Answers a question with a given list of memories (possibly none), for the answer-level
 * evaluation: the same prompt, model and settings serve the with-memory and the without-memory
 * answer, so only the memories differ. The model cites the memories it drew on by number, which
 * gives the use rate. Reply {@code {"answer", "used"}} checked strictly ({@link JsonChat}): a
 * non-empty answer, {@code used} numbers among those shown. Thread-safe.
 */
public final class LlmAnswerer {

  public static final String SYSTEM_PROMPT =
      """
      You are an assistant answering a question from the person you talk with. You may be given \
      numbered memories about them from earlier conversations; use them when they help, and ignore \
      the ones that do not. Answer briefly (a few words or one sentence). If you do not know, say \
      "I don't know". List the numbers of the memories your answer draws on ([] if none).
      Reply with one JSON object and nothing else: {"answer": "...", "used": [1, 2]}.""";

  /** An answer and the 1-based numbers of the memories it drew on. */
  public record Answer(String answer, List<Integer> used) {
    public Answer {
      used = List.copyOf(used);
    }
  }

  record Reply(@JsonProperty("answer") String answer, @JsonProperty("used") List<Integer> used) {}

  private final JsonChat chat;

  public LlmAnswerer(JsonChat chat) {
    this.chat = Objects.requireNonNull(chat, "chat");
  }

  /**
   * @param question the question
   * @param askedAt the "now" of the question (shown to the model), or null
   * @param memories the memory lines to show, in order (numbered from 1); empty for the no-memory
   *     answer
   */
  public Answer answer(String question, Instant askedAt, List<String> memories) {
    StringBuilder b = new StringBuilder();
    if (askedAt != null) b.append("Today is ").append(askedAt).append(".\n");
    if (memories.isEmpty()) {
      b.append("Memories: none.\n");
    } else {
      b.append("Memories:\n");
      for (int i = 0; i < memories.size(); i++)
        b.append(i + 1).append(". ").append(memories.get(i).replace('\n', ' ')).append('\n');
    }
    b.append("\nQuestion: ").append(question);
    int n = memories.size();
    Reply r = chat.ask(SYSTEM_PROMPT, b.toString(), Reply.class, x -> check(x, n));
    return new Answer(r.answer().strip(), r.used().stream().distinct().sorted().toList());
  }

  static void check(Reply r, int n) {
    if (r.answer() == null || r.answer().isBlank())
      throw new JsonChat.InvalidReply("answer must not be empty");
    if (r.used() == null)
      throw new JsonChat.InvalidReply("used must be a list (maybe empty), was null");
    for (Integer i : r.used()) {
      if (i == null || i < 1 || i > n) {
        throw new JsonChat.InvalidReply(
            "used must hold memory numbers 1.."
                + n
                + (n == 0 ? " (none were shown)" : "")
                + ", was "
                + i);
      }
    }
  }
}
