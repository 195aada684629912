package dev.mnemo.write;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Whether two statements without a fact key are about the same fact: the rules the write path uses
 * to find that a new record restates or contradicts a current record of the same owner
 * (docs/write-path.md, "Conflicts without a fact key"). Deterministic, offline, English.
 *
 * <ol>
 *   <li><b>Subject + attribute</b>: both texts state a preference (like, love, enjoy, prefer ...;
 *       dislike, hate ...) of the same subject ("I"/"my" is the speaker, otherwise the first name),
 *       and the things they are about (the content words after the verb) overlap with a Jaccard
 *       similarity of at least {@value #SAME_OBJECT}. Same polarity: a restatement; opposite ("I do
 *       not like maths" / "I have come to enjoy maths"): a contradiction. A negation before the
 *       verb flips its polarity.
 *   <li><b>Near-duplicate text</b>: the rules of {@link RuleConsolidator}: the same polarity and a
 *       Jaccard similarity of content words of at least {@value RuleConsolidator#NEAR_DUPLICATE} is
 *       a restatement; opposite polarity and at least {@value RuleConsolidator#SAME_STATEMENT} once
 *       negation words are removed is a contradiction.
 * </ol>
 *
 * Texts about different subjects or different things never match ("I like jazz" / "I like hiking").
 * Thread-safe and stateless.
 */
public final class SameFact {
  private SameFact() {}

  /** Minimum Jaccard similarity of the things two preferences are about. */
  public static final double SAME_OBJECT = 0.5;

  /** How a new statement relates to an earlier one. */
  public enum Kind {
    /** The same fact said again (same polarity). */
    RESTATES("restates"),
    /** The same fact with the opposite polarity. */
    CONTRADICTS("contradicts"),
    /** The same slot (subject + attribute) with another value: "moved to Porto" after Lisbon. */
    UPDATES("updates");

    private final String code;

    Kind(String code) {
      this.code = code;
    }

    public String code() {
      return code;
    }
  }

  /**
   * A match: the kind and the rule that found it ({@code subject+attribute}, {@code slot ...} or
   * {@code near-duplicate}).
   *
   * @param attribute the attribute both statements fill, in the words a question about it uses
   *     ("lives in", "works at", "likes running"), or "" when the rule names none (a
   *     near-duplicate, a switch from a value no slot names): the words of the fact key the write
   *     path derives
   */
  public record Match(
      Kind kind, String rule, boolean certain, boolean startsState, String attribute) {
    public Match {
      java.util.Objects.requireNonNull(attribute, "attribute");
    }

    /** A certain match that starts no state and names no attribute. */
    public Match(Kind kind, String rule) {
      this(kind, rule, true, false, "");
    }
  }

  private static final Map<String, Integer> PREFERENCE = preferenceVerbs();
  private static final Pattern TOKEN = Pattern.compile("[\\p{L}\\p{N}]+(?:['’][\\p{L}]+)?");
  private static final Set<String> NEGATORS =
      Set.of(
          "not", "never", "no", "don't", "doesn't", "didn't", "can't", "cannot", "won't", "isn't",
          "aren't", "wasn't", "haven't", "hasn't", "longer");

  /** Words between a verb and its object that say nothing about what is liked. */
  private static final Set<String> FILLERS =
      Set.of(
          "really",
          "very",
          "much",
          "lot",
          "actually",
          "also",
          "still",
          "now",
          "anymore",
          "longer",
          "truly",
          "quite",
          "so",
          "all",
          "especially",
          "always",
          "doing",
          "playing",
          "eating",
          "watching",
          "reading",
          "listening",
          "going",
          "working",
          "learning",
          "studying");

  private static Map<String, Integer> preferenceVerbs() {
    Map<String, Integer> m = new java.util.HashMap<>();
    for (String w :
        List.of(
            "like",
            "likes",
            "liked",
            "love",
            "loves",
            "loved",
            "enjoy",
            "enjoys",
            "enjoyed",
            "prefer",
            "prefers",
            "preferred",
            "adore",
            "adores",
            "fancy",
            "fancies")) {
      m.put(w, 1);
    }
    for (String w :
        List.of(
            "dislike",
            "dislikes",
            "disliked",
            "hate",
            "hates",
            "hated",
            "detest",
            "detests",
            "loathe",
            "loathes",
            "despise",
            "despises")) {
      m.put(w, -1);
    }
    return Map.copyOf(m);
  }

  /**
   * Whether {@code newer} restates or contradicts {@code older}, and by which rule; empty when
   * neither.
   */
  public static Optional<Match> match(String newer, String older) {
    String sa = subject(words(newer));
    String sb = subject(words(older));
    if (sa != null && sb != null && !sa.equals(sb))
      return Optional.empty(); // about different people
    // Statements that differ in their numbers, dates or identifiers are different facts
    // ("... marker r2w2i4 part 0" / "... marker r0w2i4 part 2"); a slot's value may differ.
    boolean sameMarks = marks(newer).equals(marks(older));
    Slots.Slot sn = Slots.of(newer);
    Slots.Slot so = sn == null ? null : Slots.of(older);
    if (sn != null && so != null && sn.subject().equals(so.subject())) {
      Optional<Match> slot = slotMatch(sn, so);
      if (slot.isPresent()) return slot;
    }
    if (sn != null && !sn.from().isEmpty() && sn.subject().equals(subjectOf(older, so))) {
      // "I switched from Vim to VS Code": the record that says Vim, in a slot or not.
      Set<String> ow = so != null ? so.value() : RuleConsolidator.contentWords(older);
      if (ow.containsAll(sn.from()))
        return Optional.of(
            new Match(
                Kind.UPDATES,
                "slot " + sn.attribute() + " (from)",
                so != null,
                sn.change(),
                Slots.attributeWords(sn)));
    }
    if (!sameMarks) return Optional.empty();
    Preference a = preference(newer);
    Preference b = preference(older);
    if (a != null
        && b != null
        && a.subject.equals(b.subject)
        && RuleConsolidator.jaccard(a.object, b.object) >= SAME_OBJECT) {
      return Optional.of(
          new Match(
              a.polarity == b.polarity ? Kind.RESTATES : Kind.CONTRADICTS,
              "subject+attribute",
              true,
              false,
              "likes " + String.join(" ", a.object)));
    }
    Set<String> wa = RuleConsolidator.contentWords(newer);
    Set<String> wb = RuleConsolidator.contentWords(older);
    double j = RuleConsolidator.jaccard(wa, wb);
    boolean opposite = RuleConsolidator.negated(newer) != RuleConsolidator.negated(older);
    if (!wa.isEmpty() && !opposite && j >= RuleConsolidator.NEAR_DUPLICATE) {
      return Optional.of(new Match(Kind.RESTATES, "near-duplicate"));
    }
    if (!wa.isEmpty() && opposite && j >= RuleConsolidator.SAME_STATEMENT) {
      return Optional.of(new Match(Kind.CONTRADICTS, "near-duplicate"));
    }
    return Optional.empty();
  }

  private static String subjectOf(String text, Slots.Slot slot) {
    if (slot != null) return slot.subject();
    String s = subject(words(text));
    return s;
  }

  /** Same subject: the same attribute is the same slot; a tool's purpose may be worded apart. */
  private static Optional<Match> slotMatch(Slots.Slot n, Slots.Slot o) {
    boolean same = n.attribute().equals(o.attribute());
    boolean certain = n.certain() && o.certain();
    if (!same && n.attribute().startsWith("tool:") && o.attribute().startsWith("tool:")) {
      Set<String> pn = Set.of(n.attribute().substring(5).split(" "));
      Set<String> po = Set.of(o.attribute().substring(5).split(" "));
      if (n.attribute().equals("tool:") || o.attribute().equals("tool:")) {
        // One says what the tool is for, the other not: maybe the same slot; both are kept.
        same = n.from().isEmpty() || o.value().containsAll(n.from());
        certain = !n.from().isEmpty() && o.value().containsAll(n.from());
      } else same = RuleConsolidator.jaccard(pn, po) >= SAME_OBJECT;
    }
    if (!same) return Optional.empty();
    Kind kind = n.value().equals(o.value()) ? Kind.RESTATES : Kind.UPDATES;
    return Optional.of(
        new Match(
            kind,
            "slot " + n.attribute().replace("tool:", "tool for "),
            certain,
            n.change(),
            // the attribute as the statement that says what the tool is for names it
            Slots.attributeWords(n.attribute().equals("tool:") ? o : n)));
  }

  /** A word, a number or a currency sign: the tokens {@link #marks} reads, in text order. */
  private static final Pattern MARK_TOKEN = Pattern.compile("[\\p{L}\\p{N}]+|\\p{Sc}");

  /** Words that are marks wherever they stand: number words, month and weekday names. */
  private static final Set<String> NUMBER_WORDS =
      Set.of(
          "zero",
          "one",
          "two",
          "three",
          "four",
          "five",
          "six",
          "seven",
          "eight",
          "nine",
          "ten",
          "eleven",
          "twelve",
          "twenty",
          "thirty",
          "hundred",
          "thousand",
          "million",
          "first",
          "second",
          "third",
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
          "sunday");

  /**
   * Words that are marks next to a number only, being common words elsewhere: "May 3" (not "you
   * may"), abbreviated months and weekdays ("3 Mar", "Sat 4"), "4 pm", and ISO 4217 currency codes
   * ("40 USD", "CHF 12.50"; the JDK's list).
   */
  private static final Set<String> NEXT_TO_A_NUMBER = nextToANumber();

  private static Set<String> nextToANumber() {
    Set<String> s =
        new java.util.HashSet<>(
            List.of(
                "may", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov",
                "dec", "mon", "tue", "tues", "wed", "thu", "thur", "thurs", "fri", "sat", "sun",
                "am", "pm"));
    for (java.util.Currency c : java.util.Currency.getAvailableCurrencies())
      s.add(c.getCurrencyCode().toLowerCase(Locale.ROOT));
    return Set.copyOf(s);
  }

  /**
   * The words that make a statement distinct however similar the rest is, in the order of the text:
   * every token with a digit (numbers, dates, amounts, versions, ids such as "r2w2i4"), currency
   * signs, number words, month and weekday names, and next to a number the words of {@link
   * #NEXT_TO_A_NUMBER}. "part 0" and "part 2" differ, and so do "3 to 1" and "1 to 3", "$40" and
   * "€40", "4 May" and "4 Nov"; case and punctuation do not count.
   */
  static List<String> marks(String text) {
    List<String> tokens = new ArrayList<>();
    Matcher m = MARK_TOKEN.matcher(text.toLowerCase(Locale.ROOT));
    while (m.find()) tokens.add(m.group());
    List<String> out = new ArrayList<>();
    for (int i = 0; i < tokens.size(); i++) {
      String t = tokens.get(i);
      boolean mark =
          hasDigit(t)
              || !Character.isLetterOrDigit(t.codePointAt(0))
              || NUMBER_WORDS.contains(t)
              || NEXT_TO_A_NUMBER.contains(t)
                  && (i > 0 && hasDigit(tokens.get(i - 1))
                      || i + 1 < tokens.size() && hasDigit(tokens.get(i + 1)));
      if (mark) out.add(t);
    }
    return out;
  }

  private static boolean hasDigit(String token) {
    return token.codePoints().anyMatch(Character::isDigit);
  }

  private record Preference(String subject, int polarity, Set<String> object) {}

  /**
   * The statement as subject, preference polarity and object words, or null when it states no
   * preference.
   */
  private static List<String> words(String text) {
    List<String> raw = new ArrayList<>();
    Matcher m = TOKEN.matcher(text.replace('’', '\''));
    while (m.find()) raw.add(m.group());
    return raw;
  }

  private static Preference preference(String text) {
    List<String> raw = words(text);
    String subject = subject(raw);
    if (subject == null || PRONOUNS.contains(subject))
      return null; // "she likes ...": whose preference is unclear
    for (int i = 0; i < raw.size(); i++) {
      String w = raw.get(i).toLowerCase(Locale.ROOT);
      Integer polarity = PREFERENCE.get(w);
      if (polarity == null) continue;
      boolean negated = false; // "no longer", "do not": one negation, however many words say it
      for (int j = Math.max(0, i - 3); j < i; j++)
        negated |= NEGATORS.contains(raw.get(j).toLowerCase(Locale.ROOT));
      int p = negated ? -polarity : polarity;
      Set<String> object =
          new LinkedHashSet<>(RuleConsolidator.contentWords(clauseAfter(text, raw.get(i))));
      object.removeAll(FILLERS);
      object.removeAll(PREFERENCE.keySet());
      if (object.isEmpty()) return null;
      return new Preference(subject, p, object);
    }
    return null;
  }

  /**
   * The words after the first {@code verb} up to the end of its clause: "I don't like running
   * anymore, my knees hurt" is about running, not knees.
   */
  private static String clauseAfter(String text, String verb) {
    String t = text.replace('’', '\'');
    Matcher m = Pattern.compile("(?<![\\p{L}])" + Pattern.quote(verb) + "(?![\\p{L}])").matcher(t);
    if (!m.find()) return "";
    String rest = t.substring(m.end());
    int end = rest.length();
    for (char c : new char[] {',', '.', ';', '!', '?'}) {
      int i = rest.indexOf(c);
      if (i >= 0 && i < end) end = i;
    }
    return rest.substring(0, end);
  }

  private static final Set<String> PRONOUNS =
      Set.of("he", "she", "they", "we", "you", "his", "her", "their", "our", "your");

  /**
   * "self" for a first-person statement, another personal pronoun as itself, the first word when it
   * is a name (capitalized), else null (unclear: "The deploy runs ...").
   */
  private static String subject(List<String> raw) {
    if (raw.isEmpty()) return null;
    String first = raw.get(0).toLowerCase(Locale.ROOT);
    if (first.equals("i") || first.startsWith("i'") || first.equals("my") || first.equals("me"))
      return "self";
    if (PRONOUNS.contains(first)) return first;
    if (Character.isUpperCase(raw.get(0).charAt(0))
        && !Set.of("it", "the", "this", "that", "a", "an", "there").contains(first)) {
      return first.endsWith("'s") ? first.substring(0, first.length() - 2) : first;
    }
    return null;
  }
}
