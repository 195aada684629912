package dev.mnemo.text;

import dev.mnemo.Turn;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which side of a conversation a question is about, from its grammatical person. A memory's
 * questions come from its user: "what did I buy?" asks about what the user said, "what did you
 * recommend?" about what the assistant said. The speaker signal of the read path uses this to
 * prefer records said in that role (their {@code role} metadata), as it prefers records said by a
 * person the question names.
 *
 * <p>Hand-written, because it is a dozen English words and no library offers it: first person
 * singular (I, me, my, mine, myself and their contractions) points at the user; second person (you,
 * your, yours, yourself and contractions) at the assistant, except in the request frames "can you",
 * "could you", "would you", "will you", "do you", which ask the assistant to do something rather
 * than ask about what it said. A question using both persons ("remind me what you suggested") or
 * neither points at no role. English only; other languages point at none. Thread-safe, stateless.
 *
 * <p>It reads the query as the user's words (a chat integration passing on the user's message). An
 * agent that asks in its own voice ("what did I tell the user about X?") should phrase the query in
 * the third person, or set {@code weights.speaker} to 0.
 */
public final class QueryPerson {
  private QueryPerson() {}

  /** The role code of the user's turns. */
  public static final String USER = Turn.Role.USER.code();

  /** The role code of the assistant's turns. */
  public static final String ASSISTANT = Turn.Role.ASSISTANT.code();

  private static final Pattern WORD = Pattern.compile("[a-z]+(?:['’][a-z]+)?");
  private static final Set<String> FIRST =
      Set.of("i", "me", "my", "mine", "myself", "i'm", "i've", "i'd", "i'll");
  private static final Set<String> SECOND =
      Set.of("you", "your", "yours", "yourself", "you're", "you've", "you'd", "you'll");
  private static final Set<String> REQUEST = Set.of("can", "could", "would", "will", "do");

  /**
   * {@link #USER} when the query speaks in the first person singular only, {@link #ASSISTANT} when
   * it addresses the assistant in the second person only (request frames aside), null otherwise.
   */
  public static String role(String query) {
    if (query == null || query.isBlank()) return null;
    Matcher m = WORD.matcher(query.toLowerCase(Locale.ROOT).replace('’', '\''));
    boolean first = false;
    boolean second = false;
    String previous = "";
    while (m.find()) {
      String w = m.group();
      if (FIRST.contains(w)) first = true;
      else if (SECOND.contains(w) && !(w.equals("you") && REQUEST.contains(previous)))
        second = true;
      previous = w;
    }
    return first == second ? null : first ? USER : ASSISTANT;
  }
}
