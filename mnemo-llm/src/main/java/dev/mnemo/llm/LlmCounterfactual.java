package dev.mnemo.llm;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Locale;
import java.util.Objects;

/**
 * Writes the counterfactual version of a memory for the counterfactual check: the same statement
 * with its key fact changed to another plausible value ("Maya lives in Berlin." to "Maya lives in
 * Lisbon."). Reply {@code {"text"}} checked strictly: non-empty and different from the original.
 * Thread-safe.
 */
public final class LlmCounterfactual {

  public static final String SYSTEM_PROMPT =
      """
      You edit one memory for a counterfactual test. Rewrite it so that its key fact (the name, \
      place, value, date or choice it states) is changed to a different, plausible value; keep \
      everything else, the same form and about the same length. The new version must contradict the old one.
      Reply with one JSON object and nothing else: {"text": "..."}.""";

  record Reply(@JsonProperty("text") String text) {}

  private final JsonChat chat;

  public LlmCounterfactual(JsonChat chat) {
    this.chat = Objects.requireNonNull(chat, "chat");
  }

  /** The changed memory text. */
  public String change(String memory) {
    String original = norm(memory);
    Reply r =
        chat.ask(
            SYSTEM_PROMPT,
            "Memory: " + memory,
            Reply.class,
            x -> {
              if (x.text() == null || x.text().isBlank())
                throw new JsonChat.InvalidReply("text must not be empty");
              if (norm(x.text()).equals(original))
                throw new JsonChat.InvalidReply("text must differ from the original memory");
            });
    return r.text().strip();
  }

  private static String norm(String s) {
    return s.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}]+", " ").strip();
  }
}
