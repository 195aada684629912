package dev.mnemo.time;

import dev.mnemo.time.Span.Grain;
import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.temporal.TemporalAdjusters;

/**
 * The query and the moment it was asked, which every expression is resolved against, with helpers
 * that turn calendar dates into spans of instants in the query's zone.
 */
record Reference(String query, Instant askedAt, ZoneId zone, ZonedDateTime now, LocalDate today) {

  static Reference of(String query, Instant askedAt, ZoneId zone) {
    ZonedDateTime now = askedAt.atZone(zone);
    return new Reference(query, askedAt, zone, now, now.toLocalDate());
  }

  /** Monday of the ISO week that contains today. */
  LocalDate monday() {
    return today.with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY));
  }

  YearMonth thisMonth() {
    return YearMonth.from(today);
  }

  /** The instant the day {@code d} starts in the query's zone. */
  Instant startOf(LocalDate d) {
    return d.atStartOfDay(zone).toInstant();
  }

  LocalDate dateOf(Instant t) {
    return LocalDate.ofInstant(t, zone);
  }

  /** The whole days {@code [from, toExclusive)}. */
  Span days(LocalDate from, LocalDate toExclusive, Grain grain) {
    return Span.of(startOf(from), startOf(toExclusive), grain);
  }

  Span day(LocalDate d) {
    return days(d, d.plusDays(1), Grain.DAY);
  }

  Span week(LocalDate monday) {
    return days(monday, monday.plusWeeks(1), Grain.WEEK);
  }

  Span month(YearMonth ym) {
    return days(ym.atDay(1), ym.plusMonths(1).atDay(1), Grain.MONTH);
  }

  Span year(int year) {
    return days(LocalDate.of(year, 1, 1), LocalDate.of(year + 1, 1, 1), Grain.YEAR);
  }

  Span season(Season season, int year) {
    return days(season.start(year), season.end(year), Grain.SEASON);
  }

  /** From {@code from} until the moment the query was asked. */
  Span untilNow(Instant from) {
    return Span.of(from, askedAt, Grain.OTHER);
  }
}
