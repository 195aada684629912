package dev.mnemo.time;

import dev.mnemo.time.BaseRules.Found;
import dev.mnemo.time.Span.Grain;
import java.time.Instant;
import java.time.LocalDate;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Words around a simple expression that change its range, applied in this order:
 *
 * <ol>
 *   <li>thirds: "early/mid/late X", "the beginning/middle/end of X" for a month, season or year;
 *   <li>second halves of pairs are dropped when the first half is no time ("June" in "May and
 *       June", where "May" has no month context);
 *   <li>ranges: "from X to Y", "between X and Y", "X to/through/until Y", "X-Y";
 *   <li>open ranges: "since X", "before X", "after X", "until X";
 *   <li>prepositions that add nothing but belong to the words: "in", "on", "during", "over",
 *       "within", "throughout".
 * </ol>
 */
final class Modifiers {
  private Modifiers() {}

  /** Start of the lower bound of "before X" and "until X". */
  static final Instant DISTANT_PAST = Instant.parse("0001-01-01T00:00:00Z");

  /** End of "since X" and "after X" when X starts in the future. */
  static final Instant DISTANT_FUTURE = Instant.parse("+10000-01-01T00:00:00Z");

  /** How far back the prefix patterns look; longer than any phrase they match. */
  private static final int LOOK_BACK = 48;

  private static final Pattern THIRD_BEFORE =
      prefix(
          "(?:(?:at|in|around|towards?)\\s+)?(?:the\\s+)?(?:very\\s+)?(?<part>early|mid|late"
              + "|beginning\\s+of|start\\s+of|middle\\s+of|end\\s+of)[\\s-]*");

  private static final Pattern RANGE_START = prefix("(?<word>from|between)\\s+");

  private static final Pattern CONNECTIVE =
      Pattern.compile("\\s*(?<word>to|through|thru|until|till|and|-|–)\\s*", Lexicon.FLAGS);

  private static final Pattern PARTNER_GAP =
      Pattern.compile("\\s*(?:to|through|thru|until|till|and|or|-|–)\\s*", Lexicon.FLAGS);

  private static final Pattern OPEN_BEFORE =
      prefix("(?<word>ever\\s+since|since|before|prior\\s+to|after|until|till)\\s+");

  private static final Pattern PREPOSITION_BEFORE =
      prefix("(?:in|on|during|over|within|throughout)\\s+");

  /** Applies the modifiers to non-overlapping matches in order of appearance. */
  static List<Found> apply(List<Found> found, Reference r) {
    List<Found> out = new ArrayList<>(found.size());
    for (Found f : found) {
      out.add(third(f, r));
    }
    out = withPartners(out, r.query());
    out = ranges(out, r);
    out.replaceAll(f -> openRange(f, r));
    out.replaceAll(f -> preposition(f, r));
    return out;
  }

  /**
   * "early/mid/late May" are days 1-10, 11-20 and 21-end; for a year or a season, the first, middle
   * and last third of its months (early 2023 = January to April).
   */
  private static Found third(Found f, Reference r) {
    Grain grain = f.span().grain();
    if (grain != Grain.MONTH && grain != Grain.SEASON && grain != Grain.YEAR) {
      return f;
    }
    Matcher m = before(THIRD_BEFORE, r.query(), f.start());
    if (m == null) {
      return f;
    }
    String part = Lexicon.lower(m.group("part"));
    int which =
        part.startsWith("early") || part.startsWith("beginning") || part.startsWith("start")
            ? 0
            : part.startsWith("mid") ? 1 : 2;
    LocalDate from = r.dateOf(f.span().from());
    LocalDate to = r.dateOf(f.span().to());
    LocalDate[] cuts;
    if (grain == Grain.MONTH) {
      cuts = new LocalDate[] {from, from.plusDays(10), from.plusDays(20), to};
    } else {
      long third = ChronoUnit.MONTHS.between(from, to) / 3;
      cuts = new LocalDate[] {from, from.plusMonths(third), from.plusMonths(2 * third), to};
    }
    Span span = r.days(cuts[which], cuts[which + 1], Grain.OTHER);
    return span == null ? f : f.with(m.start(), f.end(), span);
  }

  /**
   * Drops the second halves of pairs ("June" in "May to June") whose first half is not a time
   * expression: in "May and June" neither is a month.
   */
  private static List<Found> withPartners(List<Found> found, String query) {
    List<Found> out = new ArrayList<>(found.size());
    for (Found f : found) {
      Found previous = out.isEmpty() ? null : out.get(out.size() - 1);
      if (!f.span().partnerOnly()
          || (previous != null
              && PARTNER_GAP.matcher(query).region(previous.end(), f.start()).matches())) {
        out.add(f);
      }
    }
    return out;
  }

  /** Joins "X to Y" into one range from the start of X to the end of Y. */
  private static List<Found> ranges(List<Found> found, Reference r) {
    List<Found> out = new ArrayList<>(found.size());
    for (int i = 0; i < found.size(); i++) {
      Found a = found.get(i);
      Found joined = i + 1 < found.size() ? join(a, found.get(i + 1), r) : null;
      if (joined != null) {
        out.add(joined);
        i++;
      } else {
        out.add(a);
      }
    }
    return out;
  }

  private static Found join(Found a, Found b, Reference r) {
    String query = r.query();
    Matcher connective = CONNECTIVE.matcher(query).region(a.end(), b.start());
    if (!connective.matches()) {
      return null;
    }
    Matcher start = before(RANGE_START, query, a.start());
    boolean and = Lexicon.lower(connective.group("word")).equals("and");
    boolean between = start != null && Lexicon.lower(start.group("word")).equals("between");
    if (and != between) {
      return null; // "between X and Y" only; "X and Y" is two expressions
    }
    Span span = Span.of(yearOf(a.span(), b.span(), r), b.span().to(), Grain.OTHER);
    if (span == null) {
      return null;
    }
    return a.with(start == null ? a.start() : start.start(), b.end(), span);
  }

  /**
   * The start of the first half of a range, moved back into the year of the second half when it
   * would otherwise come after it: "from May to June 2023" starts in May 2023, not in the May
   * before the query.
   */
  private static Instant yearOf(Span a, Span b, Reference r) {
    Grain grain = a.grain();
    if (a.from().isBefore(b.to())
        || (grain != Grain.DAY && grain != Grain.MONTH && grain != Grain.SEASON)) {
      return a.from();
    }
    LocalDate from = r.dateOf(a.from());
    int years = from.getYear() - r.dateOf(b.from()).getYear();
    for (int k = years; k <= years + 1; k++) {
      Instant moved = r.startOf(from.minusYears(k));
      if (moved.isBefore(b.to())) {
        return moved;
      }
    }
    return a.from();
  }

  /**
   * "since X": from the start of X until the query was asked. "after X": from the end of X until
   * the query was asked. Either runs to {@link #DISTANT_FUTURE} instead when X starts or ends in
   * the future. "before X": from {@link #DISTANT_PAST} to the start of X. "until X": from {@link
   * #DISTANT_PAST} to the end of X.
   */
  private static Found openRange(Found f, Reference r) {
    Matcher m = before(OPEN_BEFORE, r.query(), f.start());
    if (m == null) {
      return f;
    }
    String word = Lexicon.lower(m.group("word"));
    Span x = f.span();
    Span span =
        switch (word.charAt(0)) {
          case 'b', 'p' -> Span.of(DISTANT_PAST, x.from(), Grain.OTHER); // before, prior to
          case 'u', 't' -> Span.of(DISTANT_PAST, x.to(), Grain.OTHER); // until, till
          case 'a' -> untilNowOrLater(x.to(), r); // after
          default -> untilNowOrLater(x.from(), r); // since, ever since
        };
    return span == null ? f : f.with(m.start(), f.end(), span);
  }

  private static Span untilNowOrLater(Instant from, Reference r) {
    Instant to = from.isBefore(r.askedAt()) ? r.askedAt() : DISTANT_FUTURE;
    return Span.of(from, to, Grain.OTHER);
  }

  private static Found preposition(Found f, Reference r) {
    Matcher m = before(PREPOSITION_BEFORE, r.query(), f.start());
    return m == null ? f : f.with(m.start(), f.end(), f.span());
  }

  /** A pattern that must end right where a match starts. */
  private static Pattern prefix(String regex) {
    return Pattern.compile(Lexicon.WORD_START + "(?:" + regex + ")$", Lexicon.FLAGS);
  }

  /** The match of {@code prefix} that ends at {@code start}, or null. */
  private static Matcher before(Pattern prefix, String query, int start) {
    Matcher m = prefix.matcher(query);
    m.region(Math.max(0, start - LOOK_BACK), start);
    m.useTransparentBounds(true);
    return m.find() ? m : null;
  }
}
