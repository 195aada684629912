package dev.mnemo.time;

import java.time.DayOfWeek;
import java.time.Month;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/** The words and regular-expression fragments the time-expression rules are built from. */
final class Lexicon {
  private Lexicon() {}

  static final int FLAGS = Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE;

  /** Month names, full names before abbreviations. */
  static final String MONTH =
      "(?<month>january|february|march|april|may|june|july|august|september|october|november"
          + "|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)";

  static final String WEEKDAY =
      "(?<weekday>monday|tuesday|wednesday|thursday|friday|saturday|sunday)";

  static final String SEASON = "(?<season>summer|spring|autumn|fall|winter)";

  /** A count: digits, the words one..twelve, "a"/"an", "a couple (of)", "a few". */
  static final String NUMBER =
      "(?<num>\\d{1,4}|a\\s+couple(?:\\s+of)?|couple(?:\\s+of)?|a\\s+few|few|an?|one|two|three"
          + "|four|five|six|seven|eight|nine|ten|eleven|twelve)";

  /** A day of the month, 1..31, optionally with an ordinal suffix; not the hour of "5:30". */
  static final String DAY = "(?<day>3[01]|[12]\\d|0?[1-9])(?:st|nd|rd|th)?(?!:\\d)";

  /** A year the parser accepts from words alone: 1900..2100. */
  static final String YEAR = "(?<year>19\\d\\d|20\\d\\d|2100)";

  /** Start of a word: not in the middle of a word or number. */
  static final String WORD_START = "(?<![\\p{L}\\p{N}])";

  /** End of a word: not in the middle of a word or number. */
  static final String WORD_END = "(?![\\p{L}\\p{N}])";

  /** Start of a number: also not after a decimal point, a separator or a currency sign. */
  static final String NUMBER_START = "(?<![\\p{L}\\p{N}.,:/$€£#])";

  /** End of a number: also not before a percent sign or more digits after a separator. */
  static final String NUMBER_END = "(?![\\p{L}\\p{N}%])(?![.,:/]\\p{N})";

  /**
   * Words before a month name that make it a month rather than a verb ("in May", "since March").
   * "last/this/next May" has its own rule with a stricter check for the modal verb.
   */
  static final Set<String> MONTH_CONTEXT =
      words(
          "in during since of before after until till from early mid late throughout "
              + "between around prior_to");

  /** Words before a season name that make it a season ("in the fall", "during winter"). */
  static final Set<String> SEASON_CONTEXT =
      words(
          "in during since of before after until till from early mid late throughout "
              + "between around over prior_to");

  /** Words before a four-digit number that make it a year ("in 2023", "the year 2023"). */
  static final Set<String> YEAR_CONTEXT =
      words(
          "in during of from since before after until till early mid late throughout "
              + "between around year prior_to");

  /**
   * Words that follow "may" the modal verb ("you may want", "this may be"). Pronouns are not among
   * them: "may I ask" has no month context anyway, and "in May I went" is the month.
   */
  static final Set<String> MODAL_FOLLOWERS =
      words(
          "be have not also still need want take seem help well cause require ask get come go "
              + "make use mean change affect depend vary differ just never only apply work look "
              + "sound feel contain become already even happen lead result prefer wish try find "
              + "see show include involve give add break fail return or actually indeed "
              + "sometimes sometime eventually possibly perhaps cost last explain suffice");

  /**
   * Words after "may" that leave it a month where the words before it are weak evidence ("this
   * May", "last May", "3 May"): there "may" is more often the verb ("this may take a while", "step
   * 3 may suffice"), so the month needs the end of the query, punctuation or one of these.
   */
  static final Set<String> CLEAR_AFTER_MAY =
      words("and when while at in on during until till through vs versus compared i we my our");

  /** Words after "spring" that make it software, not the season ("in Spring Boot"). */
  static final Set<String> SPRING_SOFTWARE =
      words(
          "boot framework cloud security data batch mvc bean beans app application "
              + "context config configuration integration webflux shell session kafka ai");

  /** Words after a number that make it a quantity, not a year or a day ("2000 people"). */
  static final Set<String> COUNT_WORDS =
      words(
          "people feet children men women km kg mb gb tb kb ms ml mg ft px rpm mph usd "
              + "eur gbp yen k m percent per x times more less fewer other plus new total");

  /** Words ending in "s" that are not plural nouns. */
  private static final Set<String> NOT_PLURAL =
      words(
          "this thus was has does goes is its his hers ours yours theirs always perhaps "
              + "whereas afterwards besides towards unless nowadays anyways as us yes plus "
              + "whose");

  /** The set of the space-separated words in {@code list}; "prior to" is written "prior_to". */
  private static Set<String> words(String list) {
    return Arrays.stream(list.split(" "))
        .map(word -> word.replace('_', ' '))
        .collect(Collectors.toUnmodifiableSet());
  }

  private static final List<String> ONE_TO_TWELVE =
      List.of(
          "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
          "twelve");

  /** The value of a {@link #NUMBER} match. */
  static int number(String text) {
    String t = lower(text).replaceAll("\\s+", " ");
    if (t.contains("couple")) {
      return 2;
    }
    if (t.contains("few")) {
      return 3;
    }
    if (Character.isDigit(t.charAt(0))) {
      return Integer.parseInt(t);
    }
    if (t.equals("a") || t.equals("an")) {
      return 1;
    }
    return ONE_TO_TWELVE.indexOf(t) + 1;
  }

  /** The month a {@link #MONTH} match names. */
  static Month month(String name) {
    return switch (lower(name).substring(0, 3)) {
      case "jan" -> Month.JANUARY;
      case "feb" -> Month.FEBRUARY;
      case "mar" -> Month.MARCH;
      case "apr" -> Month.APRIL;
      case "may" -> Month.MAY;
      case "jun" -> Month.JUNE;
      case "jul" -> Month.JULY;
      case "aug" -> Month.AUGUST;
      case "sep" -> Month.SEPTEMBER;
      case "oct" -> Month.OCTOBER;
      case "nov" -> Month.NOVEMBER;
      default -> Month.DECEMBER;
    };
  }

  static DayOfWeek weekday(String name) {
    return DayOfWeek.valueOf(name.toUpperCase(Locale.ROOT));
  }

  /** Whether the word after a number makes the number a quantity ("2000 users", "5 km"). */
  static boolean looksLikeCount(String nextWord) {
    String w = lower(nextWord);
    if (w.isEmpty()) {
      return false;
    }
    if (COUNT_WORDS.contains(w)) {
      return true;
    }
    return w.length() >= 4 && w.endsWith("s") && !w.endsWith("ss") && !NOT_PLURAL.contains(w);
  }

  static String lower(String s) {
    return s.toLowerCase(Locale.ROOT);
  }
}
