package dev.mnemo.write;

import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The slot a statement fills: its subject and the attribute it states (where someone lives, whom
 * they work for, what they eat, which tool they use for something, or "X's Y is Z"), with the value
 * it gives. "lives in", "moved to", "relocated to" and "is based in" are one attribute. Frames of
 * English grammar, not sentences: each is a verb group and its preposition, the subject is the
 * words before it ("I" is the speaker), the value the words after it up to the end of the clause.
 *
 * <p>Hand-written because no library on Maven Central does English slot filling offline without a
 * model; the LLM consolidator is the open-wording alternative. A plan ("I am planning to move to
 * Berlin") fills no slot: it does not say what holds. Thread-safe and stateless.
 */
final class Slots {
  private Slots() {}

  /**
   * A statement's slot.
   *
   * @param subject "self" for the speaker, else the subject words lower-cased
   * @param attribute e.g. {@code residence}, {@code employer}, {@code diet}, {@code tool:edit}
   * @param value the content words of the value
   * @param from the content words of the value it says was left ("moved from Lisbon to Porto"), or
   *     empty
   * @param change the verb says the state began ("moved", "joined", "became", "switched")
   * @param certain false where the attribute is a guess (a tool without what it is used for)
   */
  record Slot(
      String subject,
      String attribute,
      Set<String> value,
      Set<String> from,
      boolean change,
      boolean certain) {}

  /**
   * The attribute in the words a question about it uses, for the fact key a slot's versions share
   * ({@link dev.mnemo.text.Words#derivedKey}): its noun and its state's verb, "home, lives in" for
   * {@code residence}, "employer, works at" for {@code employer}, "uses for editing code" for
   * {@code tool:editing code}, "birthday" for {@code has:birthday}; empty for {@code switch}, whose
   * attribute is unknown. A change verb ("moved to", "joined", "switched to") names the event, not
   * the state a later question asks about ("Where do I live?", "Who is my employer?"), so the
   * state's words are the ones given.
   */
  static String attributeWords(Slot s) {
    String a = s.attribute();
    if (a.startsWith("tool:")) return a.length() > 5 ? "uses for " + a.substring(5) : "uses";
    if (a.startsWith("has:")) return a.substring(4);
    return switch (a) {
      case "residence" -> "home, lives in";
      case "employer" -> "employer, works at";
      case "role" -> "job, works as";
      case "diet" -> "diet";
      default -> "";
    };
  }

  private record Frame(String attribute, Pattern pattern, boolean change, boolean proper) {}

  private static final String END =
      "(?<v>[^,.;!?]+?)(?=\\s+(?:and|but|because|since|so|after|"
          + "before|when|while|in\\s+\\d{4}|in\\s+(?:january|february|march|april|may|june|july|august"
          + "|september|october|november|december)|last|this|next|a\\s+few|\\d+\\s+\\w+\\s+ago|two|three"
          + "|for\\s+(?!the|my|his|her|our))\\b|[,.;!?]|$)";

  private static Frame frame(String attribute, String verbs, boolean change, boolean proper) {
    return new Frame(
        attribute,
        Pattern.compile(
            "(?<![\\p{L}\\p{N}])(?:" + verbs + ")\\s+" + END,
            Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE),
        change,
        proper);
  }

  private static final String FROM =
      "(?:\\s+(?:back|away|out|over|house|home))*(?:\\s+from\\s+(?<f>[^,.;]+?))?";

  private static final List<Frame> FRAMES =
      List.of(
          frame(
              "residence",
              "(?:moved|moving|move|moves|relocated|relocating|relocate|relocates)"
                  + FROM
                  + "\\s+(?:to|into|in)",
              true,
              false),
          frame("residence", "(?:settled(?:\\s+down)?)\\s+in", true, false),
          frame(
              "residence",
              "(?:lives?|living|lived|resides?|residing|resided|stays|staying|based|home\\s+is)"
                  + "(?:\\s+(?:now|still|currently))?\\s+(?:in|at)",
              false,
              false),
          frame(
              "employer",
              "(?:works?|working|worked|employed|job\\s+is|a\\s+job)(?:\\s+(?:now|still|currently))?"
                  + "\\s+(?:at|for|by|with)",
              false,
              true),
          frame(
              "employer",
              "(?:joined|joining|joins|started\\s+(?:working\\s+)?(?:at|for)|starting\\s+(?:at|for)"
                  + "|(?:got|found|started|starting|took)\\s+a\\s+(?:new\\s+)?job\\s+(?:at|with|for)"
                  + "|new\\s+job\\s+(?:at|with|for)|hired\\s+(?:by|at)|switched\\s+jobs\\s+to)",
              true,
              true),
          frame(
              "role",
              "(?:works?|working|worked|job\\s+is|started)\\s+as(?:\\s+an?)?",
              false,
              false));

  private static final Pattern DIET =
      Pattern.compile(
          "(?<![\\p{L}])(?<neg>(?:not|no\\s+longer|never)\\s+(?:\\w+\\s+)?)?(?:(?<chg>went|gone|go|going|became|become|turned|switched\\s+to)\\s+|(?:am|is|are|'m|'s|been|stay|stayed|staying|stays|eat|eats|eating|follow|follows|following|on)\\s+)(?:a\\s+|an\\s+|fully\\s+|strictly\\s+|mostly\\s+|completely\\s+|now\\s+)?(?<v>vegetarian|vegan|pescatarian|keto|paleo|carnivore|omnivore|flexitarian|gluten[- ]free|dairy[- ]free|plant[- ]based)",
          Pattern.CASE_INSENSITIVE);

  private static final Pattern MEAT =
      Pattern.compile(
          "(?<![\\p{L}])(?:eat|eats|eating|ate|started\\s+eating)\\s+(?<v>meat|fish|chicken)\\s+again",
          Pattern.CASE_INSENSITIVE);

  private static final Pattern TOOL =
      Pattern.compile(
          "(?<![\\p{L}])(?<verb>use|uses|using|used|switched\\s+to|switching\\s+to|switched\\s+over\\s+to"
              + "|migrated\\s+to|changed\\s+to|went\\s+back\\s+to|gone\\s+back\\s+to|moved\\s+over\\s+to"
              + "|rely\\s+on|relies\\s+on|prefer\\s+using)\\s+(?<v>[^,.;!?]+?)"
              + "(?:\\s+(?:for|as\\s+(?:my|our|his|her|the|a|an))\\s+(?<p>[^,.;!?]+?))?(?=\\s+(?:now|"
              + "these\\s+days|instead|again|every|at\\s+work|since|last|this|in\\s+\\d{4})\\b|[,.;!?]|$)",
          Pattern.CASE_INSENSITIVE);

  private static final Pattern SWITCH =
      Pattern.compile(
          "(?<![\\p{L}])(?:switched|moved|changed|went|migrated|upgraded|transitioned|converted)"
              + "(?:\\s+over)?\\s+from\\s+(?<f>[^,.;]+?)\\s+to\\s+(?<v>[^,.;!?]+?)(?=\\s+(?:in|last|this"
              + "|a\\s+few|since|because|and|for)\\b|[,.;!?]|$)",
          Pattern.CASE_INSENSITIVE);

  private static final Pattern COPULA =
      Pattern.compile(
          "^(?<s>(?:my|[\\p{Lu}][\\p{L}]+['’]s))\\s+(?<a>(?:[\\p{L}-]+\\s+){0,2}?[\\p{L}-]+)\\s+(?:is|are)"
              + "(?:\\s+(?:now|still|currently|actually|no\\s+longer))?\\s+(?!in\\b|at\\b|on\\b|from\\b"
              + "|a\\b|an\\b|not\\b|very\\b|so\\b|really\\b|getting\\b|going\\b)(?<v>[^,.;!?]+)",
          Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);

  private static final Set<String> AUX =
      Set.of(
          "am",
          "is",
          "are",
          "was",
          "were",
          "has",
          "have",
          "had",
          "been",
          "just",
          "recently",
          "now",
          "finally",
          "also",
          "currently",
          "still",
          "actually",
          "already",
          "then",
          "i'm",
          "i've",
          "i",
          "we",
          "we've",
          "we're",
          "she's",
          "he's",
          "really",
          "officially",
          "to",
          "will",
          "not",
          "no",
          "longer",
          "never",
          "don't",
          "doesn't",
          "didn't",
          "do",
          "does",
          "did");

  private static final Set<String> SELF = Set.of("i", "i'm", "i've", "i'd", "me", "myself");

  private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}]+(?:['’][\\p{L}]+)?");

  /** The slot {@code text} fills, or null when it fills none this class knows. */
  static Slot of(String text) {
    if (text == null || EventTimes.PLAN.matcher(text).find()) return null;
    // Contractions spelt out, so "I'm vegetarian" has its verb as a word of its own.
    String t =
        text.replace('’', '\'')
            .replaceAll("(?i)\\b(i)'m\\b", "$1 am")
            .replaceAll("(?i)'ve\\b", " have")
            .replaceAll("(?i)'re\\b", " are")
            .strip();
    Matcher c = COPULA.matcher(t);
    if (c.find()) {
      String s = c.group("s").toLowerCase(Locale.ROOT);
      String subject = s.equals("my") ? "self" : s.substring(0, s.length() - 2);
      Set<String> value = RuleConsolidator.contentWords(c.group("v"));
      Set<String> attr = RuleConsolidator.contentWords(c.group("a"));
      if (!attr.isEmpty() && !value.isEmpty() && value.size() <= 5)
        return new Slot(subject, "has:" + String.join(" ", attr), value, Set.of(), false, true);
    }
    Matcher d = DIET.matcher(t);
    if (d.find()) {
      String subject = subject(t.substring(0, d.start()));
      if (subject != null) {
        String v = d.group("v").toLowerCase(Locale.ROOT).replace(' ', '-');
        boolean negated =
            d.group("neg") != null || RuleConsolidator.negated(t.substring(0, d.start()));
        return new Slot(
            subject,
            "diet",
            Set.of(negated ? "not-" + v : v),
            Set.of(),
            d.group("chg") != null,
            true);
      }
    }
    Matcher meat = MEAT.matcher(t);
    if (meat.find()) {
      String subject = subject(t.substring(0, meat.start()));
      if (subject != null)
        return new Slot(subject, "diet", Set.of("eats-" + meat.group("v")), Set.of(), true, true);
    }
    Matcher sw = SWITCH.matcher(t);
    Set<String> switchedFrom = sw.find() ? RuleConsolidator.contentWords(sw.group("f")) : Set.of();
    for (Frame f : FRAMES) {
      Matcher m = f.pattern().matcher(t);
      if (!m.find()) continue;
      String subject = subject(t.substring(0, m.start()));
      if (subject == null) continue;
      String raw = m.group("v").strip();
      if (f.proper() && (raw.isEmpty() || !Character.isUpperCase(raw.charAt(0)))) continue;
      Set<String> value = RuleConsolidator.contentWords(raw);
      if (value.isEmpty()) continue;
      Set<String> from = Set.of();
      try {
        if (m.group("f") != null) from = RuleConsolidator.contentWords(m.group("f"));
      } catch (IllegalArgumentException noGroup) {
        // a frame without a "from" clause
      }
      return new Slot(subject, f.attribute(), value, from, f.change(), true);
    }
    Matcher tool = TOOL.matcher(t);
    if (tool.find()) {
      String subject = subject(t.substring(0, tool.start()));
      Set<String> value = RuleConsolidator.contentWords(tool.group("v"));
      if (subject != null && !value.isEmpty()) {
        boolean change = !tool.group("verb").toLowerCase(Locale.ROOT).startsWith("us");
        String purpose =
            tool.group("p") == null
                ? ""
                : String.join(" ", RuleConsolidator.contentWords(tool.group("p")));
        return new Slot(
            subject,
            "tool:" + purpose,
            value,
            switchedFrom,
            change || !switchedFrom.isEmpty(),
            !purpose.isEmpty());
      }
    }
    if (!switchedFrom.isEmpty()) {
      String subject = subject(t.substring(0, sw.start()));
      Set<String> value = RuleConsolidator.contentWords(sw.group("v"));
      if (subject != null && !value.isEmpty())
        return new Slot(subject, "switch", value, switchedFrom, true, false);
    }
    return null;
  }

  /**
   * The subject of a clause from the words before its verb: "self" for "I", "I have", "I'm"; a name
   * or a noun phrase ("lena", "my sister") otherwise; null for a pronoun other than "I" or when no
   * word is left.
   */
  static String subject(String before) {
    List<String> words = new java.util.ArrayList<>();
    Matcher m = WORD.matcher(before.toLowerCase(Locale.ROOT).replace('’', '\''));
    while (m.find()) words.add(m.group());
    if (words.isEmpty()) return null;
    if (SELF.contains(words.get(0))) return "self";
    List<String> kept = new java.util.ArrayList<>();
    for (String w : words) if (!AUX.contains(w)) kept.add(w);
    if (kept.isEmpty()) return null;
    String first = kept.get(0);
    if (Set.of("he", "she", "they", "you", "it", "this", "that", "there", "we").contains(first))
      return null;
    if (kept.size() > 4) return null; // a long clause before the verb: not a plain subject
    String s = String.join(" ", kept);
    return s.endsWith("'s") ? s.substring(0, s.length() - 2) : s;
  }
}
