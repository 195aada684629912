package dev.mnemo.time;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Asked on Wednesday 2026-04-22T10:00Z in UTC unless a test says otherwise. */
class TimeExpressionsTest {
  private static final Instant ASKED_AT = Instant.parse("2026-04-22T10:00:00Z");

  private static TimeRange parse(String query) {
    return parse(query, ASKED_AT);
  }

  private static TimeRange parse(String query, Instant askedAt) {
    return TimeExpressions.parse(query, askedAt, ZoneOffset.UTC)
        .orElseThrow(() -> new AssertionError("no time expression found in '" + query + "'"));
  }

  /** Midnight UTC of an ISO date. */
  private static Instant day(String isoDate) {
    return LocalDate.parse(isoDate).atStartOfDay(ZoneOffset.UTC).toInstant();
  }

  private static void assertRange(String query, String from, String to) {
    assertRange(parse(query), from, to);
  }

  private static void assertRange(TimeRange range, String from, String to) {
    assertThat(range.from()).as("from of '%s'", range.expression()).isEqualTo(day(from));
    assertThat(range.to()).as("to of '%s'", range.expression()).isEqualTo(day(to));
  }

  private static void assertUntilNow(String query, Instant from) {
    TimeRange range = parse(query);
    assertThat(range.from()).as("from of '%s'", query).isEqualTo(from);
    assertThat(range.to()).as("to of '%s'", query).isEqualTo(ASKED_AT);
  }

  @Nested
  class Days {
    @Test
    void today_isTheDayThatContainsAskedAt() {
      assertRange("what did I do today?", "2026-04-22", "2026-04-23");
    }

    @ParameterizedTest
    @ValueSource(strings = {"tonight", "this morning", "this afternoon", "this evening"})
    void partsOfToday_areToday(String query) {
      assertRange(query, "2026-04-22", "2026-04-23");
    }

    @Test
    void yesterday_isTheDayBefore() {
      assertRange("yesterday", "2026-04-21", "2026-04-22");
    }

    @Test
    void lastNight_isYesterday() {
      assertRange("what did we eat last night", "2026-04-21", "2026-04-22");
    }

    @Test
    void theDayBeforeYesterday_isTwoDaysBack() {
      TimeRange range = parse("the day before yesterday");
      assertRange(range, "2026-04-20", "2026-04-21");
      assertThat(range.expression()).isEqualTo("the day before yesterday");
    }

    @Test
    void tomorrow_andTheDayAfter_areFutureDays() {
      assertRange("tomorrow", "2026-04-23", "2026-04-24");
      assertRange("the day after tomorrow", "2026-04-24", "2026-04-25");
    }

    @Test
    void today_startsAtMidnightInTheGivenZone() {
      TimeRange range =
          TimeExpressions.parse("today", ASKED_AT, ZoneId.of("America/New_York")).orElseThrow();
      assertThat(range.from()).isEqualTo(Instant.parse("2026-04-22T04:00:00Z"));
      assertThat(range.to()).isEqualTo(Instant.parse("2026-04-23T04:00:00Z"));
    }

    @Test
    void yesterday_acrossADaylightSavingChange_isTwentyThreeHoursLong() {
      // Europe/Berlin moved its clocks forward on 2026-03-29.
      Instant askedAt = Instant.parse("2026-03-30T10:00:00Z");
      TimeRange range =
          TimeExpressions.parse("yesterday", askedAt, ZoneId.of("Europe/Berlin")).orElseThrow();
      assertThat(range.from()).isEqualTo(Instant.parse("2026-03-28T23:00:00Z"));
      assertThat(range.to()).isEqualTo(Instant.parse("2026-03-29T22:00:00Z"));
    }
  }

  @Nested
  class WeeksMonthsYears {
    @Test
    void thisWeek_isTheIsoWeekFromMonday() {
      assertRange("this week", "2026-04-20", "2026-04-27");
    }

