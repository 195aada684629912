package dev.mnemo;

import dev.mnemo.text.Entities;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What a recall is about, stated apart from the latest message (seed 001: a search with the whole
 * message is dominated by its incidental words). Every part is optional; a focus with no part is
 * {@link #isEmpty() empty} and changes nothing.
 *
 * <p>When a request has a non-empty focus, the read path retrieves with {@link #retrievalText()}
 * (the open question first, then the task and the artifact) instead of the message, adds the
 * focus's entities to the query's entity keys, and reads time words ("last week") from the focus
 * only: chatter around a question ("the weather looks better tomorrow") must not become a date
 * range, so a time that matters belongs in the question. The message stays the request's {@code
 * query}, for the trace.
 *
 * @param question the open question the agent needs answered ("which editor does Maya use?")
 * @param task the task or decision at hand ("set up Maya's dev laptop")
 * @param artifact what is being produced ("an install script")
 * @param entities people, places, products the recall is about
 */
public record Focus(String question, String task, String artifact, List<String> entities) {

  public static final Focus NONE = new Focus(null, null, null, List.of());

  public Focus {
    question = blankToNull(question);
    task = blankToNull(task);
    artifact = blankToNull(artifact);
    entities =
        entities == null
            ? List.of()
            : entities.stream().filter(e -> e != null && !e.isBlank()).toList();
  }

  public boolean isEmpty() {
    return question == null && task == null && artifact == null && entities.isEmpty();
  }

  /**
   * The text to retrieve with: question, task, artifact and entities, in that order, as sentences.
   */
  public String retrievalText() {
    List<String> parts = new ArrayList<>(4);
    if (question != null) parts.add(question);
    if (task != null) parts.add(task);
    if (artifact != null) parts.add(artifact);
    if (!entities.isEmpty()) parts.add(String.join(", ", entities));
    return String.join(". ", parts);
  }

  /**
   * The focus's entities as normalized keys, beside every content word of its texts ({@link
   * Entities#queryKeys}).
   */
  public List<String> entityKeys() {
    return keys(Entities.queryKeys(retrievalText()));
  }

  /**
   * The focus's entities as normalized keys, beside the names its texts give by {@link
   * Entities#nameKeys}: what the entity signal weighs.
   */
  public List<String> nameKeys() {
    return keys(Entities.nameKeys(retrievalText()));
  }

  private List<String> keys(List<String> fromText) {
    Set<String> out = new LinkedHashSet<>();
    for (String e : entities) {
      String k = Entities.normalize(e);
      if (!k.isEmpty()) out.add(k);
    }
    out.addAll(fromText);
    return List.copyOf(out);
  }

  private static final Pattern SENTENCE = Pattern.compile("(?<=[.!?])\\s+|\\n+");
  private static final Pattern ASKING =
      Pattern.compile(
          "^(what|which|who|whom|whose|when|where|why|how|do|does|did|is|are|was|were|can|could|should|would|will|"
              + "have|has|remind|tell|recall|remember|find|list|show)\\b.*",
          Pattern.CASE_INSENSITIVE);

  /**
   * A focus built from a message by rule, for callers that have nothing better: the open question
   * is the message's sentences that ask something (ending in a question mark, or starting with an
   * interrogative or a recall verb such as "remind me"), and the entities are the names of the
   * whole message. A message that asks nothing gives {@link #NONE}, so the message itself is used.
   * Hand-written: no library splits "chatter around a question" for retrieval; the rule is kept
   * small and documented (docs/read-path.md) rather than learned.
   */
  public static Focus fromMessage(String message) {
    if (message == null || message.isBlank()) return NONE;
    List<String> asking = new ArrayList<>();
    for (String s : SENTENCE.split(message.trim())) {
      String t = s.trim();
      if (t.isEmpty()) continue;
      if (t.endsWith("?") || ASKING.matcher(t.toLowerCase(Locale.ROOT)).matches()) asking.add(t);
    }
    if (asking.isEmpty()) return NONE;
    return new Focus(String.join(" ", asking), null, null, Entities.extract(message));
  }

  private static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s.strip();
  }
}
