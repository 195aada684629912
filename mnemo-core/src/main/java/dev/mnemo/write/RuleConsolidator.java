package dev.mnemo.write;

import dev.mnemo.MemoryRecord;
import dev.mnemo.NewMemory;
import dev.mnemo.spi.Consolidator;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The default consolidator: deterministic rules over the owner's similar current records (the
 * engine finds them with its own recall, best first), the first record a rule fires on decides.
 *
 * <ol>
 *   <li><b>NOOP, exact duplicate</b>: the same text once lower-cased and stripped of punctuation,
 *       and the same marks ({@link SameFact#marks}: "$40" is not "€40").
 *   <li><b>NOOP, near-duplicate</b>: the same polarity (both or neither negated) and a Jaccard
 *       similarity of content words of at least {@value #NEAR_DUPLICATE}, and the same numbers,
 *       dates and identifiers ({@link SameFact#marks}): "part 0" and "part 2" are two facts.
 *   <li><b>Contradiction</b>: opposite polarity (one has a negation cue such as "not", "never", "no
 *       longer", "n't", "anymore", the other none) and a Jaccard similarity of at least {@value
 *       #SAME_STATEMENT} once negation words are removed, or the same fact key with opposite
 *       polarity. It is an <b>UPDATE</b> when the order is clear (the candidate's time, its {@code
 *       valid_from} or else its {@code recorded_at}, lies after the record's {@code valid_from}),
 *       else a <b>CONFLICT</b> (same time, or said to hold from earlier than the record it
 *       contradicts): both are kept and recall shows them together.
 *   <li><b>UPDATE, same fact key</b>: a new version of the fact.
 *   <li>Otherwise <b>ADD</b>.
 * </ol>
 *
 * <p>Content words: lower-case words without the function words of {@link OfflineExtractor}, a
 * plural or possessive "s" removed. Thread-safe and stateless.
 */
public final class RuleConsolidator implements Consolidator {

  /** Minimum Jaccard similarity of content words for a near-duplicate. */
  public static final double NEAR_DUPLICATE = 0.8;

  /** Minimum Jaccard similarity, negation words removed, for two texts to state the same thing. */
  public static final double SAME_STATEMENT = 0.6;

  private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}]+(?:['’][\\p{L}]+)?");
  private static final Pattern NEGATION =
      Pattern.compile(
          "\\b(?:not|no|never|none|nobody|nothing|neither|nor|cannot|anymore|no longer)\\b|n['’]t\\b",
          Pattern.CASE_INSENSITIVE);
  private static final Set<String> NEGATION_WORDS =
      Set.of(
          "not", "no", "never", "none", "nobody", "nothing", "neither", "nor", "cannot", "anymore",
          "longer");

  @Override
  public String id() {
    return "rules";
  }

  @Override
  public Decision decide(NewMemory candidate, List<MemoryRecord> similar) {
    String norm = normalized(candidate.text());
    Set<String> words = contentWords(candidate.text());
    boolean negated = negated(candidate.text());
    List<String> marks = SameFact.marks(candidate.text());
    for (MemoryRecord r : similar) {
      if (r.expiredAt() != null || !r.owner().equals(candidate.owner())) continue;
      // Different numbers, dates or identifiers: different facts, however similar the words
      // (also when only a currency sign differs, which normalizing removes).
      boolean sameMarks = marks.equals(SameFact.marks(r.text()));
      if (sameMarks && normalized(r.text()).equals(norm))
        return new Decision(Action.NOOP, r.id(), "exact duplicate of " + r.id());
      double j = jaccard(words, contentWords(r.text()));
      boolean opposite = negated != negated(r.text());
      boolean sameKey = candidate.factKey() != null && candidate.factKey().equals(r.factKey());
      if (!opposite && j >= NEAR_DUPLICATE && sameMarks) {
        return new Decision(
            Action.NOOP,
            r.id(),
            String.format(Locale.ROOT, "near-duplicate of %s (jaccard %.2f)", r.id(), j));
      }
      if (opposite && ((j >= SAME_STATEMENT && sameMarks) || sameKey)) {
        Instant when =
            candidate.validFrom() != null ? candidate.validFrom() : candidate.recordedAt();
        boolean later = when == null || when.isAfter(r.validFrom());
        return later
            ? new Decision(
                Action.UPDATE,
                r.id(),
                String.format(Locale.ROOT, "negates %s, said later (jaccard %.2f)", r.id(), j))
            : new Decision(
                Action.CONFLICT,
                r.id(),
                String.format(
                    Locale.ROOT,
                    "contradicts %s and its order is unclear (jaccard %.2f, both from %s)",
                    r.id(),
                    j,
                    r.validFrom()));
      }
      if (sameKey)
        return new Decision(
            Action.UPDATE, r.id(), "same fact key '" + r.factKey() + "' as " + r.id());
    }
    return Decision.add(
        similar.isEmpty()
            ? "no similar record"
            : "no rule matched the " + similar.size() + " similar records");
  }

  /** Lower case, punctuation removed, spaces collapsed. */
  static String normalized(String text) {
    return text.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}]+", " ").strip();
  }

  static boolean negated(String text) {
    return NEGATION.matcher(text).find();
  }

  static Set<String> contentWords(String text) {
    Set<String> out = new LinkedHashSet<>();
    Matcher m = WORD.matcher(text.toLowerCase(Locale.ROOT).replace('’', '\''));
    while (m.find()) {
      String w = m.group();
      if (w.endsWith("n't")) continue;
      if (w.endsWith("'s")) w = w.substring(0, w.length() - 2);
      if (OfflineExtractor.FUNCTION.contains(w) || NEGATION_WORDS.contains(w)) continue;
      if (w.length() > 3 && w.endsWith("s") && !w.endsWith("ss"))
        w = w.substring(0, w.length() - 1);
      out.add(w);
    }
    return out;
  }

  static double jaccard(Set<String> a, Set<String> b) {
    if (a.isEmpty() && b.isEmpty()) return 1;
    int inter = 0;
    for (String w : a) if (b.contains(w)) inter++;
    return (double) inter / (a.size() + b.size() - inter);
  }
}
