package dev.mnemo.time;

import static dev.mnemo.time.Lexicon.DAY;
import static dev.mnemo.time.Lexicon.MONTH;
import static dev.mnemo.time.Lexicon.NUMBER;
import static dev.mnemo.time.Lexicon.NUMBER_END;
import static dev.mnemo.time.Lexicon.NUMBER_START;
import static dev.mnemo.time.Lexicon.SEASON;
import static dev.mnemo.time.Lexicon.WEEKDAY;
import static dev.mnemo.time.Lexicon.WORD_END;
import static dev.mnemo.time.Lexicon.WORD_START;
import static dev.mnemo.time.Lexicon.YEAR;
import static dev.mnemo.time.Lexicon.lower;

import dev.mnemo.time.Span.Grain;
import java.time.DateTimeException;
import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.Month;
import java.time.YearMonth;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.time.temporal.TemporalAdjusters;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The table of simple time expressions: each rule is a pattern and a resolver that turns a match
 * into a span, or rejects it when the words around it say it is not a time ("you may want").
 * Combinations ("since X", "before X", "early X", "from X to Y") are built on top of these by
 * {@link Modifiers}.
 */
final class BaseRules {
  private BaseRules() {}

  /** Turns a match into a span; null when the words are not a time expression here. */
  @FunctionalInterface
  interface Resolver {
    Span resolve(Matcher m, Reference r);
  }

  /** A pattern and its resolver; of two matches covering the same words, the earlier rule wins. */
  record Rule(String name, Pattern pattern, Resolver resolver) {}

  /**
   * A resolved match: the words {@code [start, end)} of the query and the span they denote.
   *
   * @param priority the position of the rule in {@link #RULES}
   */
  record Found(int start, int end, Span span, int priority) {
    int length() {
      return end - start;
    }

    Found with(int newStart, int newEnd, Span newSpan) {
      return new Found(newStart, newEnd, newSpan, priority);
    }
  }

  private static final String REL_UNIT = "(?<unit>days?|weeks?|months?|years?)";

