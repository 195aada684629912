package dev.mnemo.text;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Word lists and the content words of a text, shared by the write path (is a turn worth keeping?)
 * and the read path (does a message need memory at all? which of a question's words must a record
 * match?).
 *
 * <p>Hand-written: the lists are the few hundred greetings, acknowledgements and function words of
 * everyday English chat; Lucene's English stop set is smaller (33 words, no greetings) and a
 * stemmer library would be a dependency of core for a suffix rule of four lines. Thread-safe.
 */
public final class Words {
  private Words() {}

  /** Greetings, thanks, acknowledgements and small-talk words: never content. */
  public static final Set<String> FILLER =
      Set.of(
          "hi",
          "hey",
          "hello",
          "hiya",
          "yo",
          "thanks",
          "thank",
          "thx",
          "welcome",
          "bye",
          "goodbye",
          "cheers",
          "okay",
          "ok",
          "sure",
          "yes",
          "yeah",
          "yep",
          "nope",
          "lol",
          "haha",
          "hahaha",
          "wow",
          "great",
          "cool",
          "nice",
          "awesome",
          "amazing",
          "wonderful",
          "fantastic",
          "glad",
          "sounds",
          "sound",
          "good",
          "night",
          "morning",
          "evening",
          "afternoon",
          "see",
          "later",
          "soon",
          "talk",
          "chat",
          "catch",
          "care",
          "take",
          "hear",
          "hope",
          "doing",
          "today",
          "tonight",
          "day",
          "how",
          "what",
          "much",
          "very",
          "really",
          "totally",
          "absolutely",
          "definitely",
          "indeed",
          "agree",
          "right",
          "true",
          "exactly",
          "too",
          "also",
          "well",
          "awww",
          "aww",
          "omg",
          "hmm",
          "ah",
          "oh",
          "please",
          "sorry",
          "fine",
          "perfect",
          "happy",
          "thrilled",
          "incredible",
          "super",
          "lovely",
          "cute",
          "beautiful",
          "congrats",
          "congratulations",
          "same",
          "you",
          "your",
          "that's",
          "it's",
          "what's",
          "how's",
          "i'm",
          "you're",
          "i'll",
          "let",
          "let's",
          "know",
          "things",
          "thing",
          "stuff",
          "anything",
          "something",
          "everything",
          "keep",
          "up",
          "luck",
          "best",
          "wishes");

  /**
   * Words that make a message small talk on top of {@link #FILLER}: the rest of a greeting or a
   * thank-you ("how's it going?", "that was helpful, appreciate it"). Not filler for the write
   * path, where "going" or "helpful" can be part of a fact.
   */
  static final Set<String> SMALL_TALK =
      Set.of(
          "going",
          "goes",
          "been",
          "helpful",
          "useful",
          "appreciate",
          "appreciated",
          "meet",
          "met",
          "weekend",
          "again",
          "buddy",
          "friend",
          "folks",
          "everyone",
          "guys",
          "alright",
          "noted",
          "understood",
          "gotcha",
          "got",
          "makes",
          "sense",
          "works",
          "worked",
          "done",
          "fun",
          "enjoy",
          "enjoyed",
          "having",
          "hanging",
          "life",
          "treating",
          "new",
          "up",
          "much",
          "appreciation",
          "kind",
          "sweet",
          "brilliant",
          "excellent",
          "neat",
          "fab",
          "bless",
          "welcome",
          "dear",
          "mate",
          "pal");

  /**
   * Function words that carry what a question asks about ("What does Alice like?", "what did she
   * say about it?"): content for the fetch decision.
   */
  static final Set<String> ASKED_VERBS =
      Set.of("like", "make", "made", "say", "said", "tell", "told", "mean", "own");

  /** Words that greet or thank: beside them a name is an address, not a topic. */
  static final Set<String> GREETINGS =
      Set.of(
          "hi",
          "hey",
          "hello",
          "hiya",
          "yo",
          "thanks",
          "thank",
          "thx",
          "cheers",
          "bye",
          "goodbye",
          "morning",
          "evening",
          "night",
          "welcome",
          "congrats",
          "congratulations",
          "dear");

  /** Function words: never content. */
  public static final Set<String> FUNCTION =
      Set.of(
          "the", "and", "for", "but", "not", "are", "was", "were", "been", "being", "have", "has",
          "had", "with", "this", "that", "these", "those", "there", "here", "they", "them", "their",
          "she", "her", "his", "him", "our", "ours", "its", "who", "whom", "whose", "which", "when",
          "where", "why", "can", "could", "would", "should", "will", "shall", "may", "might",
          "must", "does", "did", "done", "from", "into", "onto", "about", "than", "then", "just",
          "all", "any", "some", "one", "get", "got", "out", "off", "over", "again", "still", "yet",
          "now", "ever", "even", "more", "most", "such", "only", "own", "other", "too", "very",
          "say", "said", "tell", "told", "mean", "made", "make", "like", "lot", "lots", "bit",
          "way", "it", "is", "so", "to", "of", "in", "on", "at", "by", "we", "me", "my", "an", "or",
          "if", "be", "do", "as", "up", "no", "i");

