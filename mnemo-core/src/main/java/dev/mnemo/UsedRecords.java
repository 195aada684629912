package dev.mnemo;

import dev.mnemo.text.Words;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which recalled records an answer used, by overlap: the usage-feedback heuristic of the chat
 * integrations (LangChain4j, Spring AI) and of the MCP {@code mark_used} tool, for callers that do
 * not say which records they used ({@link Mnemo#markUsed} is the explicit call).
 *
 * <p>The rule. The answer's words are compared with each record's, leaving out every word of the
 * question (an answer repeats its question, and every recalled record matched the question) and the
 * record's speaker (every record of a person names them). A record counts as <b>used</b> when the
 * answer shares with it
 *
 * <ul>
 *   <li>at least one <b>number</b> ("2027", "3", "12.5") or <b>name</b> (one of the record's
 *       entities, or a capitalized word inside its text: "Emacs", "Kyoto"), or
 *   <li>at least {@value #MIN_SHARED_WORDS} <b>content words</b> (three letters or more, neither a
 *       function word nor filler; compared by a crude stem, so "hiking" matches "hikes").
 * </ul>
 *
 * <p>The thresholds were chosen on the hand-written answers of {@code UsedRecordsTest}: one shared
 * content word fires on answers that merely stay on the topic ("I don't know which tea you like"
 * against "Maya likes green tea"); a shared name or number is rarely there by chance. It is a
 * heuristic: an answer that paraphrases a record without a shared name, number or two words is
 * missed, and an answer that names a recalled person for another reason is counted. Stateless.
 */
public final class UsedRecords {
  private UsedRecords() {}

  /** Shared content words that make a record used when no number or name is shared. */
  public static final int MIN_SHARED_WORDS = 2;

  private static final Pattern NUMBER = Pattern.compile("\\d+(?:[.,]\\d+)*");

  /** A capitalized word inside a sentence (not its first word): a name. */
  private static final Pattern INNER_NAME =
      Pattern.compile("(?<=[\\p{L}\\p{N},;:)] )\\p{Lu}[\\p{L}\\p{N}]+");

  /**
   * The ids of the records the answer used, in the order given.
   *
   * @param question the message the records were recalled for, or null
   * @param answer the reply that may have used them
   * @param records the records recalled for the question
   */
  public static List<String> in(String question, String answer, Collection<MemoryRecord> records) {
    List<String> out = new ArrayList<>();
    if (answer == null || answer.isBlank() || records == null) return out;
    Set<String> asked = question == null ? Set.of() : tokens(question, Set.of());
    Set<String> said = tokens(answer, Set.of());
    said.removeAll(asked);
    for (MemoryRecord r : records) {
      if (r != null && used(r, said)) out.add(r.id());
    }
    return out;
  }

  /** {@link #in} over a recall's selected records. */
  public static List<String> in(String question, String answer, RecallResult result) {
    return in(
        question,
        answer,
        result == null ? List.of() : result.selected().stream().map(Recalled::record).toList());
  }

  private static boolean used(MemoryRecord r, Set<String> said) {
    Set<String> speaker = new HashSet<>();
    String who = r.metadata().get("speaker");
    if (who != null) speaker.addAll(Words.words(who));
    String text = r.text();
    Set<String> strong = new HashSet<>();
    Matcher n = NUMBER.matcher(text);
    while (n.find()) strong.add(n.group());
    for (String e : r.entities()) {
      for (String w : Words.words(e)) if (!speaker.contains(w)) strong.add(Words.stem(w));
    }
    Matcher m = INNER_NAME.matcher(text);
    while (m.find()) {
      String w = m.group().toLowerCase(Locale.ROOT);
      if (!speaker.contains(w)) strong.add(Words.stem(w));
    }
    int words = 0;
    for (String t : tokens(text, speaker)) {
      if (!said.contains(t)) continue;
      if (strong.contains(t)) return true;
      if (++words >= MIN_SHARED_WORDS) return true;
    }
    for (String s : strong) if (said.contains(s)) return true;
    return false;
  }

  /** Numbers as written, and the stems of the content words (without {@code leave}). */
  private static Set<String> tokens(String text, Set<String> leave) {
    Set<String> out = new LinkedHashSet<>();
    Matcher n = NUMBER.matcher(text);
    while (n.find()) out.add(n.group());
    for (String w : Words.words(text)) {
      if (leave.contains(w) || Words.FUNCTION.contains(w) || Words.FILLER.contains(w)) continue;
      if (w.length() >= 3 && !w.chars().allMatch(Character::isDigit)) out.add(Words.stem(w));
    }
    return out;
  }

  /**
   * The ids among {@code ids} (distinct, in order) of which {@code memory} holds no record of the
   * owner: what a mark-used or forget answer names as unknown instead of echoing them as used.
   */
  public static List<String> unknown(Mnemo memory, String owner, Collection<String> ids) {
    return ids.stream().distinct().filter(id -> memory.get(owner, id).isEmpty()).toList();
  }
}