    @Test
    void lastWeek_isThePreviousIsoWeek() {
      assertRange("last week", "2026-04-13", "2026-04-20");
      assertRange("the previous week", "2026-04-13", "2026-04-20");
    }

    @Test
    void theWeekBeforeLast_isTwoIsoWeeksBack() {
      assertRange("the week before last", "2026-04-06", "2026-04-13");
    }

    @Test
    void nextWeek_andTheWeekAfterNext_areFutureIsoWeeks() {
      assertRange("next week", "2026-04-27", "2026-05-04");
      assertRange("the week after next", "2026-05-04", "2026-05-11");
    }

    @Test
    void months_areCalendarMonths() {
      assertRange("this month", "2026-04-01", "2026-05-01");
      assertRange("last month", "2026-03-01", "2026-04-01");
      assertRange("the month before last", "2026-02-01", "2026-03-01");
      assertRange("next month", "2026-05-01", "2026-06-01");
    }

    @Test
    void years_areCalendarYears() {
      assertRange("this year", "2026-01-01", "2027-01-01");
      assertRange("last year", "2025-01-01", "2026-01-01");
      assertRange("the year before last", "2024-01-01", "2025-01-01");
      assertRange("next year", "2027-01-01", "2028-01-01");
    }

    @Test
    void lastMonth_askedInJanuary_isDecemberOfThePreviousYear() {
      assertRangeAskedAt(
          Instant.parse("2026-01-15T10:00:00Z"), "last month", "2025-12-01", "2026-01-01");
    }

    @Test
    void lastWeek_askedInTheFirstDaysOfJanuary_isInTheOldYear() {
      // 2026-01-02 is a Friday; its ISO week started on Monday 2025-12-29.
      Instant askedAt = Instant.parse("2026-01-02T10:00:00Z");
      assertRangeAskedAt(askedAt, "last week", "2025-12-22", "2025-12-29");
      assertRangeAskedAt(askedAt, "this week", "2025-12-29", "2026-01-05");
    }

    @Test
    void lastYear_askedOnNewYearsDay_isThePreviousYear() {
      assertRangeAskedAt(
          Instant.parse("2026-01-01T00:00:00Z"), "last year", "2025-01-01", "2026-01-01");
    }

    private static void assertRangeAskedAt(Instant askedAt, String query, String from, String to) {
      assertRange(parse(query, askedAt), from, to);
    }
  }

  @Nested
  class Weekdays {
    @Test
    void weekdayAlone_isTheMostRecentOneOnOrBeforeToday() {
      assertRange("Saturday", "2026-04-18", "2026-04-19");
      assertRange("what did I do on Saturday?", "2026-04-18", "2026-04-19");
      assertRange("on Wednesday", "2026-04-22", "2026-04-23");
    }

    @Test
    void lastWeekday_isTheOneWithinTheSevenDaysBeforeToday() {
      assertRange("last Saturday", "2026-04-18", "2026-04-19");
      assertRange("last Tuesday", "2026-04-21", "2026-04-22");
      assertRange("last Wednesday", "2026-04-15", "2026-04-16");
      assertRange("this past Friday", "2026-04-17", "2026-04-18");
    }

    @Test
    void lastSaturday_askedOnASaturday_isAWeekAgo() {
      TimeRange range = parse("last Saturday", Instant.parse("2026-04-25T10:00:00Z"));
      assertRange(range, "2026-04-18", "2026-04-19");
    }

    @Test
    void thisWeekday_isInTheCurrentIsoWeek() {
      assertRange("this Monday", "2026-04-20", "2026-04-21");
      assertRange("this Saturday", "2026-04-25", "2026-04-26");
    }

    @Test
    void nextWeekday_isTheOneWithinTheSevenDaysAfterToday() {
      assertRange("next Saturday", "2026-04-25", "2026-04-26");
      assertRange("next Wednesday", "2026-04-29", "2026-04-30");
      assertRange("this coming Friday", "2026-04-24", "2026-04-25");
    }