  /**
   * Words of a question that say what kind of answer is wanted, not what it is about ("what did
   * Maya say about her phone" is about the phone): ignored when measuring how much of a question a
   * record covers.
   */
  static final Set<String> ASKING =
      Set.of(
          "what",
          "which",
          "who",
          "whom",
          "whose",
          "when",
          "where",
          "why",
          "how",
          "many",
          "much",
          "does",
          "did",
          "remind",
          "recall",
          "remember",
          "tell",
          "know",
          "think",
          "thought",
          "note",
          "noted",
          "say",
          "said",
          "mention",
          "mentioned",
          "currently",
          "current",
          "now",
          "these",
          "days",
          "again",
          "please",
          "anything",
          "something",
          "kind",
          "type",
          "sort",
          "our",
          "your",
          "you",
          "we",
          "us",
          "me",
          "my",
          "mine",
          "i'm",
          "i've",
          "what's",
          "who's",
          "where's",
          "there",
          "any",
          "ever",
          "still",
          "use",
          "uses",
          "using",
          "have",
          "has",
          "had",
          "get",
          "got",
          "time",
          "times",
          "last",
          "first",
          "recently",
          "lately",
          "ago",
          "before",
          "after");

  /** Lower case, curly apostrophe made straight, possessive removed. */
  static String lower(String w) {
    String s = w.toLowerCase(Locale.ROOT).replace('’', '\'');
    if (s.endsWith("'s")) s = s.substring(0, s.length() - 2);
    return s;
  }

  /**
   * A crude English stem, enough for matching a question's word against a record's ("moved" /
   * "moving" / "moves" -> "mov"): trailing "ing", "ed", "es", "s" cut from words of five letters or
   * more.
   */
  public static String stem(String w) {
    String s = lower(w);
    if (s.length() >= 6 && s.endsWith("ing")) return s.substring(0, s.length() - 3);
    if (s.length() >= 5 && s.endsWith("ed")) return s.substring(0, s.length() - 2);
    if (s.length() >= 5 && s.endsWith("es")) return s.substring(0, s.length() - 2);
    if (s.length() >= 4 && s.endsWith("s") && !s.endsWith("ss"))
      return s.substring(0, s.length() - 1);
    return s;
  }

  /**
   * The lower-cased words of a text, in order: each a letter or number followed by letters, numbers
   * and apostrophes (the regular expression {@code [\p{L}\p{N}][\p{L}\p{N}'’]*}, which {@code
   * WordsTest} holds this scan to). Scanned by hand: the read path splits every candidate's text on
   * every recall, and the regular expression's matcher was three quarters of that time.
   */
  public static List<String> words(String text) {
    List<String> out = new ArrayList<>();
    if (text == null) return out;
    int n = text.length();
    int i = 0;
    while (i < n) {
      int cp = text.codePointAt(i);
      if (!letterOrNumber(cp)) {
        i += Character.charCount(cp);
        continue;
      }
      int start = i;
      i += Character.charCount(cp);
      while (i < n) {
        int c = text.codePointAt(i);
        if (!letterOrNumber(c) && c != '\'' && c != '’') break;
        i += Character.charCount(c);
      }
      out.add(lower(text.substring(start, i)));
    }
    return out;
  }

  /** Whether a code point is in Unicode's L or N categories ({@code \p{L}}, {@code \p{N}}). */
  private static boolean letterOrNumber(int cp) {
    if (cp < 128) return (cp | 0x20) >= 'a' && (cp | 0x20) <= 'z' || cp >= '0' && cp <= '9';
    if (Character.isLetter(cp)) return true;
    int type = Character.getType(cp);
    return type == Character.DECIMAL_DIGIT_NUMBER
        || type == Character.LETTER_NUMBER
        || type == Character.OTHER_NUMBER;
  }

  private static final Pattern KEY_PART =
      Pattern.compile("\\p{Lu}+(?=\\p{Lu}\\p{Ll})|\\p{Lu}?[\\p{Ll}\\p{N}]+|[\\p{Lu}\\p{N}]+");

