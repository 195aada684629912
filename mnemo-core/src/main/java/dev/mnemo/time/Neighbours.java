package dev.mnemo.time;

import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Looks at the words around a match: the context rules that tell "in May" from "you may". */
final class Neighbours {
  private Neighbours() {}

  /** A month, season or year that can be the first half of a pair. */
  private static final String FIRST_HALF =
      "(?:"
          + Lexicon.MONTH.replace("?<month>", "?:")
          + "|"
          + Lexicon.SEASON.replace("?<season>", "?:")
          + "|(?:19|20)\\d\\d)";

  /**
   * After a month, season, day or year and a joining word, as the second half of "May to June",
   * "between 2019 and 2021", "2019-2021" or "May or June".
   */
  private static final Pattern AFTER_CONNECTIVE =
      Pattern.compile(
          Lexicon.WORD_START
              + "(?:(?:"
              + FIRST_HALF
              + "|\\d{1,2}(?:st|nd|rd|th)?)\\s+(?:to|and|or|through|thru|until|till)" // "May 5 to"
              + "|"
              + FIRST_HALF
              + "\\s*[-–])\\s*$", // "2019-"
          Lexicon.FLAGS);

  /** How far back {@link #AFTER_CONNECTIVE} looks; longer than any phrase it matches. */
  private static final int LOOK_BACK = 40;

  /**
   * The word before {@code start}, lower-cased, skipping spaces and hyphens ("mid-May"); empty when
   * something else (a digit, punctuation) comes first.
   */
  static String previousWord(String query, int start) {
    int end = skipBackSeparators(query, start);
    return Lexicon.lower(query.substring(wordStart(query, end), end));
  }

  /**
   * Whether the word before {@code start}, or the two words before it, are in {@code context} ("in
   * May", "prior to May"), looking past one "the" before {@code start} when {@code skipThe} ("in
   * the fall").
   */
  static boolean precededBy(Set<String> context, String query, int start, boolean skipThe) {
    int end = skipBackSeparators(query, start);
    int wordStart = wordStart(query, end);
    String word = Lexicon.lower(query.substring(wordStart, end));
    if (skipThe && word.equals("the")) {
      end = skipBackSeparators(query, wordStart);
      wordStart = wordStart(query, end);
      word = Lexicon.lower(query.substring(wordStart, end));
    }
    if (word.isEmpty()) {
      return false;
    }
    String before = previousWord(query, wordStart);
    return context.contains(word) || context.contains(before + " " + word);
  }

  private static int skipBackSeparators(String query, int start) {
    int i = start;
    while (i > 0 && (Character.isWhitespace(query.charAt(i - 1)) || query.charAt(i - 1) == '-')) {
      i--;
    }
    return i;
  }

  private static int wordStart(String query, int end) {
    int i = end;
    while (i > 0 && Character.isLetter(query.charAt(i - 1))) {
      i--;
    }
    return i;
  }

  /** The word after {@code end}, lower-cased; empty when punctuation or the end comes first. */
  static String nextWord(String query, int end) {
    int i = end;
    while (i < query.length() && Character.isWhitespace(query.charAt(i))) {
      i++;
    }
    int start = i;
    while (i < query.length() && Character.isLetter(query.charAt(i))) {
      i++;
    }
    return Lexicon.lower(query.substring(start, i));
  }

  /** Whether the text before {@code start} ends in "May to", "2019 and", "2019-" and the like. */
  static boolean afterConnective(String query, int start) {
    Matcher m = AFTER_CONNECTIVE.matcher(query);
    m.region(Math.max(0, start - LOOK_BACK), start);
    m.useTransparentBounds(true);
    return m.find();
  }

  /** Whether {@code [start, end)} is all of the query but spaces and punctuation ("2023?"). */
  static boolean isWholeQuery(String query, int start, int end) {
    return isBlankOrPunctuation(query.substring(0, start))
        && isBlankOrPunctuation(query.substring(end));
  }

  private static boolean isBlankOrPunctuation(String s) {
    return s.codePoints().noneMatch(Character::isLetterOrDigit);
  }
}