    @Test
    void weekends_runFromSaturdayToMonday() {
      assertRange("this weekend", "2026-04-25", "2026-04-27");
      assertRange("last weekend", "2026-04-18", "2026-04-20");
      assertRange("next weekend", "2026-05-02", "2026-05-04");
    }

    @Test
    void theWeekend_isTheOneInProgressOrTheLastOne() {
      assertRange("what did I do over the weekend", "2026-04-18", "2026-04-20");
      TimeRange onSunday = parse("over the weekend", Instant.parse("2026-04-26T10:00:00Z"));
      assertRange(onSunday, "2026-04-25", "2026-04-27");
    }
  }

  @Nested
  class Ago {
    @Test
    void daysAgo_isThatCalendarDay() {
      assertRange("3 days ago", "2026-04-19", "2026-04-20");
      assertRange("a day ago", "2026-04-21", "2026-04-22");
      assertRange("a couple days ago", "2026-04-20", "2026-04-21");
    }

    @Test
    void weeksAgo_isThatIsoWeek() {
      assertRange("two weeks ago", "2026-04-06", "2026-04-13");
      assertRange("a week ago", "2026-04-13", "2026-04-20");
    }

    @Test
    void monthsAgo_isThatCalendarMonth() {
      assertRange("a month ago", "2026-03-01", "2026-04-01");
      assertRange("a couple of months ago", "2026-02-01", "2026-03-01");
      assertRange("12 months ago", "2025-04-01", "2025-05-01");
    }

    @Test
    void yearsAgo_isThatCalendarYear() {
      assertRange("a few years ago", "2023-01-01", "2024-01-01");
      assertRange("one year ago", "2025-01-01", "2026-01-01");
    }

    @ParameterizedTest
    @CsvSource({
      "one, 1",
      "two, 2",
      "three, 3",
      "four, 4",
      "five, 5",
      "six, 6",
      "seven, 7",
      "eight, 8",
      "nine, 9",
      "ten, 10",
      "eleven, 11",
      "twelve, 12",
      "a, 1",
      "a couple of, 2",
      "a few, 3",
      "10, 10"
    })
    void numberWords_countUnits(String words, int n) {
      TimeRange range = parse(words + " days ago");
      LocalDate expected = LocalDate.parse("2026-04-22").minusDays(n);
      assertRange(range, expected.toString(), expected.plusDays(1).toString());
    }

    @Test
    void hoursAgo_isNotSupported() {
      assertThat(TimeExpressions.parse("3 hours ago", ASKED_AT, ZoneOffset.UTC)).isEmpty();
    }
  }

  @Nested
  class Windows {
    @Test
    void inTheLastNDays_endsWhenAsked() {
      assertUntilNow("in the last 3 days", Instant.parse("2026-04-19T10:00:00Z"));
      assertUntilNow("in the past two weeks", Instant.parse("2026-04-08T10:00:00Z"));
      assertUntilNow("last 6 months", Instant.parse("2025-10-22T10:00:00Z"));
      assertUntilNow("in the past year", Instant.parse("2025-04-22T10:00:00Z"));
      assertUntilNow("in the last 24 hours", Instant.parse("2026-04-21T10:00:00Z"));
    }

    @Test
    void overThePastWeek_isTheLastSevenDays() {
      TimeRange range = parse("what happened over the past week?");
      assertThat(range.expression()).isEqualTo("over the past week");
      assertThat(range.from()).isEqualTo(Instant.parse("2026-04-15T10:00:00Z"));
      assertThat(range.to()).isEqualTo(ASKED_AT);
    }

    @Test
    void theLastWeek_isAWindow_whileLastWeekIsTheCalendarWeek() {
      assertUntilNow("in the last week", Instant.parse("2026-04-15T10:00:00Z"));
      assertRange("last week", "2026-04-13", "2026-04-20");
    }