  /**
   * A fact key as words ("home_city", "homeCity", "user.home-city" -> "home city", "preferredIDE"
   * -> "preferred ide"; "user" and parts holding a digit dropped, so an opaque key such as "k17" or
   * a UUID gives "", and so does a key the write path derived without naming an attribute, {@code
   * auto/<record id>}; a derived key that names one, {@code auto/<record id>/slot:home-lives-in},
   * gives those words, "home lives in"): the name of the attribute a record states, which the read
   * path matches a question against as well as the record's text ("where does Maya live?" and "home
   * city: Maya rents a flat in Porto").
   */
  public static String factKeyWords(String key) {
    if (key == null) return "";
    if (key.startsWith(AUTO)) {
      int named = key.lastIndexOf(NAMED);
      if (named < 0) return "";
      key = key.substring(named + NAMED.length());
    }
    StringBuilder out = new StringBuilder();
    Matcher m = KEY_PART.matcher(key);
    while (m.find()) {
      String part = m.group().toLowerCase(Locale.ROOT);
      if (part.chars().anyMatch(Character::isDigit) || part.equals("user")) continue;
      if (!out.isEmpty()) out.append(' ');
      out.append(part);
    }
    return out.toString();
  }

  /** The prefix of a fact key the write path derives for records written without one. */
  public static final String AUTO = "auto/";

  private static final String NAMED = "/slot:";

  /** The most characters of a derived key's attribute words. */
  private static final int MAX_NAMED = 64;

  /**
   * The fact key the write path gives a record written without one once a later record is found to
   * state the same fact: {@code auto/<id>} (id: the older record's), or {@code
   * auto/<id>/slot:<words>} when the rule that matched them names the attribute ("home, lives in"
   * gives {@code auto/<id>/slot:home-lives-in}), whose words {@link #factKeyWords} then gives back,
   * so the versions are matched on the attribute as a keyed fact's are on its key ("Which city do I
   * live in?" and "I moved to Lisbon last month.").
   */
  public static String derivedKey(String id, String attributeWords) {
    String slug =
        attributeWords == null
            ? ""
            : attributeWords.strip().toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}]+", "-");
    slug = slug.replaceAll("^-+|-+$", "");
    if (slug.length() > MAX_NAMED) slug = slug.substring(0, MAX_NAMED).replaceAll("-+$", "");
    return slug.isEmpty() ? AUTO + id : AUTO + id + NAMED + slug;
  }

  /**
   * What a record is matched on: its fact key's words ({@link #factKeyWords}), a colon, its text.
   */
  public static String withFactKey(String factKey, String text) {
    String key = factKeyWords(factKey);
    return key.isEmpty() ? text : key + ": " + text;
  }

  /** The stems of a text's words, for matching against {@link #contentStems}. */
  public static Set<String> stems(String text) {
    Set<String> out = new LinkedHashSet<>();
    for (String w : words(text)) out.add(stem(w));
    return out;
  }

  /**
   * The stems of what a question is about: its words of three letters or more that are neither
   * function words, filler nor asking words, nor one of {@code ignore} (normalized names to leave
   * out, e.g. the owner's own name, which every record of theirs mentions).
   */
  public static Set<String> contentStems(String text, Set<String> ignore) {
    Set<String> out = new LinkedHashSet<>();
    for (String w : words(text)) {
      if (w.length() < 3 || FUNCTION.contains(w) || FILLER.contains(w) || ASKING.contains(w))
        continue;
      if (ignore.contains(w)) continue;
      out.add(stem(w));
    }
    return out;
  }

  /** The first person singular, as {@link #words} returns it. */
  private static final Set<String> FIRST_PERSON =
      Set.of("i", "me", "my", "mine", "myself", "i'm", "i've", "i'd", "i'll", "i’m", "i’ve");

  /**
   * Whether a text speaks in the first person singular ("I have a dog", "my sister"): in a memory
   * of its owner that is the owner, whatever name a question uses for them.
   */
  public static boolean isFirstPerson(String text) {
    for (String w : words(text)) if (FIRST_PERSON.contains(w)) return true;
    return false;
  }

  /**
   * Whether a message needs no memory: a greeting, thanks, an acknowledgement or other small talk.
   * True when none of its words is content, counting greetings, thanks, small-talk words, function
   * words and, in a message that greets or thanks, names (capitalized words, {@link
   * Entities#extract}: "Hi Maya!" is a greeting) as not content, and the message is not empty.
   * "Thanks, that was helpful!", "Hey Sam, how's it going?" and "ok" are small talk; "What's my
   * sister's name?" is not.
   */
  public static boolean isSmallTalk(String message) {
    if (message == null || message.isBlank()) return false;
    List<String> all = words(message);
    // A name is no content only beside a greeting or a thank-you ("Hi Maya!", "Thanks, Sam"); a
    // capitalized word elsewhere may be what the question is about ("Allergies?").
    boolean greets = all.stream().anyMatch(GREETINGS::contains);
    Set<String> names = greets ? new java.util.HashSet<>(Entities.extract(message)) : Set.of();
    int words = 0;
    for (String w : all) {
      words++;
      boolean function = FUNCTION.contains(w) && !ASKED_VERBS.contains(w);
      if (FILLER.contains(w) || SMALL_TALK.contains(w) || function || names.contains(w)) continue;
      if (w.length() < 3 && !w.chars().allMatch(Character::isDigit)) continue;
      return false;
    }
    return words > 0;
  }
}