  static final List<Rule> RULES =
      List.of(
          // Days around today.
          word("day before yesterday", "the\\s+day\\s+before\\s+yesterday", dayOffset(-2)),
          word("day after tomorrow", "the\\s+day\\s+after\\s+tomorrow", dayOffset(2)),
          word("yesterday", "yesterday|last\\s+night", dayOffset(-1)),
          word("today", "today|tonight|this\\s+(?:morning|afternoon|evening)", dayOffset(0)),
          word("tomorrow", "tomorrow", dayOffset(1)),
          // Weeks, months and years.
          word(
              "unit before last",
              "the\\s+(?<unit>week|month|year)\\s+(?<dir>before\\s+last|after\\s+next)",
              BaseRules::beforeLastOrAfterNext),
          word(
              "rolling window",
              "(?:(?<det>the|this)\\s+)?(?<rel>last|past|previous|next|coming)\\s+(?:"
                  + NUMBER
                  + "\\s+)?(?<unit>hours?|days?|weeks?|months?|years?)",
              BaseRules::rollingWindow),
          word(
              "this/last/next unit",
              "(?:the\\s+)?(?<rel>this|last|previous|next|coming)\\s+(?<unit>week|month|year)",
              BaseRules::relativeUnit),
          word("ago", NUMBER + "\\s+" + REL_UNIT + "\\s+ago", BaseRules::ago),
          word(
              "recently",
              "recently|lately",
              (m, r) -> r.untilNow(r.now().minusDays(30).toInstant())),
          // Weekends and weekdays.
          word(
              "weekend",
              "(?<rel>this\\s+past|this\\s+coming|this|last|previous|next|coming|the)\\s+weekend",
              BaseRules::weekend),
          word(
              "weekday ago",
              "(?:the\\s+)?" + WEEKDAY + "\\s+" + NUMBER + "\\s+" + REL_UNIT + "\\s+ago",
              BaseRules::weekdayAgo),
          word(
              "weekday",
              "(?:(?<rel>this\\s+past|this\\s+coming|this|last|previous|past|next|coming)\\s+)?"
                  + WEEKDAY,
              BaseRules::weekday),
          // Dates.
          rule(
              "iso date",
              NUMBER_START
                  + "(?<![-–])(?<year>\\d{4})(?<sep>[-/.])(?<mm>\\d{2})\\k<sep>(?<dd>\\d{2})"
                  + "(?![\\p{N}])(?![-.,/:]\\p{N})(?![\\p{L}&&[^tT]])",
              BaseRules::isoDate),
          rule(
              "iso month",
              NUMBER_START
                  + "(?<![-–])(?<year>(?:19|20)\\d\\d)-(?<mm>0[1-9]|1[0-2])"
                  + NUMBER_END
                  + "(?!-\\p{N})",
              BaseRules::isoMonth),
          word(
              "month day",
              "(?:"
                  + WEEKDAY
                  + ",?\\s+)?(?:the\\s+)?"
                  + MONTH
                  + "\\.?\\s+(?:the\\s+)?"
                  + DAY
                  + "(?:(?:\\s*,\\s*|\\s+)(?:of\\s+)?"
                  + YEAR
                  + ")?",
              BaseRules::date),
          rule(
              "day month",
              NUMBER_START
                  + "(?:"
                  + WEEKDAY
                  + ",?\\s+)?(?:the\\s+)?"
                  + DAY
                  + "\\s+(?:of\\s+)?"
                  + MONTH
                  + "\\.?(?:\\s*,?\\s*"
                  + YEAR
                  + ")?"
                  + WORD_END,
              BaseRules::date),
          // Months.
          word(
              "month year",
              MONTH + "\\.?\\s*,?\\s+(?:of\\s+)?" + YEAR + NUMBER_END,
              (m, r) ->
                  countsSomething(r.query(), m.end())
                      ? null // "in May 2000 users signed up"
                      : r.month(YearMonth.of(year(m), Lexicon.month(m.group("month"))))),
          word(
              "this/last/next month name",
              "(?<rel>last|this|next|previous|coming)\\s+" + MONTH,
              BaseRules::relativeMonth),
          word("month name", MONTH, BaseRules::month),
          // Seasons.
          word(
              "season year",
              "(?:the\\s+)?" + SEASON + "\\s*,?\\s+(?:of\\s+)?" + YEAR + NUMBER_END,
              (m, r) ->
                  countsSomething(r.query(), m.end())
                      ? null
                      : r.season(Season.named(m.group("season")), year(m))),
          word(
              "this/last/next season",
              "(?<rel>last|this|next|previous|past|coming)\\s+" + SEASON,
              BaseRules::relativeSeason),
          word("season", "(?:the\\s+)?" + SEASON, BaseRules::season),
          // Years.
          word("the year", "the\\s+year\\s+" + YEAR + NUMBER_END, (m, r) -> r.year(year(m))),
          rule("year", NUMBER_START + YEAR + NUMBER_END, BaseRules::year));

  /** Every match of every rule that resolves, overlapping ones included. */
  static List<Found> findAll(Reference r) {
    List<Found> found = new ArrayList<>();
    for (int priority = 0; priority < RULES.size(); priority++) {
      Rule rule = RULES.get(priority);
      Matcher m = rule.pattern().matcher(r.query());
      int from = 0;
      while (from < r.query().length() && m.find(from)) {
        Span span = resolve(rule, m, r);
        if (span != null) {
          found.add(new Found(m.start(), m.end(), span, priority));
          from = m.end();
        } else {
          // A rejected match may hide another one that starts inside it: try the next position.
          from = m.start() + 1;
        }
      }
    }
    return found;
  }

  private static Span resolve(Rule rule, Matcher m, Reference r) {
    try {
      return rule.resolver().resolve(m, r);
    } catch (DateTimeException | ArithmeticException e) {
      // Dates out of range ("9999 years ago", "Feb 30"): not an expression we can place in time.
      return null;
    }
  }

  private static Rule word(String name, String regex, Resolver resolver) {
    return rule(name, WORD_START + "(?:" + regex + ")" + WORD_END, resolver);
  }

  private static Rule rule(String name, String regex, Resolver resolver) {
    return new Rule(name, Pattern.compile(regex, Lexicon.FLAGS), resolver);
  }

  // ---- resolvers ----

  private static Resolver dayOffset(int days) {
    return (m, r) -> r.day(r.today().plusDays(days));
  }

  /** The calendar day, ISO week, month or year {@code offset} units from the current one. */
  private static Span calendarUnit(String unit, long offset, Reference r) {
    return switch (singular(unit)) {
      case "day" -> r.day(r.today().plusDays(offset));
      case "week" -> r.week(r.monday().plusWeeks(offset));
      case "month" -> r.month(r.thisMonth().plusMonths(offset));
      case "year" -> r.year(Math.addExact(r.today().getYear(), Math.toIntExact(offset)));
      default -> null;
    };
  }

