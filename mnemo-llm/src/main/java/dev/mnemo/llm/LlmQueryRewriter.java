package dev.mnemo.llm;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The LLM {@link QueryRewriter}: asks a chat model for a short retrieval query (the salient terms
 * and names, no filler) and the entities it names. The reply {@code {"query", "entities"}} is
 * checked strictly ({@link JsonChat}); when the model fails, the original text is returned ({@code
 * rewritten} false) and a warning logged, so recall still runs. Thread-safe.
 */
public final class LlmQueryRewriter implements QueryRewriter {
  private static final Logger LOG = LoggerFactory.getLogger(LlmQueryRewriter.class);

  static final int MAX_QUERY = 500;

  public static final String SYSTEM_PROMPT =
      """
      You write search queries for an assistant's long-term memory of a person. Given the person's \
      latest message (and, when given, the task or question in focus), write the query that finds the \
      stored memories the assistant needs to respond: the salient topic words, names, products and \
      dates; none of the filler, greetings or politeness. Keep the person's own words where they are \
      specific. Also list the names of people, places, products and organisations the query is about.
      Reply with one JSON object and nothing else: {"query": "...", "entities": ["..."]}.""";

  record Reply(
      @JsonProperty("query") String query, @JsonProperty("entities") List<String> entities) {}

  private final JsonChat chat;

  public LlmQueryRewriter(JsonChat chat) {
    this.chat = Objects.requireNonNull(chat, "chat");
  }

  @Override
  public Rewrite rewrite(String text, String focus) {
    if (text == null || text.isBlank())
      throw new IllegalArgumentException("text must not be blank");
    String user =
        "Latest message: "
            + text.strip()
            + (focus == null || focus.isBlank() ? "" : "\nFocus: " + focus.strip());
    try {
      Reply r = chat.ask(SYSTEM_PROMPT, user, Reply.class, LlmQueryRewriter::check);
      return new Rewrite(
          r.query().strip(), r.entities().stream().map(String::strip).distinct().toList(), true);
    } catch (LlmException e) {
      LOG.warn("query rewriting failed, searching with the text as it is: {}", e.getMessage());
      return new Rewrite(text, List.of(), false);
    }
  }

  static void check(Reply r) {
    if (r.query() == null || r.query().isBlank())
      throw new JsonChat.InvalidReply("query must not be empty");
    if (r.query().length() > MAX_QUERY) {
      throw new JsonChat.InvalidReply(
          "query must be at most " + MAX_QUERY + " characters, was " + r.query().length());
    }
    if (r.entities() == null)
      throw new JsonChat.InvalidReply("entities must be a list (maybe empty), was null");
    for (String e : r.entities()) {
      if (e == null || e.isBlank())
        throw new JsonChat.InvalidReply("entities must not hold an empty name");
    }
  }
}