    @Test
    void recently_isTheLastThirtyDays() {
      assertUntilNow("what did I read recently", Instant.parse("2026-03-23T10:00:00Z"));
      assertUntilNow("lately", Instant.parse("2026-03-23T10:00:00Z"));
    }

    @Test
    void theNextNDays_startsWhenAsked() {
      TimeRange range = parse("the next 3 days");
      assertThat(range.from()).isEqualTo(ASKED_AT);
      assertThat(range.to()).isEqualTo(Instant.parse("2026-04-25T10:00:00Z"));
    }
  }

  @Nested
  class YearsMonthsDates {
    @ParameterizedTest
    @ValueSource(strings = {"in 2023", "during 2023", "2023", "2023?", "in the year 2023"})
    void year_isTheCalendarYear(String query) {
      assertRange(query, "2023-01-01", "2024-01-01");
    }

    @Test
    void monthWithoutYear_isTheMostRecentThatHasStarted() {
      assertRange("in May", "2025-05-01", "2025-06-01");
      assertRange("in April", "2026-04-01", "2026-05-01");
      assertRange("in March", "2026-03-01", "2026-04-01");
    }

    @ParameterizedTest
    @ValueSource(strings = {"in May 2023", "May 2023", "May of 2023", "May, 2023", "2023-05"})
    void monthWithYear_isThatMonth(String query) {
      assertRange(query, "2023-05-01", "2023-06-01");
    }

    @Test
    void lastMonthName_isTheMostRecentBeforeTheCurrentMonth() {
      assertRange("last May", "2025-05-01", "2025-06-01");
      assertRange("last April", "2025-04-01", "2025-05-01");
      assertRange("last March", "2026-03-01", "2026-04-01");
    }

    @Test
    void thisAndNextMonthName_lookAhead() {
      assertRange("this May", "2026-05-01", "2026-06-01");
      assertRange("next May", "2026-05-01", "2026-06-01");
      assertRange("next April", "2027-04-01", "2027-05-01");
    }

    @ParameterizedTest
    @ValueSource(strings = {"on May 5", "May 5th", "5 May", "5th of May", "the 5th of May"})
    void dateWithoutYear_isTheMostRecentOnOrBeforeToday(String query) {
      assertRange(query, "2025-05-05", "2025-05-06");
    }

    @ParameterizedTest
    @ValueSource(
        strings = {
          "May 5, 2023",
          "May 5 2023",
          "5 May 2023",
          "2023-05-05",
          "2023/05/05",
          "2023.05.05"
        })
    void dateWithYear_isThatDay(String query) {
      assertRange(query, "2023-05-05", "2023-05-06");
    }

    @Test
    void dateOfToday_isToday_andTomorrowsDate_isAYearBack() {
      assertRange("on April 22", "2026-04-22", "2026-04-23");
      assertRange("on April 23", "2025-04-23", "2025-04-24");
    }

    @Test
    void onFeb29_askedInANonLeapYear_isTheLastLeapDay() {
      TimeRange range = parse("on Feb 29", Instant.parse("2025-06-01T10:00:00Z"));
      assertRange(range, "2024-02-29", "2024-03-01");
    }

    @Test
    void onFeb29_askedTheDayBeforeALeapDay_isFourYearsBack() {
      TimeRange range = parse("Feb 29", Instant.parse("2024-02-28T10:00:00Z"));
      assertRange(range, "2020-02-29", "2020-03-01");
    }

    @Test
    void impossibleDate_isNoDate() {
      assertThat(TimeExpressions.findAll("on Feb 30", ASKED_AT, ZoneOffset.UTC)).isEmpty();
    }

    @Test
    void weekdayBeforeADate_isPartOfIt() {
      TimeRange range = parse("on Saturday, April 18");
      assertThat(range.expression()).isEqualTo("on Saturday, April 18");
      assertRange(range, "2026-04-18", "2026-04-19");
    }