  private static Span beforeLastOrAfterNext(Matcher m, Reference r) {
    int offset = lower(m.group("dir")).startsWith("before") ? -2 : 2;
    return calendarUnit(m.group("unit"), offset, r);
  }

  private static Span relativeUnit(Matcher m, Reference r) {
    return calendarUnit(m.group("unit"), offset(m.group("rel")), r);
  }

  private static Span ago(Matcher m, Reference r) {
    return calendarUnit(m.group("unit"), -Lexicon.number(m.group("num")), r);
  }

  /**
   * "the past 3 days", "in the last week", "over the past month": a window that ends when the query
   * was asked ("the next 3 days" starts then). Plain "last week" is the calendar week, not a
   * window, so "last" needs "the" or a count, and "previous"/"next" need a count.
   */
  private static Span rollingWindow(Matcher m, Reference r) {
    String rel = lower(m.group("rel"));
    String num = m.group("num");
    String unit = lower(m.group("unit"));
    if (num == null && unit.endsWith("s")) {
      return null; // "the past days": no count
    }
    boolean window =
        switch (rel) {
          case "past" -> true;
          case "last" -> m.group("det") != null || num != null;
          default -> num != null;
        };
    if (!window) {
      return null;
    }
    int n = num == null ? 1 : Lexicon.number(num);
    ChronoUnit chronoUnit = chronoUnit(unit);
    ZonedDateTime now = r.now();
    if (rel.equals("next") || rel.equals("coming")) {
      return Span.of(r.askedAt(), now.plus(n, chronoUnit).toInstant(), Grain.OTHER);
    }
    return r.untilNow(now.minus(n, chronoUnit).toInstant());
  }

  /** Saturday 00:00 to Monday 00:00 of the current, previous or next ISO week. */
  private static Span weekend(Matcher m, Reference r) {
    String rel = normalize(m.group("rel"));
    long weeks;
    if (rel.equals("the")) {
      // "the weekend": the one in progress on Saturday and Sunday, otherwise the one just past.
      DayOfWeek dow = r.today().getDayOfWeek();
      weeks = dow == DayOfWeek.SATURDAY || dow == DayOfWeek.SUNDAY ? 0 : -1;
    } else {
      weeks = offset(rel);
    }
    LocalDate saturday = r.monday().plusWeeks(weeks).plusDays(5);
    return r.days(saturday, saturday.plusDays(2), Grain.WEEKEND);
  }

  /**
   * "Saturday" alone: the most recent Saturday on or before today. "last Saturday": the one in the
   * 7 days before today. "next Saturday": the one in the 7 days after today. "this Saturday": the
   * one in the current ISO week.
   */
  private static Span weekday(Matcher m, Reference r) {
    DayOfWeek dow = Lexicon.weekday(m.group("weekday"));
    String rel = m.group("rel") == null ? "" : normalize(m.group("rel"));
    LocalDate today = r.today();
    LocalDate day =
        switch (rel) {
          case "" -> today.with(TemporalAdjusters.previousOrSame(dow));
          case "this" -> r.monday().with(TemporalAdjusters.nextOrSame(dow));
          case "next", "coming", "this coming" ->
              today.plusDays(1).with(TemporalAdjusters.nextOrSame(dow));
          default -> today.minusDays(1).with(TemporalAdjusters.previousOrSame(dow));
        };
    return r.day(day);
  }

