package dev.mnemo.write;

import dev.mnemo.Category;
import dev.mnemo.NewMemory;
import dev.mnemo.Turn;
import dev.mnemo.spi.Extractor;
import dev.mnemo.text.Entities;
import dev.mnemo.text.Words;
import dev.mnemo.time.TimeExpressions;
import dev.mnemo.time.TimeRange;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The default extractor: no language model, deterministic, a few documented rules. A user or
 * assistant turn that says something about a person or the world becomes one memory; greetings,
 * filler, chatter, echoes and bare questions become none (they stay in the turn log and in their
 * neighbours' context).
 *
 * <p>The rules, in order (also in {@code docs/write-path.md}):
 *
 * <ol>
 *   <li><b>Filler.</b> A turn is skipped when fewer than {@value #MIN_CONTENT_WORDS} of its words
 *       are content words: words of three letters or more that are not on the filler list
 *       (greetings, thanks, acknowledgements, small-talk words such as "great", "awesome", "today",
 *       "doing") nor on the function-word list. "Thanks so much, sounds great!" and "Hey Mel, how
 *       are you?" are skipped; "I moved to Berlin" is kept.
 *   <li><b>Selectivity</b> ({@link #saysSomething}), in the spirit of the LLM extractor's prompt
 *       (decisions, preferences, goals, difficulties, facts about people; no small talk, no
 *       echoes). A turn is kept when at least one of its sentences says something. A sentence's
 *       <i>new</i> words are its content words (as in rule 1, stemmed) that the previous turn of
 *       the same episode by another speaker did not use: an echo ("Marley's perfect!" after "I'm
 *       after Marley flooring") has none. A sentence says something when it
 *       <ul>
 *         <li>has a cue of rule 4 and at least one new word, or
 *         <li>is about the speaker (I, my, we, our, me) and has at least {@value #MIN_NEW_WORDS}
 *             new words ("I lost my job as a banker"), or
 *         <li>has a number, or a name inside the sentence that is not one of the batch's speakers,
 *             and at least one new word ("It's Shia Labeouf!"), or
 *         <li>speaks of neither the speaker nor the listener (no I/my/we nor you/your) and has at
 *             least {@value #MIN_NEW_WORDS_THIRD_PERSON} new words ("They need a lot of water in
 *             summer").
 *       </ul>
 *       A question says something only when it is about the speaker and has at least {@value
 *       #MIN_NEW_WORDS_THIRD_PERSON} new words ("Should I pick Postgres or MySQL for my project?");
 *       reactions and compliments addressed to the listener ("Wow, your store looks great!",
 *       "You'll be an awesome mom!", "Keep it up!") and bare questions ("What got you into
 *       running?") say nothing. The thresholds were chosen on the LoCoMo dev split ({@code
 *       docs/write-path.md}).
 *   <li><b>Text.</b> The turn's text, prefixed with {@code "Speaker: "} when the turn has a speaker
 *       (so that a record says who said it). Context (indexed for search, never rendered): the two
 *       turns before and after it in the same episode (of the batch or of the batch's context).
 *   <li><b>Cues.</b> A user turn with a cue becomes a {@code semantic} record (else {@code
 *       episodic}), with metadata {@code kind}: <i>preference</i> ("my favourite X is", "I
 *       love/like/prefer/hate"), <i>decision</i> ("I decided", "I'm going to", "I chose"),
 *       <i>goal</i> ("my goal is", "I want to", "I'm planning to", "I'd love to"),
 *       <i>difficulty</i> ("I'm struggling", "I have trouble", "hard for me"), or <i>fact</i>. A
 *       fact key is set only where a rule can name the slot: "my favourite X is" ({@code favorite
 *       x}), "I live in / moved to" ({@code residence}), "I work as/at/for", "my job is" ({@code
 *       occupation}), "my name is" ({@code name}), "I'm allergic to X" ({@code allergy x}),
 *       prefixed with the speaker's normalized name ({@code maya/residence}). Assistant turns never
 *       get cues: they are episodic.
 *   <li><b>Time.</b> {@code recorded_at} is the turn's time. A time expression in the text that
 *       lies in the past of the turn ("last Saturday", "two weeks ago", "yesterday", "in May 2022";
 *       parsed by {@link TimeExpressions} against the turn's time and the batch's zone) and spans
 *       at most a year sets {@code valid_from} to its start (the most specific one when there are
 *       several); otherwise {@code valid_from} is the turn's time. The expression is kept in
 *       metadata {@code time_expression}.
 *   <li><b>Entities.</b> The entity finder's names in the text (by default {@link
 *       Entities#extract}), plus the speaker's name.
 *   <li><b>Importance</b> (0..1): 0.4; +0.3 with a cue; +0.1 with a resolved past time or a number;
 *       +0.1 when it names an entity other than the speaker; -0.1 for a question without a cue;
 *       clamped to [0.1, 0.9].
 * </ol>
 *
 * <p>Thread-safe and stateless.
 */
public final class OfflineExtractor implements Extractor {

  /** Fewer content words than this make a turn filler. */
  public static final int MIN_CONTENT_WORDS = 2;

  /** New content words a sentence about the speaker needs to say something (rule 2). */
  public static final int MIN_NEW_WORDS = 2;

  /**
   * New content words a sentence about neither speaker nor listener, or a question, needs (rule 2).
   */
  public static final int MIN_NEW_WORDS_THIRD_PERSON = 3;

  private static final Pattern SENTENCE = Pattern.compile("[^.!?]+[.!?]*");

  /**
   * A capitalized word inside a sentence (after a lower-case letter or a comma and a space): a
   * name.
   */
  private static final Pattern INNER_NAME = Pattern.compile("(?<=[\\p{Ll},;:] )\\p{Lu}\\p{Ll}+");

  private static final Set<String> FIRST_PERSON =
      Set.of(
          "i", "i'm", "i've", "i'd", "i'll", "me", "my", "mine", "myself", "we", "we're", "we've",
          "we'd", "we'll", "us", "our", "ours");
  private static final Set<String> SECOND_PERSON =
      Set.of("you", "you're", "you've", "you'd", "you'll", "your", "yours", "yourself", "ya");

  private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}][\\p{L}\\p{N}'’]*");
  private static final Pattern NUMBER = Pattern.compile("\\d");

  /** Greetings, thanks, acknowledgements and small-talk words: never content. */
  static final Set<String> FILLER = Words.FILLER;

  /** Function words: never content. */
  static final Set<String> FUNCTION = Words.FUNCTION;

  private record Cue(String kind, Pattern pattern, String slot) {}

  /**
   * Cue patterns, in order; the first match wins. Group 1, when present, names the slot's object.
   */
  private static final List<Cue> CUES =
      List.of(
          new Cue(
              "preference",
              Pattern.compile(
                  "\\bmy (?:all[- ]time )?favou?rite ([a-z]+(?: [a-z]+)?) (?:is|are|was|has been)\\b"),
              "favorite %s"),
          new Cue("fact", Pattern.compile("\\bi(?:'m| am) allergic to ([a-z]+)"), "allergy %s"),
          new Cue(
              "fact",
              Pattern.compile("\\bi (?:now )?(?:live|lived|moved|relocated) (?:in|to)\\b"),
              "residence"),
          new Cue(
              "fact",
              Pattern.compile(
                  "\\b(?:i (?:now )?work (?:as|at|for)|my job is|i(?:'m| am) employed)\\b"),
              "occupation"),
          new Cue("fact", Pattern.compile("\\bmy name is\\b"), "name"),
          new Cue(
              "decision",
              Pattern.compile(
                  "\\b(?:i|we)(?:'ve| have)? (?:decided|chose|chosen|settled on)\\b|\\bi(?:'m| am) going to\\b|\\bi(?:'ll| will) go with\\b"),
              null),
          new Cue(
              "goal",
              Pattern.compile(
                  "\\bmy (?:goal|dream|plan|aim) is\\b|\\bi (?:want|hope|plan|intend|aim) to\\b|\\bi(?:'m| am) (?:planning|hoping|aiming|trying) to\\b|\\bi(?:'d| would) (?:love|like) to\\b"),
              null),
          new Cue(
              "difficulty",
              Pattern.compile(
                  "\\bi(?:'m| am) (?:struggling|having (?:a hard time|trouble)|stuck)\\b|\\bi (?:struggle|keep failing|have trouble|can't seem to)\\b|\\b(?:hard|difficult|tough) for me\\b"),
              null),
          new Cue(
              "preference",
              Pattern.compile(
                  "\\bi (?:really |absolutely |do(?:n't)? )?(?:love|like|prefer|enjoy|hate|dislike|can't stand)\\b"),
              null));

  private final Function<String, List<String>> entityFinder;

  /** With the default entity finder, {@link Entities#extract}. */
  public OfflineExtractor() {
    this(Entities::extract);
  }

  /**
   * @param entityFinder the normalized names in a text (e.g. a named-entity model)
   */
  public OfflineExtractor(Function<String, List<String>> entityFinder) {
    this.entityFinder = Objects.requireNonNull(entityFinder, "entityFinder");
  }

  @Override
  public String id() {
    return "offline";
  }

  @Override
  public List<NewMemory> extract(Batch batch) {
    List<Turn> all = new ArrayList<>(batch.context());
    all.addAll(batch.turns());
    int first = batch.context().size();
    Set<String> speakers = new java.util.HashSet<>();
    for (Turn t : all)
      if (t.speaker() != null && !t.speaker().isBlank()) speakers.addAll(Words.words(t.speaker()));
    List<NewMemory> out = new ArrayList<>();
    for (int i = first; i < all.size(); i++) {
      Turn t = all.get(i);
      if (!isSubstantive(t.text()) || !saysSomething(t.text(), previousByOther(all, i), speakers))
        continue;
      out.add(memory(t, neighbours(all, i), i, batch.zone()));
    }
    return out;
  }

  /** Whether a text has at least {@value #MIN_CONTENT_WORDS} content words (rule 1). */
  public static boolean isSubstantive(String text) {
    int content = 0;
    Matcher m = WORD.matcher(text == null ? "" : text);
    while (m.find()) {
      String w = m.group().toLowerCase(Locale.ROOT).replace('’', '\'');
      if (w.length() >= 3 && !FILLER.contains(w) && !FUNCTION.contains(w)) {
        if (++content >= MIN_CONTENT_WORDS) return true;
      }
    }
    return false;
  }

  /**
   * Whether a turn says something (rule 2): one of its sentences has a cue, or is about the
   * speaker, names someone or has a number, or states something about a third party, with enough
   * content words that {@code previous} (the turn it answers, or null) did not already use.
   *
   * @param speakers lower-case words of the conversation's speakers' names (never a name that
   *     counts)
   */
  public static boolean saysSomething(String text, String previous, Set<String> speakers) {
    if (text == null) return false;
    Set<String> before = previous == null ? Set.of() : contentStems(previous, speakers);
    Matcher sm = SENTENCE.matcher(text);
    while (sm.find()) {
      String sentence = sm.group().strip();
      if (sentence.isEmpty()) continue;
      Set<String> fresh = contentStems(sentence, speakers);
      fresh.removeAll(before);
      List<String> words = Words.words(sentence);
      boolean aboutSpeaker = words.stream().anyMatch(FIRST_PERSON::contains);
      boolean toListener = words.stream().anyMatch(SECOND_PERSON::contains);
      int n = fresh.size();
      if (sentence.endsWith("?")) {
        if (aboutSpeaker && n >= MIN_NEW_WORDS_THIRD_PERSON) return true;
        continue;
      }
      String lower = sentence.toLowerCase(Locale.ROOT).replace('’', '\'');
      if (n >= 1 && CUES.stream().anyMatch(c -> c.pattern().matcher(lower).find())) return true;
      if (aboutSpeaker && n >= MIN_NEW_WORDS) return true;
      if (n >= 1 && (NUMBER.matcher(sentence).find() || namesSomeone(sentence, speakers)))
        return true;
      if (!aboutSpeaker && !toListener && n >= MIN_NEW_WORDS_THIRD_PERSON) return true;
    }
    return false;
  }

  private static boolean namesSomeone(String sentence, Set<String> speakers) {
    Matcher m = INNER_NAME.matcher(sentence);
    while (m.find()) if (!speakers.contains(m.group().toLowerCase(Locale.ROOT))) return true;
    return false;
  }

  /** Stemmed content words (rule 1's definition), without the speakers' names. */
  private static Set<String> contentStems(String text, Set<String> speakers) {
    Set<String> out = new java.util.HashSet<>();
    for (String w : Words.words(text)) {
      if (w.length() >= 3 && !FILLER.contains(w) && !FUNCTION.contains(w) && !speakers.contains(w))
        out.add(Words.stem(w));
    }
    return out;
  }

  /**
   * The text of the turn just before {@code i} in its episode when another speaker said it, else
   * null.
   */
  private static String previousByOther(List<Turn> all, int i) {
    if (i == 0) return null;
    Turn prev = all.get(i - 1);
    Turn t = all.get(i);
    if (!Objects.equals(prev.episode(), t.episode())) return null;
    if (prev.role() == t.role() && Objects.equals(prev.speaker(), t.speaker())) return null;
    return prev.text();
  }

  /**
   * Turns on each side of a turn, in the same episode, that make its context (as the LoCoMo
   * runner's).
   */
  static final int CONTEXT_SPAN = 2;

  private static String neighbours(List<Turn> all, int i) {
    List<String> around = new ArrayList<>(2 * CONTEXT_SPAN);
    for (int d = -CONTEXT_SPAN; d <= CONTEXT_SPAN; d++) {
      int j = i + d;
      if (d != 0
          && j >= 0
          && j < all.size()
          && Objects.equals(all.get(j).episode(), all.get(i).episode())) {
        around.add(text(all.get(j)));
      }
    }
    return around.isEmpty() ? null : String.join("\n", around);
  }

  private static String text(Turn t) {
    return t.speaker() == null || t.speaker().isBlank() ? t.text() : t.speaker() + ": " + t.text();
  }

  private NewMemory memory(Turn t, String context, int position, ZoneId zone) {
    String lower = t.text().toLowerCase(Locale.ROOT).replace('’', '\'');
    Map<String, String> meta = new LinkedHashMap<>();
    if (t.speaker() != null && !t.speaker().isBlank())
      meta.put("speaker", t.speaker()); // read path: speaker signal
    meta.put(
        "role",
        t.role().code()); // read path: "what did I ..." prefers the user's records (QueryPerson)
    Cue cue = null;
    String factKey = null;
    if (t.role() == Turn.Role.USER) {
      for (Cue c : CUES) {
        Matcher m = c.pattern().matcher(lower);
        if (!m.find()) continue;
        cue = c;
        if (c.slot() != null) {
          String slot =
              m.groupCount() >= 1 ? String.format(Locale.ROOT, c.slot(), m.group(1)) : c.slot();
          String speaker = t.speaker() == null ? "" : Entities.normalize(t.speaker());
          factKey = speaker.isEmpty() ? slot : speaker + "/" + slot;
        }
        meta.put("kind", c.kind());
        break;
      }
    }
    Instant at = t.at();
    TimeRange when = pastTime(t.text(), at, zone);
    if (when != null) meta.put("time_expression", when.expression());

    Set<String> entities = new LinkedHashSet<>(entityFinder.apply(t.text()));
    String speakerKey = t.speaker() == null ? "" : Entities.normalize(t.speaker());
    boolean namesOther = entities.stream().anyMatch(e -> !e.equals(speakerKey));
    if (!speakerKey.isEmpty()) entities.add(speakerKey);

    double importance = 0.4;
    if (cue != null) importance += 0.3;
    if (when != null || NUMBER.matcher(t.text()).find()) importance += 0.1;
    if (namesOther) importance += 0.1;
    if (cue == null && t.text().strip().endsWith("?")) importance -= 0.1;
    importance = Math.round(Math.max(0.1, Math.min(0.9, importance)) * 100) / 100.0;

    NewMemory.Builder b =
        NewMemory.builder(t.owner(), text(t))
            .category(cue == null ? Category.EPISODIC : Category.SEMANTIC)
            .context(context)
            .source(t.id())
            .recordedAt(at)
            .validFrom(when == null ? at : when.from())
            .importance(importance)
            .entities(List.copyOf(entities))
            .metadata(meta);
    if (factKey != null) b.factKey(factKey);
    if (t.episode() != null) b.episode(t.episode(), position);
    return b.build();
  }

  /**
   * The most specific time expression of the text that lies in the past of {@code at} and spans at
   * most a year.
   */
  static TimeRange pastTime(String text, Instant at, ZoneId zone) {
    if (at == null) return null;
    TimeRange best = null;
    for (TimeRange r : TimeExpressions.findAll(text, at, zone)) {
      Duration span = Duration.between(r.from(), r.to());
      if (span.compareTo(Duration.ofDays(366)) > 0 || !r.from().isBefore(at)) continue;
      if (r.to().isAfter(at.plus(Duration.ofDays(1))))
        continue; // reaches into the future: not a past event
      if (best == null || span.compareTo(Duration.between(best.from(), best.to())) < 0) best = r;
    }
    return best;
  }
}
