package dev.mnemo.text;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Names mentioned in a text (people, places, products), as normalized keys, so that "Sam", "Sam's"
 * and "SAM" meet.
 *
 * <p>A deliberately simple proper-noun rule, hand-written because no small Maven-packaged model
 * does better for free: a word is a name when it starts with a capital letter and is not a common
 * function word, interrogative, pronoun, month or weekday (a sentence-initial word is judged by the
 * same list, so "Maya writes..." keeps Maya and "Which editor..." drops Which). Consecutive names
 * also give their joined phrase ("New York" gives {@code new york}, {@code new} and {@code york}).
 * Keys are lower case, possessive {@code 's} removed, accents kept. Thread-safe, stateless.
 */
public final class Entities {
  private Entities() {}

  private static final Pattern WORD = Pattern.compile("[\\p{L}][\\p{L}\\p{N}'’\\-]*");

  /** Compiled once: {@link #normalize} runs for every query name and record entity. */
  private static final Pattern EDGES = Pattern.compile("^[^\\p{L}\\p{N}]+|[^\\p{L}\\p{N}]+$");

  private static final Pattern SPACES = Pattern.compile("\\s+");

  private static final Set<String> NOT_NAMES =
      Set.copyOf(
          List.of(
              // interrogatives, pronouns, determiners, auxiliaries and common sentence starters
              "a",
              "an",
              "the",
              "this",
              "that",
              "these",
              "those",
              "what",
              "which",
              "who",
              "whom",
              "whose",
              "when",
              "where",
              "why",
              "how",
              "i",
              "i'm",
              "i've",
              "i'll",
              "i'd",
              "me",
              "my",
              "mine",
              "we",
              "us",
              "our",
              "you",
              "your",
              "he",
              "him",
              "his",
              "she",
              "her",
              "hers",
              "it",
              "its",
              "they",
              "them",
              "their",
              "is",
              "are",
              "was",
              "were",
              "be",
              "been",
              "am",
              "do",
              "does",
              "did",
              "done",
              "have",
              "has",
              "had",
              "can",
              "could",
              "will",
              "would",
              "shall",
              "should",
              "may",
              "might",
              "must",
              "and",
              "or",
              "but",
              "if",
              "then",
              "so",
              "because",
              "for",
              "of",
              "on",
              "in",
              "at",
              "to",
              "from",
              "by",
              "with",
              "about",
              "as",
              "into",
              "after",
              "before",
              "since",
              "during",
              "until",
              "not",
              "no",
              "yes",
              "yeah",
              "oh",
              "hey",
              "hi",
              "hello",
              "thanks",
              "thank",
              "please",
              "well",
              "ok",
              "okay",
              "sure",
              "wow",
              "also",
              "just",
              "there",
              "here",
              "now",
              "today",
              "yesterday",
              "tomorrow",
              "tonight",
              "any",
              "some",
              "all",
              "every",
              "each",
              "both",
              "either",
              "neither",
              "let",
              "let's",
              "tell",
              "give",
              "find",
              "show",
              "plan",
              "list",
              "remind",
              "convert",
              "explain",
              "describe",
              "did",
              "great",
              "good",
              "nice",
              "cool",
              "awesome",
              "sorry",
              "really",
              "that's",
              "it's",
              "what's",
              "how's",
              "i'd",
              "we're",
              "you're",
              "they're",
              "there's",
              "here's",
              "don't",
              "didn't",
              "can't",
              "won't",
              "isn't",
              "to-do",
              "ps",
              "fyi",
              "btw",
              "lol",
              "omg",
              "wait",
              "maybe",
              "actually",
              "anyway",
              "yes,",
              "last",
              "next",
              "first",
              "second",
              "third",
              "one",
              "two",
              "three",
              "new",
              "old",
              "more",
              "most",
              "other",
              "another",
              "january",
              "february",
              "march",
              "april",
              "june",
              "july",
              "august",
              "september",
              "october",
              "november",
              "december",
              "monday",
              "tuesday",
              "wednesday",
              "thursday",
              "friday",
              "saturday",
              "sunday",
              "mr",
              "mrs",
              "ms",
              "dr",
              "st"));

  /** The normalized names in {@code text}, in order of first appearance, without repeats. */
  public static List<String> extract(String text) {
    if (text == null || text.isEmpty()) return List.of();
    Set<String> out = new LinkedHashSet<>();
    Matcher m = WORD.matcher(text);
    StringBuilder phrase = new StringBuilder();
    int phraseWords = 0;
    int lastEnd = -1;
    while (m.find()) {
      String raw = m.group();
      boolean adjacent = lastEnd >= 0 && isOnlySpaces(text, lastEnd, m.start());
      lastEnd = m.end();
      String key = normalize(raw);
      boolean name =
          Character.isUpperCase(raw.codePointAt(0))
              && !key.isEmpty()
              && !NOT_NAMES.contains(key)
              && !(key.length() == 1);
      if (name) {
        out.add(key);
        if (phraseWords > 0 && adjacent) {
          phrase.append(' ').append(key);
          phraseWords++;
        } else {
          flush(out, phrase, phraseWords);
          phrase.setLength(0);
          phrase.append(key);
          phraseWords = 1;
        }
      } else {
        flush(out, phrase, phraseWords);
        phrase.setLength(0);
        phraseWords = 0;
      }
    }
    flush(out, phrase, phraseWords);
    return List.copyOf(out);
  }

  /**
   * Every content word of a query as a normalized key, whatever its case: queries are often typed
   * in lower case ("gift idea for sam"), so any word may name an entity; the store keeps only those
   * that match a record's entities.
   */
  public static List<String> queryKeys(String query) {
    if (query == null || query.isEmpty()) return List.of();
    Set<String> out = new LinkedHashSet<>(extract(query));
    Matcher m = WORD.matcher(query);
    while (m.find()) {
      String key = normalize(m.group());
      if (key.length() > 1 && !NOT_NAMES.contains(key)) out.add(key);
    }
    return List.copyOf(out);
  }

  /**
   * The keys of a query that may name someone or something, for the entity signal: the names {@link
   * #extract} finds when the query uses capital letters at all, every content word ({@link
   * #queryKeys}) when it is typed all in lower case ("gift idea for sam"). A cased query says which
   * of its words are names; counting its common words too let a record's sentence-initial "Many" or
   * "Here" (which {@link #extract} cannot tell from a name without a lexicon) match "how many ..."
   * as a rare name: measured to cost 0.035 turn recall@10 on the LongMemEval dev split and 0.002 on
   * LoCoMo's (docs/read-path.md).
   */
  public static List<String> nameKeys(String query) {
    if (query == null || query.isEmpty()) return List.of();
    return query.codePoints().anyMatch(Character::isUpperCase) ? extract(query) : queryKeys(query);
  }

  /** The key of one name: lower case, trimmed of punctuation and a possessive {@code 's}. */
  public static String normalize(String name) {
    if (name == null) return "";
    String s = name.trim().toLowerCase(Locale.ROOT).replace('’', '\'');
    if (s.endsWith("'s")) s = s.substring(0, s.length() - 2);
    else if (s.endsWith("s'")) s = s.substring(0, s.length() - 1);
    s = EDGES.matcher(s).replaceAll("");
    return SPACES.matcher(s).replaceAll(" ");
  }

  private static void flush(Set<String> out, StringBuilder phrase, int words) {
    if (words > 1) out.add(phrase.toString());
  }

  private static boolean isOnlySpaces(String text, int from, int to) {
    for (int i = from; i < to; i++) {
      if (text.charAt(i) != ' ') return false;
    }
    return true;
  }
}