  /**
   * "the Wednesday two months ago": that weekday in the ISO week of the day that many units before
   * today (today minus two months, then the Wednesday of that week).
   */
  private static Span weekdayAgo(Matcher m, Reference r) {
    DayOfWeek dow = Lexicon.weekday(m.group("weekday"));
    LocalDate anchor = r.today().minus(Lexicon.number(m.group("num")), chronoUnit(m.group("unit")));
    return r.day(
        anchor
            .with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY))
            .with(TemporalAdjusters.nextOrSame(dow)));
  }

  /** The unit of "3 days", "a week", "two months", "the past hour". */
  private static ChronoUnit chronoUnit(String unit) {
    return switch (singular(unit)) {
      case "hour" -> ChronoUnit.HOURS;
      case "day" -> ChronoUnit.DAYS;
      case "week" -> ChronoUnit.WEEKS;
      case "month" -> ChronoUnit.MONTHS;
      default -> ChronoUnit.YEARS;
    };
  }

  private static Span isoDate(Matcher m, Reference r) {
    return r.day(
        LocalDate.of(
            Integer.parseInt(m.group("year")),
            Integer.parseInt(m.group("mm")),
            Integer.parseInt(m.group("dd"))));
  }

  private static Span isoMonth(Matcher m, Reference r) {
    return r.month(
        YearMonth.of(Integer.parseInt(m.group("year")), Integer.parseInt(m.group("mm"))));
  }

  /** "May 5", "5th of May", "May 5, 2023": that day; without a year the most recent one. */
  private static Span date(Matcher m, Reference r) {
    Month month = Lexicon.month(m.group("month"));
    int day = Integer.parseInt(m.group("day"));
    if (m.group("year") != null) {
      return r.day(LocalDate.of(year(m), month, day));
    }
    String next = Neighbours.nextWord(r.query(), m.end());
    if (Lexicon.looksLikeCount(next) || (isMay(m) && isModal(m, r.query(), next))) {
      return null; // "May 5 people", "5 may be enough"
    }
    LocalDate date = mostRecent(month, day, r.today());
    return date == null ? null : r.day(date);
  }

  /**
   * Whether the "may" of a date without a year is the verb: always before a modal follower, and
   * after a bare number ("step 3 may suffice") unless a clear follower or nothing comes next. "3rd
   * of May" and "May 3" stay dates.
   */
  private static boolean isModal(Matcher m, String query, String next) {
    if (Lexicon.MODAL_FOLLOWERS.contains(next)) {
      return true;
    }
    boolean bareNumberFirst =
        m.start("day") < m.start("month")
            && query.substring(m.end("day"), m.start("month")).isBlank();
    return bareNumberFirst && !next.isEmpty() && !Lexicon.CLEAR_AFTER_MAY.contains(next);
  }

  /** The latest {@code month}/{@code day} on or before {@code today}; Feb 29 looks back 8 years. */
  private static LocalDate mostRecent(Month month, int day, LocalDate today) {
    for (int year = today.getYear(); year >= today.getYear() - 8; year--) {
      try {
        LocalDate date = LocalDate.of(year, month, day);
        if (!date.isAfter(today)) {
          return date;
        }
      } catch (DateTimeException e) {
        // no such day that year (Feb 29) or at all (Apr 31): try the year before
      }
    }
    return null;
  }

  /**
   * "last May": the most recent May before the current month. "this May": May of the current year.
   * "next May": the first May after the current month.
   */
  private static Span relativeMonth(Matcher m, Reference r) {
    String rel = lower(m.group("rel"));
    if (isMay(m) && rejectsMayAfter(rel, Neighbours.nextWord(r.query(), m.end()))) {
      return null;
    }
    YearMonth current = r.thisMonth();
    YearMonth ym = current.withMonth(Lexicon.month(m.group("month")).getValue());
    switch (rel) {
      case "last", "previous" -> {
        if (!ym.isBefore(current)) {
          ym = ym.minusYears(1);
        }
      }
      case "next", "coming" -> {
        if (!ym.isAfter(current)) {
          ym = ym.plusYears(1);
        }
      }
      default -> {} // this
    }
    return r.month(ym);
  }

  private static boolean rejectsMayAfter(String rel, String next) {
    if (rel.equals("this") || rel.equals("last")) {
      // "this may take a while", "the last may be": only clear followers leave it the month.
      return !next.isEmpty() && !Lexicon.CLEAR_AFTER_MAY.contains(next);
    }
    return Lexicon.MODAL_FOLLOWERS.contains(next);
  }

  /**
   * A month name alone is a month only after a word like "in", "since" or "early", or as the second
   * half of a range ("from May to June"); it is then the most recent such month that has started.
   */
  private static Span month(Matcher m, Reference r) {
    String query = r.query();
    boolean context = Neighbours.precededBy(Lexicon.MONTH_CONTEXT, query, m.start(), false);
    boolean partner = !context && Neighbours.afterConnective(query, m.start());
    if (!(context || partner)
        || (isMay(m) && Lexicon.MODAL_FOLLOWERS.contains(Neighbours.nextWord(query, m.end())))) {
      return null;
    }
    YearMonth ym = r.thisMonth().withMonth(Lexicon.month(m.group("month")).getValue());
    return partnerIf(partner, r.month(ym.isAfter(r.thisMonth()) ? ym.minusYears(1) : ym));
  }

  /**
   * "last summer": the most recent one that is over. "this summer": the one in progress, else the
   * one of the current year. "next summer": the first one that starts after today.
   */
  private static Span relativeSeason(Matcher m, Reference r) {
    Season season = Season.named(m.group("season"));
    if (isSoftware(season, r.query(), m.end())) {
      return null;
    }
    LocalDate today = r.today();
    int year = today.getYear();
    switch (lower(m.group("rel"))) {
      case "this" -> {
        if (season.end(year - 1).isAfter(today)) {
          year--; // a winter that started last December
        }
      }
      case "next", "coming" -> {
        year--;
        while (!season.start(year).isAfter(today)) {
          year++;
        }
      }
      default -> { // last, previous, past
        while (season.end(year).isAfter(today)) {
          year--;
        }
      }
    }
    return r.season(season, year);
  }

  /**
   * A season name alone ("in the fall", "during winter") needs a word like "in" before it; it is
   * then the most recent such season that has started. Not "the fall of Rome", not "Spring Boot".
   */
  private static Span season(Matcher m, Reference r) {
    String query = r.query();
    Season season = Season.named(m.group("season"));
    boolean context = Neighbours.precededBy(Lexicon.SEASON_CONTEXT, query, m.start(), true);
    boolean partner = !context && Neighbours.afterConnective(query, m.start());
    if (!(context || partner)
        || Neighbours.nextWord(query, m.end()).equals("of")
        || isSoftware(season, query, m.end())) {
      return null;
    }
    int year = r.today().getYear();
    if (season.start(year).isAfter(r.today())) {
      year--;
    }
    return partnerIf(partner, r.season(season, year));
  }

  private static boolean isSoftware(Season season, String query, int end) {
    return season == Season.SPRING
        && Lexicon.SPRING_SOFTWARE.contains(Neighbours.nextWord(query, end));
  }

  /**
   * A four-digit number 1900..2100 is a year after a word like "in", "since" or "the year", as the
   * second half of a range, or when it is the whole query; never when it counts something ("in 2000
   * users", "from 2000 to 3000 users").
   */
  private static Span year(Matcher m, Reference r) {
    String query = r.query();
    boolean context =
        Neighbours.precededBy(Lexicon.YEAR_CONTEXT, query, m.start(), false)
            || Neighbours.isWholeQuery(query, m.start(), m.end());
    boolean partner = !context && Neighbours.afterConnective(query, m.start());
    if (!(context || partner) || countsSomething(query, m.end())) {
      return null;
    }
    return partnerIf(partner, r.year(year(m)));
  }

  private static final Pattern COUNT_RANGE_TAIL =
      Pattern.compile(
          "\\s*(?:to|-|–|and|or)\\s*(?<n>\\d{1,9})(?![\\d.,])\\s*(?<w>\\p{L}*)", Lexicon.FLAGS);

  /**
   * Whether the number ending at {@code end} counts something: "2000 users", or "2000" followed by
   * "to 3000 ..." or "- 2050 users".
   */
  private static boolean countsSomething(String query, int end) {
    if (Lexicon.looksLikeCount(Neighbours.nextWord(query, end))) {
      return true;
    }
    Matcher m = COUNT_RANGE_TAIL.matcher(query);
    m.region(end, query.length());
    if (!m.lookingAt()) {
      return false;
    }
    int n = Integer.parseInt(m.group("n"));
    return n < 1900 || n > 2100 || Lexicon.looksLikeCount(m.group("w"));
  }

  private static Span partnerIf(boolean partner, Span span) {
    return partner && span != null ? span.asPartnerOnly() : span;
  }

  // ---- helpers ----

  private static int year(Matcher m) {
    return Integer.parseInt(m.group("year"));
  }

  private static boolean isMay(Matcher m) {
    return lower(m.group("month")).equals("may");
  }

  /** -1 for last/previous/past, +1 for next/coming, 0 for this. */
  private static int offset(String rel) {
    return switch (normalize(rel)) {
      case "this" -> 0;
      case "next", "coming", "this coming" -> 1;
      default -> -1;
    };
  }

  private static String singular(String unit) {
    String u = lower(unit);
    return u.endsWith("s") ? u.substring(0, u.length() - 1) : u;
  }

  private static String normalize(String words) {
    return lower(words).replaceAll("\\s+", " ");
  }
}
