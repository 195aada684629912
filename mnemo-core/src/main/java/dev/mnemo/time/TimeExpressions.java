package dev.mnemo.time;

import dev.mnemo.time.BaseRules.Found;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Finds time expressions such as "last week", "in May 2023", "3 days ago" or "since March" in a
 * user's query and resolves them to half-open {@link TimeRange}s relative to the moment the query
 * was asked, in a given zone. The supported expressions, with the range each one gives, are listed
 * in {@code docs/time-expressions.md}.
 *
 * <p>The parser is hand-written on purpose: mnemo-core has no runtime dependencies beyond the JDK,
 * and no library on Maven Central resolves relative English expressions against a reference instant
 * well: the ones there are resolve to single instants rather than calendar ranges ("last week" is a
 * week, not a moment), bring dependencies of their own, or are no longer maintained. What is needed
 * here is small: a table of patterns ({@code BaseRules}) and a few modifiers around them ({@code
 * Modifiers}).
 *
 * <p>How a query is read:
 *
 * <ol>
 *   <li>Every rule of the table is matched anywhere in the query, case-insensitively. Words that
 *       are only sometimes a time need context: a month name needs a word such as "in", "since",
 *       "early" or "last" before it, or a day or year next to it, so "you may want" and "march on"
 *       are not months; a four-digit number is a year only from 1900 to 2100, after such a word or
 *       next to a month, and not when a plural noun follows ("in 2000 users").
 *   <li>Where matches overlap, the leftmost wins, then the longest ("the week before last" over
 *       "last"), then the rule listed first.
 *   <li>Modifiers around a match change its range: "early/mid/late", "from X to Y", "between X and
 *       Y", "since", "before", "after", "until". "before X" starts at {@link #DISTANT_PAST}; "since
 *       X" and "after X" end when the query was asked, or at {@link #DISTANT_FUTURE} when X lies in
 *       the future.
 * </ol>
 *
 * <p>Both methods never throw on any query text; a query with no time expression gives no range.
 */
public final class TimeExpressions {
  private TimeExpressions() {}

  /** The lower bound of open ranges into the past, such as "before 2024": 0001-01-01T00:00Z. */
  public static final Instant DISTANT_PAST = Modifiers.DISTANT_PAST;

  /**
   * The upper bound of open ranges into the future, such as "since next week": 10000-01-01T00:00Z.
   */
  public static final Instant DISTANT_FUTURE = Modifiers.DISTANT_FUTURE;

  /**
   * The most specific time expression in {@code query}: of all that {@link #findAll} finds, the one
   * with the shortest range; of equally short ones, the first in the query. So "last year, around
   * May 5" gives May 5 and "yesterday or today" gives yesterday.
   *
   * @param query the user's words; null or blank gives empty
   * @param askedAt when the query was asked: "today" is the day that contains it in {@code zone}
   * @param zone the zone in which days, weeks, months and years start
   * @return the range, or empty when the query has no time expression
   */
  public static Optional<TimeRange> parse(String query, Instant askedAt, ZoneId zone) {
    return findAll(query, askedAt, zone).stream()
        .min(Comparator.comparing((TimeRange t) -> Duration.between(t.from(), t.to())));
  }

  /**
   * Every time expression in {@code query}, in order of appearance; they do not overlap.
   *
   * @param query the user's words; null or blank gives an empty list
   * @param askedAt when the query was asked
   * @param zone the zone in which days, weeks, months and years start
   */
  public static List<TimeRange> findAll(String query, Instant askedAt, ZoneId zone) {
    Objects.requireNonNull(askedAt, "askedAt");
    Objects.requireNonNull(zone, "zone");
    if (query == null || query.isBlank()) {
      return List.of();
    }
    Reference reference;
    try {
      reference = Reference.of(query, askedAt, zone);
    } catch (DateTimeException e) {
      return List.of(); // askedAt beyond the years LocalDate can represent
    }
    List<Found> found = Modifiers.apply(leftmostLongest(BaseRules.findAll(reference)), reference);
    return found.stream()
        .map(
            f -> new TimeRange(f.span().from(), f.span().to(), query.substring(f.start(), f.end())))
        .toList();
  }

  /**
   * Drops every match that overlaps one further left, or a longer one starting at the same place.
   */
  private static List<Found> leftmostLongest(List<Found> all) {
    List<Found> sorted = new ArrayList<>(all);
    sorted.sort(
        Comparator.comparingInt(Found::start)
            .thenComparing(Comparator.comparingInt(Found::length).reversed())
            .thenComparingInt(Found::priority));
    List<Found> kept = new ArrayList<>();
    int end = 0;
    for (Found f : sorted) {
      if (f.start() >= end) {
        kept.add(f);
        end = f.end();
      }
    }
    return kept;
  }
}