    @Test
    void isoDateTime_givesItsDay() {
      assertRange("at 2023-05-05T10:00Z", "2023-05-05", "2023-05-06");
    }

    @Test
    void monthAbbreviations_workInDateContext() {
      assertRange("on Jan 5", "2026-01-05", "2026-01-06");
      assertRange("Sept 2023", "2023-09-01", "2023-10-01");
      assertUntilNow("since Dec", day("2025-12-01"));
    }
  }

  @Nested
  class Seasons {
    @Test
    void lastSummer_isTheMostRecentCompleteSummer() {
      assertRange("last summer", "2025-06-01", "2025-09-01");
      TimeRange inJuly = parse("last summer", Instant.parse("2026-07-10T10:00:00Z"));
      assertRange(inJuly, "2025-06-01", "2025-09-01");
    }

    @Test
    void thisAndNextSummer_lookAhead() {
      assertRange("this summer", "2026-06-01", "2026-09-01");
      assertRange("next summer", "2026-06-01", "2026-09-01");
    }

    @Test
    void summerOfAYear_isJuneToSeptember() {
      assertRange("in the summer of 2023", "2023-06-01", "2023-09-01");
      assertRange("summer 2023", "2023-06-01", "2023-09-01");
    }

    @Test
    void seasonAlone_isTheMostRecentThatHasStarted() {
      assertRange("in the summer", "2025-06-01", "2025-09-01");
      assertRange("in spring", "2026-03-01", "2026-06-01");
      assertRange("in the fall", "2025-09-01", "2025-12-01");
      assertRange("in autumn", "2025-09-01", "2025-12-01");
      assertRange("in the winter", "2025-12-01", "2026-03-01");
    }

    @Test
    void winter_spansTheTurnOfTheYear() {
      assertRange("last winter", "2025-12-01", "2026-03-01");
      assertRange("winter 2023", "2023-12-01", "2024-03-01");
      TimeRange inJanuary = parse("this winter", Instant.parse("2026-01-15T10:00:00Z"));
      assertRange(inJanuary, "2025-12-01", "2026-03-01");
      TimeRange lastInJanuary = parse("last winter", Instant.parse("2026-01-15T10:00:00Z"));
      assertRange(lastInJanuary, "2024-12-01", "2025-03-01");
    }
  }

  @Nested
  class PartsOfPeriods {
    @Test
    void earlyMidLateMonth_areThirdsOfTheMonth() {
      assertRange("early May", "2025-05-01", "2025-05-11");
      assertRange("mid-May", "2025-05-11", "2025-05-21");
      assertRange("mid May", "2025-05-11", "2025-05-21");
      assertRange("late May", "2025-05-21", "2025-06-01");
    }

    @Test
    void beginningAndEndOfLastMonth_areItsFirstAndLastThirds() {
      assertRange("at the beginning of last month", "2026-03-01", "2026-03-11");
      assertRange("at the end of last month", "2026-03-21", "2026-04-01");
      assertRange("at the end of February", "2026-02-21", "2026-03-01");
    }

    @Test
    void earlyMidLateYear_areThirdsOfItsMonths() {
      assertRange("early 2023", "2023-01-01", "2023-05-01");
      assertRange("in mid-2023", "2023-05-01", "2023-09-01");
      assertRange("the end of 2023", "2023-09-01", "2024-01-01");
      assertRange("late last summer", "2025-08-01", "2025-09-01");
    }

    @Test
    void late_onADay_changesNothing() {
      TimeRange range = parse("late yesterday");
      assertThat(range.expression()).isEqualTo("yesterday");
      assertRange(range, "2026-04-21", "2026-04-22");
    }
  }

