package dev.mnemo.write;

import dev.mnemo.EventTime;
import dev.mnemo.time.TimeExpressions;
import dev.mnemo.time.TimeRange;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The time a statement is about, read from its text at write time with the read path's parser
 * ({@link TimeExpressions}), resolved against the record's recorded time: "Lena moved to Lisbon in
 * 2024" is about 2024, "I moved to Porto last month" about the month before it was written.
 *
 * <p>Two things differ from reading a question, and are decided here:
 *
 * <ul>
 *   <li><b>Plans</b>: a question's "in April" is the most recent April, a statement's plan ("I am
 *       planning a trip to Kyoto in April", "I will ...", "is going to ...", "my appointment is
 *       ...") written in February is about the coming one: a month, season or date without a year
 *       and without a backward word ("last", "ago", "yesterday", "previous", "past") that resolved
 *       to before the recorded time moves one year forward when the text says it plans and is not
 *       in the past tense ("was", "were", "went", "did": "my appointment was on the 3rd").
 *   <li><b>States</b>: a phrase that starts with "since" ("has been vegetarian since March") says
 *       when a state began: {@link Found#startsState()}, so the write path takes its start as the
 *       record's valid-from unless the writer set one.
 * </ul>
 *
 * Of several expressions the most specific (shortest) one wins, as for a query. Thread-safe and
 * stateless; never throws on any text.
 */
public final class EventTimes {
  private EventTimes() {}

  /**
   * An event time read from a text.
   *
   * @param time the interval and the phrase
   * @param startsState the phrase says when a state began ("since March")
   */
  public record Found(EventTime time, boolean startsState) {}

  static final Pattern PLAN =
      Pattern.compile(
          "\\b(?:will|shall|going to|gonna|plan|plans|planning|planned to|intend|intends|scheduled"
              + "|booked|upcoming|appointment|coming up|about to|hoping to|hope to|want to|wants to"
              + "|would like to|'ll)\\b|['’]ll\\b",
          Pattern.CASE_INSENSITIVE);

  /** A statement in the past tense ("my appointment was on the 3rd"): not a plan. */
  private static final Pattern PAST =
      Pattern.compile("\\b(?:was|were|went|did|had been)\\b", Pattern.CASE_INSENSITIVE);

  private static final Pattern BACKWARD =
      Pattern.compile(
          "\\b(?:last|ago|yesterday|previous|past|before|earlier|this|next|since|today|tonight"
              + "|tomorrow)\\b|\\d{4}",
          Pattern.CASE_INSENSITIVE);

  /**
   * The event time of {@code text} written at {@code recordedAt}, or empty when it names no time.
   */
  public static Optional<Found> find(String text, Instant recordedAt, ZoneId zone) {
    List<TimeRange> all = TimeExpressions.findAll(text, recordedAt, zone);
    if (all.isEmpty()) return Optional.empty();
    TimeRange best =
        all.stream()
            .min(Comparator.comparing((TimeRange t) -> Duration.between(t.from(), t.to())))
            .orElseThrow();
    // Open ends ("before 2024", "since next week") are a bound, not the time the text is about.
    if (best.from().equals(TimeExpressions.DISTANT_PAST)
        || best.to().equals(TimeExpressions.DISTANT_FUTURE)) return Optional.empty();
    Instant from = best.from();
    Instant to = best.to();
    String phrase = best.expression().strip();
    if (!to.isAfter(recordedAt)
        && PLAN.matcher(text).find()
        && !PAST.matcher(text).find()
        && !BACKWARD.matcher(phrase).find()) {
      from = from.atZone(zone).plusYears(1).toInstant();
      to = to.atZone(zone).plusYears(1).toInstant();
    }
    boolean since = phrase.toLowerCase(Locale.ROOT).startsWith("since");
    return Optional.of(new Found(new EventTime(from, to, phrase), since));
  }
}