  @Nested
  class OpenRanges {
    @Test
    void since_runsFromTheStartUntilAsked() {
      assertUntilNow("since March", day("2026-03-01"));
      assertUntilNow("since 2023", day("2023-01-01"));
      assertUntilNow("since last week", day("2026-04-13"));
      assertUntilNow("since May 5", day("2025-05-05"));
      assertUntilNow("ever since 2019", day("2019-01-01"));
    }

    @Test
    void before_runsFromTheDistantPastToTheStart() {
      TimeRange range = parse("before 2024");
      assertThat(range.from()).isEqualTo(TimeExpressions.DISTANT_PAST);
      assertThat(range.to()).isEqualTo(day("2024-01-01"));
      assertThat(range.expression()).isEqualTo("before 2024");
    }

    @Test
    void after_runsFromTheEndUntilAsked() {
      assertUntilNow("after May 2023", day("2023-06-01"));
    }

    @Test
    void until_runsFromTheDistantPastToTheEnd() {
      TimeRange range = parse("until March");
      assertThat(range.from()).isEqualTo(TimeExpressions.DISTANT_PAST);
      assertThat(range.to()).isEqualTo(day("2026-04-01"));
    }

    @Test
    void sinceOrAfterAFutureTime_runsToTheDistantFuture() {
      TimeRange range = parse("after next week");
      assertThat(range.from()).isEqualTo(day("2026-05-04"));
      assertThat(range.to()).isEqualTo(TimeExpressions.DISTANT_FUTURE);
    }

    @Test
    void distantBounds_fitInEpochMillis() {
      assertThat(TimeExpressions.DISTANT_PAST.toEpochMilli()).isNegative();
      assertThat(TimeExpressions.DISTANT_FUTURE.toEpochMilli()).isPositive();
    }

    @Test
    void fromXtoY_runsFromTheStartOfXToTheEndOfY() {
      assertRange("from 2019 to 2021", "2019-01-01", "2022-01-01");
      assertRange("between 2019 and 2021", "2019-01-01", "2022-01-01");
      assertRange("in 2019-2021", "2019-01-01", "2022-01-01");
      assertRange("from Monday to Wednesday", "2026-04-20", "2026-04-23");
    }

    @Test
    void fromMonthToMonthWithYear_givesTheFirstMonthThatYear() {
      assertRange("from May to June 2023", "2023-05-01", "2023-07-01");
      assertRange("from December to January 2024", "2023-12-01", "2024-02-01");
    }

    @Test
    void fromAlone_isJustTheExpression() {
      TimeRange range = parse("notes from last week");
      assertThat(range.expression()).isEqualTo("last week");
      assertRange(range, "2026-04-13", "2026-04-20");
    }
  }

  @Nested
  class FalsePositives {
    @ParameterizedTest
    @ValueSource(
        strings = {
          "may I ask what you know",
          "May I ask you something?",
          "you may want to check",
          "I may have forgotten",
          "this may take a while",
          "this may be wrong",
          "it may not matter",
          "the last may be the best",
          "version 1.5 may break",
          "5 may be enough",
          "step 3 may suffice"
        })
    void mayAsAModalVerb_isNotTheMonth(String query) {
      assertThat(TimeExpressions.findAll(query, ASKED_AT, ZoneOffset.UTC)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"march on", "we will march to the station", "the march of progress"})
    void marchAsAVerb_isNotTheMonth(String query) {
      assertThat(TimeExpressions.findAll(query, ASKED_AT, ZoneOffset.UTC)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(
        strings = {
          "it was 30 degrees",
          "I have 1000 users",
          "I have 2000 users",
          "in 2000 users",
          "a team of 2000 people",
          "from 2000 to 3000 users",
          "room 2023",
          "it costs $2023",
          "pi is 3.1415"
        })
    void numbersThatAreNotYears_areNotYears(String query) {
      assertThat(TimeExpressions.findAll(query, ASKED_AT, ZoneOffset.UTC)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(
        strings = {
          "how do I configure logging in Spring Boot",
          "in the fall of Rome",
          "I had a fall",
          "an august institution",
          "what did I say about Jan"
        })
    void ambiguousWordsWithoutTimeContext_areNotTimes(String query) {
      assertThat(TimeExpressions.findAll(query, ASKED_AT, ZoneOffset.UTC)).isEmpty();
    }

    @Test
    void monthAfterAModalMay_isStillFound() {
      TimeRange range = parse("we will march in may");
      assertThat(range.expression()).isEqualTo("in may");
      assertRange(range, "2025-05-01", "2025-06-01");
    }

    @Test
    void mayFollowedByAPronounAfterIn_isTheMonth() {
      TimeRange range = parse("In May I went to Paris");
      assertThat(range.expression()).isEqualTo("In May");
      assertRange(range, "2025-05-01", "2025-06-01");
    }

    @Test
    void dayNumberBeforeMay_isADate_unlessAVerbFollows() {
      assertRange("on 3 May", "2025-05-03", "2025-05-04");
      assertRange("3 May we met", "2025-05-03", "2025-05-04");
      assertRange("3rd May she called", "2025-05-03", "2025-05-04");
    }

    @Test
    void thisMayAtTheEndOfAQuestion_isTheMonth() {
      assertRange("what did I do this May?", "2026-05-01", "2026-06-01");
    }

    @Test
    void countBeforeAYear_doesNotHideTheYear() {
      TimeRange range = parse("we had 2000 users in 2023");
      assertThat(range.expression()).isEqualTo("in 2023");
    }

    @Test
    void monthPairWithoutContext_isNotARange() {
      assertThat(TimeExpressions.findAll("May and June", ASKED_AT, ZoneOffset.UTC)).isEmpty();
    }
  }

  @Nested
  class SeveralExpressions {
    @Test
    void parse_returnsTheShortestRange() {
      TimeRange range = parse("last year, around May 5");
      assertThat(range.expression()).isEqualTo("May 5");
      assertRange(range, "2025-05-05", "2025-05-06");
    }

    @Test
    void parse_prefersTheFirstOfEquallyShortRanges() {
      assertThat(parse("yesterday or today").expression()).isEqualTo("yesterday");
    }

    @Test
    void findAll_returnsEveryExpressionInOrder() {
      List<TimeRange> all =
          TimeExpressions.findAll(
              "what did I do over the weekend and yesterday?", ASKED_AT, ZoneOffset.UTC);
      assertThat(all)
          .extracting(TimeRange::expression)
          .containsExactly("over the weekend", "yesterday");
    }

    @Test
    void findAll_keepsTheLongestReadingOfOverlappingWords() {
      List<TimeRange> all =
          TimeExpressions.findAll("the week before last", ASKED_AT, ZoneOffset.UTC);
      assertThat(all).extracting(TimeRange::expression).containsExactly("the week before last");
    }
  }

  @Nested
  class Expressions {
    @Test
    void expression_keepsTheQuerysWordsAndCase() {
      TimeRange range = parse("What Did We Decide LAST WEEK?");
      assertThat(range.expression()).isEqualTo("LAST WEEK");
    }

    @Test
    void expression_includesLeadingPrepositions() {
      assertThat(parse("what happened in May 2023").expression()).isEqualTo("in May 2023");
      assertThat(parse("what happened during the past week").expression())
          .isEqualTo("during the past week");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "   ", "hello world", "what is my name?"})
    void noExpression_givesEmpty(String query) {
      assertThat(TimeExpressions.parse(query, ASKED_AT, ZoneOffset.UTC)).isEmpty();
      assertThat(TimeExpressions.findAll(query, ASKED_AT, ZoneOffset.UTC)).isEmpty();
    }

    @Test
    void nullQuery_givesEmpty() {
      assertThat(TimeExpressions.parse(null, ASKED_AT, ZoneOffset.UTC)).isEmpty();
    }
  }
}
